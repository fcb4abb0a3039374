/** The JSON value a text holds, or undefined when it holds none (a JSON text never reads as undefined). */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether a text holds one JSON value. */
export function parsesAsJson(text: string): boolean {
  return jsonOf(text) !== undefined;
}
