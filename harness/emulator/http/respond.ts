export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

const encoder = new TextEncoder();

/**
 * An SSE body written event by event, each on a later turn of the event loop (or `intervalMs`
 * apart: a number, or a function read before each event), so a client sees a stream arrive over
 * time rather than one write. `onClose` runs once, when the stream ends or the client goes away.
 */
export function sseResponse(events: AsyncIterable<string> | Iterable<string>, options: { intervalMs: number | (() => number); contentType?: string; onClose?: () => void }): Response {
  const interval = options.intervalMs;
  let closed = false;
  const close = () => {
    if (!closed) {
      closed = true;
      options.onClose?.();
    }
  };
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for await (const event of events) {
          if (closed) break;
          await pause(typeof interval === 'number' ? interval : interval());
          controller.enqueue(encoder.encode(event));
        }
        controller.close();
      } catch (err) {
        controller.error(err);
      } finally {
        close();
      }
    },
    cancel: close,
  });
  return new Response(stream, {
    status: 200,
    headers: { 'content-type': options.contentType ?? 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
  });
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

/** One `data:` event. */
export function dataEvent(payload: unknown): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
}
