/**
 * The console's access to the store-and-forward channels: {@link io.qubiq.app.storeforward.ChannelsAccess}
 * lists every channel's status and quarantine and carries out the operator's retry and drop (on the HTTP
 * thread: a retry appends and syncs to the buffer, then waits up to three seconds for the forwarder's
 * verdicts); {@link io.qubiq.app.storeforward.DestinationParts} lists on {@code /health} the channels whose
 * destination is down, whose buffer is refusing, or whose forwarder failed.
 *
 * <p><b>Owns</b> the translation of channel state and quarantine actions into the console's answers.
 *
 * <p><b>Must not</b> change a channel other than through its {@code Quarantine} (which audits every retry
 * and drop with the user), and must not hold a delivery rule: those are {@code modules/store-forward}'s.
 */
package io.qubiq.app.storeforward;
