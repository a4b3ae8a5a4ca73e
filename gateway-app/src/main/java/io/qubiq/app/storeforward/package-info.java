/**
 * The console's access to the store-and-forward channels: {@link io.qubiq.app.storeforward.ChannelsAccess}
 * lists every channel's status and quarantine and carries out the operator's retry and drop (on the HTTP
 * thread: a retry appends and syncs to the buffer, then waits up to three seconds for the forwarder's
 * verdicts); {@link io.qubiq.app.storeforward.DestinationParts} lists on {@code /health} the channels whose
 * destination is down, whose buffer is refusing, or whose forwarder failed. The directories no channel owns
 * are found by {@link io.qubiq.app.storeforward.OrphanedChannels} and, at an operator's word, discarded
 * ({@link io.qubiq.app.storeforward.OrphanDiscard}: every item in the loss ledger before the delete) or
 * attached to an empty outbound connection ({@link io.qubiq.app.storeforward.OrphanAttach}).
 *
 * <p><b>Owns</b> the translation of channel state and quarantine actions into the console's answers, and the
 * orphans' files.
 *
 * <p><b>Must not</b> change a channel other than through its {@code Quarantine} (which audits every retry
 * and drop with the user) or its {@code swapStorage} (an attach), must not delete data whose loss is not
 * durably in the ledger, and must not hold a delivery rule: those are {@code modules/store-forward}'s.
 */
package io.qubiq.app.storeforward;
