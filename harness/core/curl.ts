import type { RecordedRequest } from './exchange.ts';

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A one-line curl command that replays a request. The key is read from the environment variable
 * the run used, so the command can be pasted into a terminal and never holds the key itself.
 */
export function curlOf(request: RecordedRequest, keyVariable = 'SVC_API_KEY'): string {
  const parts = ['curl', '-sS', '-X', request.method, quote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') parts.push('-H', `"Authorization: Bearer \${${keyVariable}}"`);
    else if (lower === 'x-api-key') parts.push('-H', `"x-api-key: \${${keyVariable}}"`);
    else if (lower !== 'content-length' && lower !== 'host') parts.push('-H', quote(`${name}: ${value}`));
  }
  const body = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  if (body !== undefined) parts.push('--data-raw', quote(body));
  return parts.join(' ');
}
