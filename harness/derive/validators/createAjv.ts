import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createAjv as createHarnessAjv } from '#harness/core/createAjv.ts';
import { ANNOTATION_KEYWORDS } from '#harness/derive/schemas/annotations.ts';

/** The harness's ajv (core/createAjv.ts) told the annotation keywords derived schemas carry. */
export function createAjv(options: { source?: boolean; ownSchemas?: boolean } = {}): Ajv2020 {
  return createHarnessAjv({ vocabulary: ANNOTATION_KEYWORDS, ...options });
}
