import type { Exchange } from '#harness/core/exchange.ts';
import type { Failure, Reproducer } from '#harness/core/outcome.ts';
import { bodyText, clip, duration, plural } from './view.ts';

/** `POST http://host/chat/completions → 200 (41 ms, 1 attempt)`, or how it failed to answer. */
export function exchangeLine(exchange: Exchange): string {
  const { request, response, error } = exchange;
  const tries = exchange.attempts === 1 ? '' : `, ${plural(exchange.attempts, 'attempt')}`;
  if (response) return `${request.method} ${request.url} → ${response.status} (${duration(response.durationMs)}${tries}${response.truncated ? ', body truncated' : ''})${error ? `, then ${error.code}: ${error.message}` : ''}`;
  if (error) return `${request.method} ${request.url} → no response: ${error.code}: ${error.message}`;
  return `${request.method} ${request.url} → no response`;
}

/** The seed, path and fixture of a reproducer, when it has any. */
export function replayLine(reproducer: Reproducer): string | undefined {
  const parts = [
    reproducer.seed === undefined ? undefined : `seed ${reproducer.seed}`,
    reproducer.path === undefined ? undefined : `path ${reproducer.path}`,
    reproducer.fixture === undefined ? undefined : `fixture ${reproducer.fixture}`,
  ].filter((p) => p !== undefined);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** Where a failure is and what it breaks: `at /temperature, breaks rules.x`. */
export function failurePlace(failure: Failure): string | undefined {
  const parts = [failure.path === undefined ? undefined : `at ${failure.path}`, failure.specRef === undefined ? undefined : `breaks ${failure.specRef}`];
  const shown = parts.filter((p) => p !== undefined);
  return shown.length > 0 ? shown.join(', ') : undefined;
}

/** How every report introduces a failure's comparison exchange (Failure.comparison). */
export const COMPARISON = 'for comparison, the same request to a path that does not exist';

/** The heading of a client check's TypeScript reproducer. */
export const CLIENT_REPRODUCER = 'Through the client (TypeScript)';

/**
 * A failure as plain text: message, place, the exchange with the response body (cut at
 * `maxBody`) or its SSE events, and the reproducer. For formats without structure (JUnit).
 */
export function failureText(failure: Failure, maxBody = 4000): string {
  const lines = [failure.message];
  const place = failurePlace(failure);
  if (place) lines.push(place);
  const ev = failure.evidence;
  if (ev) {
    lines.push('', exchangeLine(ev));
    const sent = ev.request.rawBody ?? (ev.request.body === undefined ? undefined : JSON.stringify(ev.request.body));
    if (sent !== undefined) lines.push(`request body: ${clip(sent, maxBody)}`);
    const body = ev.response ? bodyText(ev.response) : undefined;
    if (body !== undefined) lines.push('response body:', clip(body, maxBody));
    if (ev.response?.events) {
      lines.push(`events (${ev.response.events.length}):`);
      let budget = maxBody;
      for (const e of ev.response.events) {
        const line = `  +${e.at} ms ${e.event === undefined ? '' : `event: ${e.event} `}${e.data.startsWith(':') ? e.data : `data: ${e.data}`}`;
        if (budget - line.length < 0) {
          lines.push('  …');
          break;
        }
        budget -= line.length;
        lines.push(line);
      }
    }
  }
  if (failure.comparison) lines.push('', `${COMPARISON}: ${exchangeLine(failure.comparison)}`);
  if (failure.reproducer) {
    lines.push('', 'Reproduce with:', failure.reproducer.curl);
    const replay = replayLine(failure.reproducer);
    if (replay) lines.push(replay);
    if (failure.reproducer.client) lines.push('', `${CLIENT_REPRODUCER}:`, failure.reproducer.client);
  }
  return lines.join('\n');
}

/** Response headers worth showing beside a cause (never a credential: evidence is redacted, and these are not those). */
const NOTABLE = ['content-type', 'content-length', 'retry-after', 'location', 'www-authenticate', 'x-request-id', 'request-id', 'server'];

/**
 * What came back, in brief: status, content type, notable headers and the first 500 bytes of the
 * body (the events' data, for a stream), or why nothing came back.
 */
export function responseExcerpt(exchange: Exchange, maxBytes = 500): string[] {
  const { response, error } = exchange;
  if (!response) return [`no response: ${error ? `${error.code}: ${error.message}` : 'none recorded'}`];
  const headers = NOTABLE.filter((h) => response.headers[h] !== undefined).map((h) => `${h}: ${response.headers[h]}`);
  // One line of JSON, so the excerpt's bytes are the body's first bytes.
  const body = (response.body !== undefined ? JSON.stringify(response.body) : response.text) ?? response.events?.map((e) => e.data).join('\n') ?? '';
  const bytes = Buffer.from(body, 'utf8');
  const head = bytes.length > maxBytes ? `${bytes.subarray(0, maxBytes).toString('utf8')}… (${bytes.length} bytes in all)` : body;
  return [`HTTP ${response.status}${headers.length > 0 ? ` · ${headers.join(' · ')}` : ''}`, ...(head === '' ? [] : [head]), ...(error ? [`then ${error.code}: ${error.message}`] : [])];
}
