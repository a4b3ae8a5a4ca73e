/**
 * The command line: {@link io.qubiq.app.cli.CommandLineParser} turns {@code qubiq <command> [options]}
 * into one {@link io.qubiq.app.cli.Command} variant, or a {@link io.qubiq.app.cli.UsageException} that
 * names the argument it could not understand.
 *
 * <p><b>Owns</b> the commands, their options and the usage text.
 *
 * <p><b>Must not</b> act: no file is read, no directory created and nothing started here (that is
 * {@code Main}'s and {@code GatewayRunner}'s), and nothing is guessed from an unexpected argument.
 */
package io.qubiq.app.cli;
