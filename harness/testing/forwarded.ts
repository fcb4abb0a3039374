// Test support: the one way the reshaping proxies (fieldProxy, mutatingProxy) pass a request on and
// hand back what came, so each holds only how it reshapes the answer.

/** What the target answered a forwarded request, with the headers its answer may be re-sent under. */
export interface Forwarded {
  answer: Response;
  /** The answer's headers less those a changed body cannot keep (its length, its framing, its encoding). */
  headers: Headers;
  /** The request's body as sent on (none for a GET). */
  sent: string | undefined;
}

/** Sends `request` on to `target` as it came, less the header that named how to reshape it (`controlHeader`). */
export async function forward(request: Request, target: string, controlHeader: string): Promise<Forwarded> {
  const url = new URL(request.url);
  const headers = new Headers([...request.headers].filter(([n]) => !['host', 'connection', 'content-length', controlHeader].includes(n)));
  const sent = request.method === 'GET' ? undefined : await request.text();
  const answer = await fetch(`${target}${url.pathname}${url.search}`, { method: request.method, headers, ...(sent !== undefined ? { body: sent } : {}) });
  return { answer, sent, headers: new Headers([...answer.headers].filter(([n]) => !['content-length', 'transfer-encoding', 'content-encoding'].includes(n))) };
}

/** The answer's JSON body as `rewrite` gives it back; a body that is not JSON passes as it came. */
export async function rewrittenJson({ answer, headers }: Forwarded, rewrite: (parsed: unknown) => string): Promise<Response> {
  const text = await answer.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return new Response(text, { status: answer.status, headers });
  }
  return new Response(rewrite(parsed), { status: answer.status, headers });
}
