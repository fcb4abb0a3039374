import type { Document, LineCounter, Node } from 'yaml';
import { yaml } from './yaml.ts';

export interface Position {
  line: number;
  column: number;
}

/**
 * Finds where a path points in a parsed YAML document. When the path ends at a key that is not
 * there (a missing required key), the position of the closest existing parent is returned; when
 * `key` names a key of the node at `path` (an unknown key), the key itself is located.
 */
export function locate(doc: Document, lineCounter: LineCounter, path: readonly (string | number)[], key?: string): Position {
  let node: unknown = doc.contents;
  let best: Node | null = isNode(node) ? node : null;
  for (const segment of path) {
    const next = child(node, segment);
    if (next === undefined) break;
    node = next.value;
    const anchor = next.value ?? next.key;
    if (isNode(anchor)) best = anchor;
  }
  const { isMap, isPair, isScalar } = yaml();
  if (key !== undefined && isMap(node)) {
    const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === key);
    if (pair && isNode(pair.key)) best = pair.key;
  }
  const offset = best?.range?.[0] ?? 0;
  const pos = lineCounter.linePos(offset);
  return { line: pos.line, column: pos.col };
}

function child(node: unknown, segment: string | number): { key: unknown; value: unknown } | undefined {
  const { isMap, isScalar, isSeq } = yaml();
  if (isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
    return pair ? { key: pair.key, value: pair.value } : undefined;
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment];
    return item === undefined ? undefined : { key: item, value: item };
  }
  return undefined;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'range' in value;
}

/** `/rules/3/when/0` -> ['rules', 3, 'when', 0] (numeric segments become indexes). */
export function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

export function pathToPointer(path: readonly (string | number)[]): string {
  return path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
