import { UsageError } from './errors/index.ts';

/**
 * A header every request of a run carries, for gateways and proxies that route on their own headers
 * (`x-portkey-provider: openai`). `env`: the value came from that environment variable; it is then
 * a secret, redacted wherever it could be written, and reproducers read it back as `$VAR`.
 */
export interface ExtraHeader {
  name: string;
  value: string;
  env?: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the harness sets itself: a run's own key and body type are not overridden by a flag. */
const RESERVED = new Set(['authorization', 'x-api-key', 'content-type', 'content-length', 'host']);

function checkedName(where: string, name: string): string {
  if (!TOKEN.test(name)) throw new UsageError(`${where}: ${JSON.stringify(name)} is not a header name (letters, digits and -).`);
  if (RESERVED.has(name.toLowerCase())) throw new UsageError(`${where}: ${name} is set by the harness itself (the key goes in the variable --api-key-env names).`);
  return name;
}

/** `--header 'Name: value'`. */
export function parseHeader(where: string, text: string): ExtraHeader {
  const at = text.indexOf(':');
  if (at <= 0) throw new UsageError(`${where}: takes 'Name: value' (got ${JSON.stringify(text)}), e.g. --header 'x-portkey-provider: openai'.`);
  return { name: checkedName(where, text.slice(0, at).trim()), value: text.slice(at + 1).trim() };
}

/** `--header-env Name=VAR`: the value is read from the environment and kept secret. */
export function parseHeaderEnv(where: string, text: string, env: NodeJS.ProcessEnv = process.env): ExtraHeader {
  const at = text.indexOf('=');
  const variable = text.slice(at + 1).trim();
  if (at <= 0 || variable === '') throw new UsageError(`${where}: takes Name=VAR (got ${JSON.stringify(text)}), e.g. --header-env x-portkey-api-key=PORTKEY_API_KEY.`);
  const value = env[variable];
  if (!value) throw new UsageError(`${where}: the environment variable ${variable} holds no value for the header ${text.slice(0, at).trim()}. Export it first.`);
  return { name: checkedName(where, text.slice(0, at).trim()), value, env: variable };
}

/** The headers as a request carries them. */
export const headersOf = (extra: readonly ExtraHeader[]): Record<string, string> => Object.fromEntries(extra.map((h) => [h.name.toLowerCase(), h.value]));

/** Values that must never be written: those read from the environment. */
export const secretValues = (extra: readonly ExtraHeader[]): string[] => extra.filter((h) => h.env !== undefined).map((h) => h.value);
