package io.qubiq.app.config;

import io.qubiq.config.ConfigDiff;
import io.qubiq.config.ConfigTree;
import io.qubiq.config.revision.ConfigRevisions;
import io.qubiq.config.revision.Revision;
import io.qubiq.config.secret.SecretStore;
import io.qubiq.console.ConfigChanges.Invalid;
import io.qubiq.console.RequestFailure;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secrets side of a change: secrets entered in clear never reach the file. A change collects them in
 * {@link NewSecrets} ({@link #entering}); before the file is written they are kept in the data directory's
 * {@link SecretStore} ({@link #keep}), and a change that would write a secret into the file in clear, or
 * enter one where there is no data directory to keep it, is refused. After a commit the store forgets the
 * secrets that neither the file nor a kept revision names any more ({@link #forgetUnnamed}).
 *
 * <p>Owns the cache of the secret names each kept revision refers to, so a change reads one revision's text,
 * not every kept one. Threading: used under the configuration writer's lock.
 */
final class ChangeSecrets {

    private static final Logger log = LoggerFactory.getLogger(ChangeSecrets.class);

    private final Set<String> secretKeys;
    /** The secret names each kept revision's text refers to, by revision number and token (its text's hash). */
    private final Map<String, Set<String>> namedBy = new HashMap<>();

    /** @param secretKeys the names of the secret keys ({@code password}, …) */
    ChangeSecrets(Set<String> secretKeys) {
        this.secretKeys = Set.copyOf(secretKeys);
    }

    /** A new collection of the secrets one change enters, to be kept in {@code store}. */
    NewSecrets entering(SecretStore store) {
        return new NewSecrets(store, secretKeys);
    }

    /**
     * The refusal of a change that would write a secret into the file in clear: a secret key it changes
     * whose new value comes neither from the environment nor from the secrets store.
     */
    static Optional<Invalid> writtenInClear(LoadedConfig before, LoadedConfig after) {
        for (ConfigDiff.Change change : ConfigDiff.between(before.config(), after.config())) {
            if (ConfigTree.MASK.equals(change.to()) && !after.fromEnvironment().containsKey(change.key())
                    && !after.fromSecrets().containsKey(change.key())) {
                return Optional.of(ChangeRefusals.atKey(change.key(), "'" + change.key() + "' is a secret, set here in"
                        + " a way that would write it into the file in clear: set it on its own key, so it goes to the"
                        + " secrets store"));
            }
        }
        return Optional.empty();
    }

    /**
     * Keeps the secrets {@code entered} in {@code store} (durably, before the file is written); nothing when
     * it enters none. Refused when the gateway has no data directory to keep them in.
     *
     * @throws RequestFailure.Fault the store cannot keep them (nothing changed)
     */
    static Optional<Invalid> keep(NewSecrets entered, LoadedConfig after, SecretStore store) {
        if (entered.values().isEmpty()) {
            return Optional.empty();
        }
        if (store.directory().isEmpty()) {
            String key = after.fromSecrets().keySet().stream().findFirst().orElse("");
            return Optional.of(ChangeRefusals.atKey(key, "'" + key + "' is a secret, and this gateway has no data"
                    + " directory to keep secrets in: write it in the configuration file as a ${VARIABLE} reference"));
        }
        try {
            store.keep(entered.values());
        } catch (IOException e) {
            throw new RequestFailure.Fault("cannot keep the secret in the secrets store (nothing changed): "
                    + e.getMessage());
        }
        return Optional.empty();
    }

    /**
     * Forgets the secrets that neither the file nor a kept revision of {@code revisions} names; a failure is
     * only logged (they stay, and are tried again after the next change).
     */
    void forgetUnnamed(ConfigRevisions revisions, SecretStore store) {
        if (store.names().isEmpty()) {
            return;
        }
        try {
            Set<String> named = new HashSet<>();
            List<Revision> kept = revisions.list();
            namedBy.keySet().retainAll(kept.stream().map(ChangeSecrets::cacheKey).collect(Collectors.toSet()));
            for (Revision revision : kept) {
                Set<String> names = namedBy.get(cacheKey(revision));
                if (names == null) {
                    names = Set.copyOf(SecretStore.referencedBy(revisions.text(revision)));
                    namedBy.put(cacheKey(revision), names);
                }
                named.addAll(names);
            }
            int forgotten = store.retainOnly(named::contains);
            if (forgotten > 0) {
                log.info("Forgot {} secret(s) that no kept revision of the configuration names", forgotten);
            }
        } catch (IOException e) {
            log.warn("Could not forget the secrets no revision names any more (they stay, and are tried again after"
                    + " the next change): {}", e.getMessage());
        }
    }

    private static String cacheKey(Revision revision) {
        return revision.number() + " " + revision.token();
    }
}
