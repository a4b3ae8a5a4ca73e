package io.qubiq.app.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version stamped into the jar at build time ({@code qubiq/version.properties}). */
public final class BuildInfo {

    private BuildInfo() {
    }

    public static String version() {
        try (InputStream in = BuildInfo.class.getResourceAsStream("/qubiq/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
