export { createAjv } from './createAjv.ts';
export { validatorFor, type Judge } from './registry.ts';
export { strongestLevel, toViolations, type Level, type Violation } from './violations.ts';
