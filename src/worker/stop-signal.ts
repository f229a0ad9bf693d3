// Asking, from inside a long synchronous search, whether the page wants it
// stopped. The page is not cross-origin isolated, so there is no
// SharedArrayBuffer, and a worker busy in one task reads no messages. But a
// dedicated worker may make a synchronous XMLHttpRequest, and a blob: URL the
// page created resolves until the page revokes it: the page hands each plan
// request a fresh blob: URL and revokes it to stop; the search asks now and
// then. Nothing goes over the network. Needs XMLHttpRequest, nothing else of the DOM.

/** Whether the page revoked `url` (true: stop); undefined where this thread cannot ask. */
export type StopProbe = (url: string) => boolean | undefined;

/** A probe for threads that cannot ask (Node, the main-thread fallback): never tells. */
export const NO_STOP_PROBE: StopProbe = () => undefined;

/** Asks with a synchronous request for the blob: URL; any failure means it was revoked. */
export const probeStopUrl: StopProbe = (url) => {
  if (typeof XMLHttpRequest === 'undefined') return undefined;
  try {
    const request = new XMLHttpRequest();
    request.open('GET', url, false);
    request.send();
    return request.status !== 200;
  } catch {
    return true;
  }
};
