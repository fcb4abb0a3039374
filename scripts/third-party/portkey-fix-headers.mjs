// Preload for @portkey-ai/gateway 1.15.2 on Node (fixtures/portkey-FINDINGS.md, "Streaming is broken
// out of the box"): the gateway appends headers to the immutable headers of an upstream fetch()
// answer, and every streamed request is 500 (Portkey-AI/gateway#1389, #1550). Each upstream answer
// is handed back with headers of its own; its body and status are untouched.
const upstreamFetch = globalThis.fetch;
const FetchResponse = globalThis.Response;
globalThis.fetch = async (...args) => {
  const r = await upstreamFetch(...args);
  if (r.status === 101) return r;
  return new FetchResponse(r.body, { status: r.status, statusText: r.statusText, headers: new Headers(r.headers) });
};
