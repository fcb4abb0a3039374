import { Ajv2020 } from 'ajv/dist/2020.js';
import { addFormats } from '#harness/spec/ajvFormats.ts';
import { ANNOTATION_KEYWORDS } from '#harness/derive/schemas/annotations.ts';
import { parsesAsJson } from '#harness/core/parsesAsJson.ts';

/**
 * The one ajv configuration the harness judges bodies with: draft 2020-12, every error (a report
 * wants them all), the schema node that failed (its annotations give the strength), and
 * `contentMediaType: application/json` enforced, because a tool call's arguments must parse.
 * strictRequired is off: weaker-strength layers list `required` beside, not inside, `properties`.
 * strictTuples is off: "a content array whose first item has text" is an open tuple on purpose.
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, strictTuples: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addVocabulary([...ANNOTATION_KEYWORDS]);
  ajv.removeKeyword('contentMediaType');
  ajv.addKeyword({
    keyword: 'contentMediaType',
    type: 'string',
    schemaType: 'string',
    error: { message: 'must be a string holding JSON' },
    validate: (mediaType: string, data: string) => mediaType !== 'application/json' || parsesAsJson(data),
  });
  return ajv;
}
