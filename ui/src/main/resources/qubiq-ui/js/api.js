// The gateway's REST API as the pages use it: JSON in and out, the CSRF token on every
// state-changing request, the sign-in page on 401, and the server's own error sentence
// (its "error" field) as the message of every failure.

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

let csrfToken = null;
let unauthorized = () => {};

/** A failed request: HTTP status (0 when the gateway did not answer), the server's sentence, its body. */
export class ApiError extends Error {
  constructor(status, message, body = null, retryAfterSeconds = null) {
    super(message);
    this.status = status;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function setCsrfToken(token) {
  csrfToken = token;
}

/** Called with the ApiError of every 401, unless the request asked to handle it itself. */
export function onUnauthorized(handler) {
  unauthorized = handler;
}

/**
 * One request; the body goes as JSON, or as it is when a contentType is given (a YAML text for
 * POST /api/v1/config/validate). A background request (a page refreshing itself on a timer) says so
 * (X-Qubiq-Background), so that it does not keep an idle session alive.
 */
export async function request(method, path, body, { handle401 = false, contentType = null, background = false } = {}) {
  const headers = { Accept: "application/json" };
  if (background) headers["X-Qubiq-Background"] = "1";
  if (body !== undefined) headers["Content-Type"] = contentType || "application/json";
  if (UNSAFE.has(method) && csrfToken) headers["X-CSRF-Token"] = csrfToken;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : contentType ? String(body) : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch (e) {
    throw new ApiError(0, `The gateway does not answer (${e.message}).`);
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const message = data && typeof data.error === "string" ? data.error
        : `${method} ${path} failed with HTTP ${response.status}`;
    const header = Number(response.headers.get("Retry-After"));
    const retryAfter = data && Number.isFinite(data.retryAfterSeconds) ? data.retryAfterSeconds
        : Number.isFinite(header) && header > 0 ? header : null;
    const error = new ApiError(response.status, message, data, retryAfter);
    if (response.status === 401 && !handle401) unauthorized(error);
    throw error;
  }
  return data;
}

export const api = {
  get: (path, options) => request("GET", path, undefined, options),
  post: (path, body, options) => request("POST", path, body, options),
  /** A text body as it is: postText("/api/v1/config/validate", yaml, "application/yaml"). */
  postText: (path, text, contentType) => request("POST", path, text, { contentType }),
  put: (path, body, options) => request("PUT", path, body, options),
  del: (path, options) => request("DELETE", path, undefined, options),
};

/** Encodes each segment of a path parameter but keeps its slashes (tag paths contain "/"). */
export function pathParam(value) {
  return String(value).split("/").map(encodeURIComponent).join("/");
}
