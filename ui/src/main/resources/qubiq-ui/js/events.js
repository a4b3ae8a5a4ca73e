// Live updates: one EventSource on /api/v1/events shared by every page. Pages subscribe to an
// event type ("status", "tags", "alarm", "connections") and get its data parsed; the server sends
// only the types the session may see. The header shows whether the stream is live. "signed_out"
// says the session ended on the server (expired, password changed, user disabled): the stream is
// closed before it could reconnect into a 401.

const TYPES = ["status", "tags", "alarm", "connections"];
const RETRY_MS = 5000;

const listeners = new Map(TYPES.map((type) => [type, new Set()]));
let source = null;
let retryTimer = null;
let stateListener = () => {};
let closedListener = () => {};
let signedOutListener = () => {};

/**
 * Opens the stream (idempotent). onState(live: boolean); onClosed() when the server refused it;
 * onSignedOut() when the server ended the session.
 */
export function openEvents({ onState, onClosed, onSignedOut } = {}) {
  if (onState) stateListener = onState;
  if (onClosed) closedListener = onClosed;
  if (onSignedOut) signedOutListener = onSignedOut;
  if (source) return;
  source = new EventSource("/api/v1/events");
  source.onopen = () => stateListener(true);
  source.onerror = () => {
    stateListener(false);
    if (source && source.readyState === EventSource.CLOSED) {
      // the server answered with an error (e.g. 401 after the session expired): ask why, retry later
      source = null;
      closedListener();
      retryTimer = setTimeout(() => {
        retryTimer = null;
        openEvents();
      }, RETRY_MS);
    }
  };
  source.addEventListener("signed_out", () => {
    closeEvents();
    signedOutListener();
  });
  for (const type of TYPES) {
    source.addEventListener(type, (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      for (const listener of listeners.get(type)) listener(data);
    });
  }
}

export function closeEvents() {
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  if (source) source.close();
  source = null;
}

/** Calls listener(data) for each event of the type; returns the function that unsubscribes. */
export function subscribe(type, listener) {
  listeners.get(type).add(listener);
  return () => listeners.get(type).delete(listener);
}
