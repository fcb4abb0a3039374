/**
 * A part of a committed page that a script writes (docs/config.md's option reference, docs/endpoints.md's
 * verdict tables): the text between a start and an end marker. A page without exactly one start
 * followed by one end is refused, naming the page, so a script never writes into the wrong place.
 */
export interface GeneratedRegion {
  /** The text between the markers. */
  inside(doc: string): string;
  /** `doc` with the text between the markers replaced by `text`; the rest byte for byte. */
  replaced(doc: string, text: string): string;
}

export function generatedRegion(page: string, start: string, end: string): GeneratedRegion {
  const bounds = (doc: string): { from: number; to: number } => {
    const from = doc.indexOf(start);
    const to = doc.indexOf(end);
    if (from < 0 || to < from || doc.indexOf(start, from + 1) >= 0 || doc.indexOf(end, to + 1) >= 0) throw new Error(`${page}: expected one "${start}" followed by one "${end}"`);
    return { from: from + start.length, to };
  };
  return {
    inside(doc) {
      const { from, to } = bounds(doc);
      return doc.slice(from, to);
    },
    replaced(doc, text) {
      const { from, to } = bounds(doc);
      return doc.slice(0, from) + text + doc.slice(to);
    },
  };
}
