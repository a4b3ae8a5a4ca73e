package io.qubiq.historian;

/**
 * The historian's counters at one moment, for the console and metrics.
 *
 * @param valuesReceived  tag values the historian's consumer received from the tag bus
 * @param samplesStored   samples the storage rules accepted (including heartbeats and released
 *                        held-back samples); each became one row
 * @param valuesFiltered  values the storage rules did not store (unchanged, within deadband, or
 *                        replaced while held back)
 * @param rowsSubmitted   rows the store-and-forward channel accepted
 * @param rowsPending     rows waiting for their batch to be handed on
 * @param rowsRejected    rows the channel refused or failed to store: lost, and logged as ERROR
 * @param queueDropped    tag values the historian's full tag-bus queue dropped
 * @param liveTailTags    tags with samples in the live tail
 * @param liveTailRoom    samples the live tail has room for, all tags together (about 32 bytes each)
 * @param liveTailMaxRoom the most room it may take ({@code live_tail_max_samples}); once reached,
 *                        no tag's tail grows further
 */
public record HistorianStatus(long valuesReceived, long samplesStored, long valuesFiltered, long rowsSubmitted,
                              int rowsPending, long rowsRejected, long queueDropped, int liveTailTags,
                              long liveTailRoom, long liveTailMaxRoom) {
}
