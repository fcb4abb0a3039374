import type { RecordedRequest } from './exchange.ts';
import { REDACTED } from './redact.ts';

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A one-line curl command that replays a recorded (redacted) request. Where the key was redacted
 * it is read from the environment variable the run used, so the command never holds the key; a
 * credential the harness made up (a wrong key) is replayed as it was sent. A header whose value came
 * from the environment (`headerVariables`: lowercase name -> variable) is read back the same way.
 */
export function curlOf(request: RecordedRequest, keyVariable = 'SVC_API_KEY', headerVariables: Readonly<Record<string, string>> = {}): string {
  const parts = ['curl', '-sS', '-X', request.method, quote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    const redacted = value.includes(REDACTED);
    const variable = headerVariables[lower];
    if (variable !== undefined && redacted) parts.push('-H', `"${name}: \${${variable}}"`);
    else if (lower === 'authorization' && redacted) parts.push('-H', `"Authorization: Bearer \${${keyVariable}}"`);
    else if (lower === 'x-api-key' && redacted) parts.push('-H', `"x-api-key: \${${keyVariable}}"`);
    else if (lower !== 'content-length' && lower !== 'host') parts.push('-H', quote(`${name}: ${value}`));
  }
  const body = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  if (body !== undefined) parts.push('--data-raw', quote(body));
  return parts.join(' ');
}
