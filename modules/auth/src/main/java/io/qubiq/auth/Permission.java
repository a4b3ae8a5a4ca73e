package io.qubiq.auth;

/**
 * One thing a user may do in the console or the API. Roles grant permissions; every endpoint
 * asks for exactly one. In configuration a permission is written in lower snake case
 * ({@code view_connections}); the console shows its {@link #label()}.
 */
public enum Permission {
    VIEW_CONNECTIONS("View connections"),
    EDIT_CONNECTIONS("Edit connections"),
    VIEW_TAGS("View tags"),
    WRITE_TAGS("Write tags"),
    VIEW_HISTORY("View history"),
    VIEW_AUDIT("View audit"),
    MANAGE_USERS("Manage users"),
    /** Validate (and later import, reload, roll back) the whole configuration through the API. */
    MANAGE_CONFIGURATION("Manage configuration");

    private final String label;

    Permission(String label) {
        this.label = label;
    }

    /** The console's name for this permission, such as "View connections". */
    public String label() {
        return label;
    }
}
