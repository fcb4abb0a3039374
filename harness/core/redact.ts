/** What stands in for a secret wherever one would have been written. */
export const REDACTED = '[REDACTED]';

/**
 * Replaces every occurrence of each secret in a text (also when the text escaped it as JSON,
 * URL-encoded it, or base64-encoded it, alone or inside a longer base64 text such as a Basic
 * credential). Secrets shorter than 4 characters are ignored: replacing them would mangle text
 * and they cannot be real keys.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    // Most texts hold no form of any secret: looking costs no copy, splitting one for each form did.
    for (const form of formsOf(secret)) if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  return out;
}

/** Forms per secret: a run has one or two secrets and redacts every stream event with them. */
const FORMS = new Map<string, string[]>();

/** The ways a secret can be written, longest first so a whole form goes before a piece of it. */
function formsOf(secret: string): string[] {
  const known = FORMS.get(secret);
  if (known) return known;
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  const bytes = Buffer.from(secret, 'utf8');
  for (const encoding of ['base64', 'base64url'] as const) {
    forms.add(bytes.toString(encoding));
    forms.add(bytes.toString(encoding).replace(/=+$/, ''));
    // Inside a longer base64 text the secret's characters depend on where it starts (three
    // alignments); the characters that a neighbouring byte also shapes are left out.
    for (let pad = 0; pad < 3; pad++) {
      const whole = Buffer.concat([Buffer.alloc(pad), bytes]).toString(encoding).replace(/=+$/, '');
      const inner = whole.slice(pad === 0 ? 0 : 4, whole.length - 4);
      if (inner.length >= 8) forms.add(inner);
    }
  }
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  if (FORMS.size > 64) FORMS.clear();
  FORMS.set(secret, sorted);
  return sorted;
}

/**
 * A JSON-able value with every secret redacted from every string (keys included): a copy when one
 * was found, the value itself when none was (the common case, and a run's every result).
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const text = JSON.stringify(value) ?? 'null';
  const redacted = redactText(text, secrets);
  return redacted === text ? value : (JSON.parse(redacted) as T);
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'proxy-authorization', 'cookie', 'set-cookie']);

/**
 * Headers with credentials replaced, whatever their case. A credential header is replaced whole when
 * it holds a known secret, or when no secrets are known; one holding only a value the harness made up
 * (a deliberately wrong key) is kept, so its reproducer replays exactly.
 */
export function redactHeaders(headers: Record<string, string>, secrets: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const holdsSecret = secrets.length === 0 || redactText(value, secrets) !== value;
    if (CREDENTIAL_HEADERS.has(lower) && holdsSecret) out[name] = lower === 'authorization' ? `Bearer ${REDACTED}` : REDACTED;
    else out[name] = redactText(value, secrets);
  }
  return out;
}
