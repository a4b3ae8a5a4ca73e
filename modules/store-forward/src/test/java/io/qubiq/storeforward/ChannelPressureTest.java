package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.event.BufferPressureAlarm;
import io.qubiq.core.event.ItemsDroppedAlarm;
import io.qubiq.core.event.ItemsRefusedAlarm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DESIGN.md rules 5 and 9: pressure alarms, drop-oldest and refuse at the limit, nothing silently lost. */
class ChannelPressureTest {

    static final String KB = "x".repeat(1000);

    @TempDir
    Path dir;

    private ChannelFixture f;

    private ChannelFixture start(OverflowPolicy policy) throws Exception {
        // 1 MiB limit in 256 KiB segments: about a thousand 1 kB items
        f = new ChannelFixture(dir, ChannelFixture.fastConfig().withMaxBytes(1 << 20), policy).start();
        return f;
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private int fillUntilFill(double percent) throws Exception {
        int n = 0;
        while (f.channel.status().fillPercent() < percent) {
            f.submit(n++ + KB);
        }
        return n;
    }

    @Test
    void rule5_pressureAlarmIsRaisedOnceAndClearedOnceAcrossAFillAndDrainCycle() throws Exception {
        start(OverflowPolicy.REFUSE);
        f.sink.down(true);
        int written = fillUntilFill(90);

        // raised once at 80 %; while raised, later publications of the same alarm only follow the fill
        assertThat(f.events.alarms(BufferPressureAlarm.class)).allSatisfy(alarm -> assertThat(alarm.active()).isTrue());
        assertThat(f.events.alarms(BufferPressureAlarm.class)).first().satisfies(alarm -> {
            assertThat(alarm.active()).isTrue();
            assertThat(alarm.fillPercent()).isBetween(80.0, 81.0);
            assertThat(alarm.maxBytes()).isEqualTo(1 << 20);
            assertThat(alarm.inBytesPerSecond()).isPositive();
            assertThat(alarm.message()).contains("Buffer of dest is 80 % full");
        });
        assertThat(f.channel.status().pressureAlarm()).isTrue();

        f.sink.down(false);
        await().atMost(Duration.ofSeconds(20)).until(() -> f.sink.received().size() == written);
        assertThat(f.events.alarms(BufferPressureAlarm.class)).filteredOn(alarm -> !alarm.active()).hasSize(1);
        assertThat(f.events.alarms(BufferPressureAlarm.class)).last().satisfies(alarm -> assertThat(alarm.active()).isFalse());
        assertThat(f.channel.status().pressureAlarm()).isFalse();
    }

    @Test
    void rule5_refusePolicyRejectsNewWritesAtTheLimitAndKeepsTheBacklog() throws Exception {
        start(OverflowPolicy.REFUSE);
        f.sink.down(true);
        assertThatThrownBy(() -> {
            for (int i = 0; i < 5000; i++) {
                f.submit(i + KB);
            }
        }).isInstanceOf(ChannelFullException.class)
                .hasMessageContaining("store-and-forward buffer of 'dest' is full")
                .satisfies(e -> assertThat(((ChannelFullException) e).maxBytes()).isEqualTo(1 << 20));
        long kept = f.channel.status().bufferedItems();
        assertThat(kept).isGreaterThan(500);
        assertThat(f.channel.status().itemsDropped()).isZero();

        f.sink.down(false);
        await().atMost(Duration.ofSeconds(20)).until(() -> f.sink.received().size() == kept);
        assertThat(f.sink.received().get(0)).isEqualTo("0" + KB);
    }

    @Test
    void rule5_dropOldestPolicyDiscardsTheOldestCountsEachAndAlarmsAfterThePressureAlarm() throws Exception {
        start(OverflowPolicy.DROP_OLDEST);
        f.sink.down(true);
        int total = 3000;
        for (int i = 0; i < total; i++) {
            assertThat(f.submit(i + KB)).isIn(SubmitOutcome.HANDED_OFF, SubmitOutcome.BUFFERED);
        }
        await().until(() -> f.channel.status().itemsDropped() + f.channel.status().bufferedItems() == total);
        ChannelStatus full = f.channel.status();
        assertThat(full.itemsDropped()).isPositive();
        assertThat(full.itemsDropped() + full.bufferedItems()).isEqualTo(total);

        // rule 9: the pressure alarm came first, then the drop alarm; both say so
        assertThat(f.events.alarms()).first().isInstanceOf(BufferPressureAlarm.class);
        assertThat(f.events.alarms(ItemsDroppedAlarm.class)).singleElement()
                .satisfies(alarm -> assertThat(alarm.active()).isTrue());

        f.sink.down(false);
        await().atMost(Duration.ofSeconds(20)).until(() -> f.channel.status().bufferedItems() == 0);
        // The newest items survived, in order. A batch the forwarder had already read when its records were
        // dropped may still arrive: such an item is counted as dropped and delivered (over-counted, never lost).
        List<Integer> numbers = f.sink.received().stream().map(s -> Integer.parseInt(s.substring(0, s.indexOf('x'))))
                .toList();
        assertThat(numbers).isSorted().doesNotHaveDuplicates();
        assertThat(numbers.get(numbers.size() - 1)).isEqualTo(total - 1);
        assertThat((long) numbers.size()).isGreaterThanOrEqualTo(full.bufferedItems());
        assertThat(numbers.size() + f.channel.status().itemsDropped()).isGreaterThanOrEqualTo(total);
        assertThat(f.events.alarms(ItemsDroppedAlarm.class)).hasSize(2);
        assertThat(f.events.alarms(ItemsDroppedAlarm.class).get(1).active()).isFalse();
    }

    // Catches: 1,158 values refused by a full SQL channel showing as "Dropped 0", with only the stale
    // "20 % full" pressure alarm, and the channel never reading as refusing.
    @Test
    void aRefusingChannelCountsItsRefusalsRaisesItsOwnAlarmAndClearsItOnceItTakesItemsAgain() throws Exception {
        start(OverflowPolicy.REFUSE);
        f.sink.down(true);
        int refused = 0;
        for (int i = 0; i < 3000; i++) {
            try {
                f.submit(i + KB);
            } catch (ChannelFullException e) {
                refused++;
            }
        }

        int refusedItems = refused;
        ChannelStatus full = f.channel.status();
        assertThat(refused).isPositive();
        assertThat(full.itemsRefused()).isEqualTo(refused);
        assertThat(full.itemsDropped()).isZero();
        assertThat(full.refusing()).isTrue();
        assertThat(f.events.alarms(ItemsRefusedAlarm.class)).singleElement()
                .satisfies(alarm -> assertThat(alarm.active()).isTrue());
        // the pressure alarm followed the fill up to the limit instead of staying at 80 %
        assertThat(f.events.alarms(BufferPressureAlarm.class)).last()
                .satisfies(alarm -> assertThat(alarm.fillPercent()).isGreaterThan(95.0));

        f.sink.down(false);
        await().atMost(Duration.ofSeconds(20)).until(() -> f.channel.status().bufferedItems() == 0);
        assertThat(f.channel.status().refusing()).isFalse();
        assertThat(f.events.alarms(ItemsRefusedAlarm.class)).hasSize(2).last().satisfies(alarm -> {
            assertThat(alarm.active()).isFalse();
            assertThat(alarm.refusedInEpisode()).isEqualTo(refusedItems);
        });
    }
}
