import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv } from 'ajv';
import * as formats from 'ajv-formats';
import { _ } from 'ajv';

/** parsesAsJson (core/parsesAsJson.ts), as code the validator holds. */
const PARSES_AS_JSON = _`(text) => { try { JSON.parse(text); return true; } catch { return false; } }`;

export interface CreateAjvOptions {
  /** Keep each validator's source, for standaloneCode (the build's precompiled validators). */
  source?: boolean;
  /**
   * The schemas are the harness's own (a tool definition it sends): skip checking them against the
   * draft's meta-schema, whose compilation costs 30 ms the first time.
   */
  ownSchemas?: boolean;
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
  const ajv = new Ajv2020({ allErrors: options.firstErrorOnly !== true, verbose: true, strict: true, strictRequired: false, strictTuples: false, allowUnionTypes: true, ...(options.source ? { code: { source: true } } : {}), ...(options.ownSchemas ? { validateSchema: false } : {}) });
  addFormats(ajv);
  if (options.vocabulary) ajv.addVocabulary([...options.vocabulary]);
  ajv.removeKeyword('contentMediaType');
  ajv.addKeyword({
    keyword: 'contentMediaType',
    type: 'string',
    schemaType: 'string',
    error: { message: 'must be a string holding JSON' },
    // Generated code, not a function: a validator written out as standalone code (the bundle's
    // precompiled validators) carries the check with it.
    code(cxt) {
      if (cxt.schema === 'application/json') cxt.fail(_`!(${PARSES_AS_JSON})(${cxt.data})`);
    },
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
