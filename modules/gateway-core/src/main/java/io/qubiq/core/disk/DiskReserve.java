package io.qubiq.core.disk;

/**
 * Asked by a store before it grows: is the disk in its critical reserve? Implementations answer from
 * a volatile field the watcher updates, so the question is cheap enough for every append.
 */
@FunctionalInterface
public interface DiskReserve {

    /** True while the disk is at or below its critical free-space threshold. */
    boolean critical();

    /** A disk that is never critical: for tools and tests. */
    static DiskReserve none() {
        return () -> false;
    }
}
