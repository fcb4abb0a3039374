import { isRecord } from '#harness/core/isRecord.ts';
import type { JsonObject } from './specReading.ts';


/**
 * A path template (`messages.*.content`) made concrete for a body: each `*` becomes an index of the
 * array found there, `pick` modulo its length. Undefined when the body has no such array.
 */
export function resolvePath(body: JsonObject, template: string, pick: number): string | undefined {
  const out: string[] = [];
  let node: unknown = body;
  for (const seg of template.split('.')) {
    if (seg === '*') {
      if (!Array.isArray(node) || node.length === 0) return undefined;
      const i = pick % node.length;
      out.push(String(i));
      node = node[i];
    } else {
      out.push(seg);
      node = isRecord(node) ? node[seg] : undefined;
    }
  }
  return out.join('.');
}

/** The container holding the last segment of a concrete path, or undefined. */
function parentOf(body: JsonObject, path: string): { node: JsonObject | unknown[]; key: string } | undefined {
  const segs = path.split('.');
  let node: unknown = body;
  for (const seg of segs.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else node = isRecord(node) ? node[seg] : undefined;
  }
  return isRecord(node) || Array.isArray(node) ? { node, key: segs[segs.length - 1]! } : undefined;
}

export function setPath(body: JsonObject, path: string, value: unknown): boolean {
  const p = parentOf(body, path);
  if (!p) return false;
  if (Array.isArray(p.node)) p.node[Number(p.key)] = value;
  else p.node[p.key] = value;
  return true;
}

/** Removes the field at a concrete path; true when its container exists (the field may already be absent). */
export function deletePath(body: JsonObject, path: string): boolean {
  const p = parentOf(body, path);
  if (!p || Array.isArray(p.node)) return false;
  delete p.node[p.key];
  return true;
}
