import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv } from 'ajv';
import * as formats from 'ajv-formats';
import { parsesAsJson } from './parsesAsJson.ts';

export interface CreateAjvOptions {
  /** Annotation keywords the schemas carry (strict mode rejects a keyword it does not know). */
  vocabulary?: readonly string[];
  /** Stop at the first error. Default false: a report wants every error. */
  firstErrorOnly?: boolean;
}

/**
 * The one ajv configuration of the harness (spec meta-schema, derived body schemas, fixture and
 * report files): draft 2020-12, strict, formats, the schema node that failed in each error (its
 * annotations say how strongly the spec states it), and `contentMediaType: application/json`
 * enforced, because a tool call's arguments must parse.
 * strictRequired is off: weaker-strength layers list `required` beside, not inside, `properties`.
 * strictTuples is off: "a content array whose first item has text" is an open tuple on purpose.
 */
export function createAjv(options: CreateAjvOptions = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: options.firstErrorOnly !== true, verbose: true, strict: true, strictRequired: false, strictTuples: false, allowUnionTypes: true });
  addFormats(ajv);
  if (options.vocabulary) ajv.addVocabulary([...options.vocabulary]);
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

type AddFormats = (ajv: Ajv) => Ajv;

/**
 * ajv-formats is CommonJS with a default export; under NodeNext its default import is the module
 * object, so the function sits one level down.
 */
function addFormats(ajv: Ajv): void {
  const mod = formats as unknown as { default: AddFormats | { default: AddFormats } };
  const fn = typeof mod.default === 'function' ? mod.default : mod.default.default;
  fn(ajv);
}
