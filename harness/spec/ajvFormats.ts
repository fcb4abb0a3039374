import type { Ajv } from 'ajv';
import * as formats from 'ajv-formats';

type AddFormats = (ajv: Ajv) => Ajv;

/**
 * ajv-formats is CommonJS with a default export; under NodeNext its default import is the module
 * object, so the function sits one level down. This wrapper hides that once.
 */
export function addFormats(ajv: Ajv): Ajv {
  const mod = formats as unknown as { default: AddFormats | { default: AddFormats } };
  const fn = typeof mod.default === 'function' ? mod.default : mod.default.default;
  return fn(ajv);
}
