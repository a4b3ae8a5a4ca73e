/**
 * Users, roles and sign-in for the console and the API: a library the console calls; it knows no HTTP.
 *
 * <p>What it keeps: local users with Argon2id password hashes and roles ({@link io.qubiq.auth.UserStore},
 * {@code users.properties}) and API tokens stored as SHA-256 ({@link io.qubiq.auth.ApiTokens},
 * {@code api-tokens.properties}), both in one directory, each file replaced whole (temp file, fsync,
 * atomic rename) and refused at start, never overwritten, when damaged ({@link
 * io.qubiq.auth.CorruptStoreException}). Sessions ({@link io.qubiq.auth.SessionManager}) and sign-in
 * failure counters ({@link io.qubiq.auth.SignInThrottle}) live in memory: a restart signs everyone out and
 * forgets the counters.
 *
 * <p>How the console uses it: {@link io.qubiq.auth.Auth#open} wires everything;
 * {@link io.qubiq.auth.AdminBootstrap} creates the first administrator (configured password or one-time
 * setup token; never a default); {@link io.qubiq.auth.SignIn} signs in and out;
 * {@link io.qubiq.auth.Authenticator} resolves each request's {@link io.qubiq.auth.Principal} from a
 * session id or a Bearer token, checks CSRF tokens and answers {@code require(principal, permission)};
 * {@link io.qubiq.auth.UserAdministration} manages users and tokens on a principal's behalf.
 *
 * <p>Errors: refused account operations throw subclasses of {@link io.qubiq.auth.AccountException} (the
 * caller's input or permissions are at fault; nothing changed); a store that cannot be written throws
 * {@link java.io.UncheckedIOException} (nothing changed; an operator must look at the disk). Nothing here
 * retries. Every security-relevant action, refused ones included, is reported as an
 * {@link io.qubiq.core.event.AuditEvent} with the remote address under the {@code from} detail; refusals
 * of requests without accepted credentials (sign-ins, setup claims) go through
 * {@link io.qubiq.auth.RefusalDigest}, which bounds how many entries they make, and so do the permission
 * refusals (403) of signed-in callers ({@link io.qubiq.auth.AccessRefusals}, a digest of their own).
 */
package io.qubiq.auth;
