/**
 * The tag vocabulary every module shares: a {@link io.qubiq.core.tag.TagPath} names a tag, a
 * {@link io.qubiq.core.tag.TagValue} is one observation of it with its {@link
 * io.qubiq.core.tag.DataType} and {@link io.qubiq.core.tag.Quality}. Values are immutable records.
 */
package io.qubiq.core.tag;
