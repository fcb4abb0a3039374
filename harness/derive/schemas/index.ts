export { ANNOTATION_KEYWORDS, SOURCE, SPEC_REF, STRENGTH, type JsonSchema } from './annotations.ts';
export { deriveAllSchemas, deriveObjectSchema, objectBody, schemaId, SCHEMA_DIALECT } from './objectSchemas.ts';
export type { DeriveOptions, Profile } from './typeExprToSchema.ts';
