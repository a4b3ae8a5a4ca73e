/**
 * Disk-full testing for any store: {@link io.qubiq.fileops.smalldisk.SmallDisk} mounts a small
 * tmpfs of a known size, proves it is that mount (and not the directory it hides), fills it from
 * outside, and unmounts it. Test support that lives in main code so every module's tests (and the
 * gateway's process tests) can use it; nothing in the gateway calls it.
 */
package io.qubiq.fileops.smalldisk;
