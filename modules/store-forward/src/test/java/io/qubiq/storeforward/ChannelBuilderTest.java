package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.testkit.ScriptedSink;
import io.qubiq.testkit.TextCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one way the gateway builds a channel: its buffer and quarantine land under the channel's
 * directory, and a missing required part is named before anything is opened. (Every channel test
 * builds its channel through {@link ChannelFixture}, which uses the builder.)
 */
class ChannelBuilderTest {

    @TempDir
    Path dir;

    @Test
    void theBufferAndTheQuarantineLiveUnderTheChannelsDirectory() throws Exception {
        StoreForwardChannel<String> channel = ChannelBuilder.of("db", ChannelFixture.fastConfig(),
                        new ScriptedSink<String>("db"), new TextCodec())
                .overflowDefault(OverflowPolicy.REFUSE)
                .inDirectory(dir)
                .events(EventPublisher.none())
                .build();
        channel.start();
        try {
            channel.submit(List.of("a"));
        } finally {
            channel.stop();
        }
        assertThat(dir.resolve("buffer")).isDirectory();
        assertThat(dir.resolve("quarantine")).isDirectory();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("buffer", "quarantine");
        }
    }

    @Test
    void aMissingRequiredPartIsNamedAndNothingIsOpened() {
        ChannelBuilder<String> builder = ChannelBuilder.of("db", ChannelFixture.fastConfig(),
                new ScriptedSink<String>("db"), new TextCodec()).inDirectory(dir).events(EventPublisher.none());

        assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
                .hasMessage("channel db: overflowDefault(...) is required");
        assertThat(dir).isEmptyDirectory();
    }
}
