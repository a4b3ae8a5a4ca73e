package io.qubiq.console;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import java.io.IOException;
import java.util.Set;

/**
 * How core value types appear in the API's JSON: a tag path as its string ({@code "plant/oven/temp"}),
 * a quality as its OPC UA name ({@code "Good"}, {@code "BadNotConnected"}). Core stays free of JSON
 * annotations; the console decides the wire format.
 */
final class CoreJson {

    /** The core types {@link #module()} writes as JSON strings (the OpenAPI schemas say so too). */
    static final Set<Class<?>> WRITTEN_AS_STRING = Set.of(TagPath.class, Quality.class);

    private CoreJson() {
    }

    static SimpleModule module() {
        SimpleModule module = new SimpleModule("qubiq-core");
        module.addSerializer(TagPath.class, new JsonSerializer<>() {
            @Override
            public void serialize(TagPath path, JsonGenerator json, SerializerProvider provider) throws IOException {
                json.writeString(path.value());
            }
        });
        module.addSerializer(Quality.class, new JsonSerializer<>() {
            @Override
            public void serialize(Quality quality, JsonGenerator json, SerializerProvider provider) throws IOException {
                json.writeString(quality.label());
            }
        });
        return module;
    }
}
