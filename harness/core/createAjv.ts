import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv } from 'ajv';
import type * as AjvModule from 'ajv';

/**
 * ajv is loaded the first time a schema is compiled, not with the modules that may compile one: a
 * run from the bundle judges with the validators the build precompiled, and loading ajv and its
 * formats was 40 ms of its start-up for nothing.
 */
const requireHere = createRequire(import.meta.url);
let loaded: { Ajv2020: typeof Ajv2020; addFormats: AddFormats; _: typeof AjvModule._; parsesAsJson: ReturnType<typeof AjvModule._> } | undefined;

function ajvModules(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const { _ } = requireHere('ajv') as typeof AjvModule;
  // ajv-formats is CommonJS whose function is its default export.
  const formats = requireHere('ajv-formats') as AddFormats | { default: AddFormats };
  loaded = {
    Ajv2020: (requireHere('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020,
    addFormats: typeof formats === 'function' ? formats : formats.default,
    _,
    // parsesAsJson (core/parsesAsJson.ts), as code the validator holds.
    parsesAsJson: _`(text) => { try { JSON.parse(text); return true; } catch { return false; } }`,
  };
  return loaded;
}

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
  const { Ajv2020, addFormats, _, parsesAsJson } = ajvModules();
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
      if (cxt.schema === 'application/json') cxt.fail(_`!(${parsesAsJson})(${cxt.data})`);
    },
  });
  return ajv;
}

type AddFormats = (ajv: Ajv) => Ajv;
