// Reading the configuration schema (GET /api/v1/config/schema) for the connection forms.

/** A key's schema without anyOf/oneOf wrappers (a shorthand or optional key). */
export function plain(spec) {
  if (!spec) return {};
  const variants = spec.anyOf || spec.oneOf;
  if (!spec.type && !spec.enum && Array.isArray(variants)) {
    return { ...(variants.find((v) => v.type && v.type !== "object") || {}), description: spec.description,
      default: spec.default };
  }
  return spec;
}
