/**
 * Annotation keywords the derived schemas carry. They never change what validates; they tell the
 * judge how strongly the description states the constraint that failed and where it lives.
 */
export const STRENGTH = 'x-strength';
/** Dotted path of the spec entry a schema node comes from, e.g. `objects.chat_completion.fields.id`. */
export const SPEC_REF = 'x-spec';
/** Section or table of the description the entry cites. */
export const SOURCE = 'x-source';

export const ANNOTATION_KEYWORDS = [STRENGTH, SPEC_REF, SOURCE] as const;

export type JsonSchema = { [key: string]: unknown };
