import { isUnspecified, type Base, type Endpoint, type Spec } from '#harness/spec/model.ts';
import { objectBody, SOURCE, SPEC_REF, STRENGTH, type JsonSchema, type Profile } from '#harness/derive/schemas/index.ts';
import type { DeriveContext } from '#harness/derive/schemas/typeExprToSchema.ts';
import { isRecord } from '#harness/core/isRecord.ts';

/**
 * The whole service as one OpenAPI 3.1.0 document, generated from the spec and nothing else: one
 * operation per endpoint x base, every object of the spec under components.schemas (the same
 * schemas `deriveObjectSchema` gives, refs pointed at components), the error table as reusable
 * responses, and bearer auth.
 *
 * Layout of addresses. Path keys are written relative to the first base that has a stated path
 * (`{base_url}`), with the base's own path as a prefix: `/chat/completions`,
 * `/v1/chat/completions`, `/beta/chat/completions`. So `{base_url}` is the one document-level
 * server, and `{base_url}/v1` and `{beta_base_url}` are not listed as servers of their own (a
 * server `{base_url}/v1` beside the key `/v1/chat/completions` would address `/v1/v1/...`); their
 * notes go into that server's description and into one tag per base. A base whose path the spec
 * leaves unspecified (`{messages_base_url}`) has no stated relation to `{base_url}`, so it gets a
 * server of its own with its own variable, set on its path items only.
 *
 * Endpoints whose path the spec leaves unspecified (the messages endpoint). The document keeps
 * them, at the path the spec's own note says the harness uses (`/v1/messages`), marked
 * `x-path-unspecified` with a description saying the path is this project's choice and not part
 * of the contract: the harness does send requests there, so the document should show where.
 * `pathChoices` overrides the path, or with `null` leaves the endpoint out; an endpoint whose note
 * names no path is left out too. Every left-out endpoint is listed in `info.description` and in
 * `x-omitted-endpoints`.
 */

export const OPENAPI_VERSION = '3.1.0';
/** The default dialect of OpenAPI 3.1 schemas (draft 2020-12 plus the OAS vocabulary), written out. */
export const OAS_DIALECT = 'https://spec.openapis.org/oas/3.1/dialect/base';
/** Default of the first server's variable: a reserved name (RFC 2606) that never resolves. */
export const DEFAULT_SERVER_URL = 'https://api.example.invalid';
export const SCHEMAS_POINTER = '#/components/schemas/';
export const RESPONSES_POINTER = '#/components/responses/';
/** OpenAPI 3.1, Components Object: keys must match this. */
const COMPONENT_NAME = /^[a-zA-Z0-9.\-_]+$/;
const JSON_MEDIA_TYPE = 'application/json';
const SSE_MEDIA_TYPE = 'text/event-stream';

export interface BuildOpenApiOptions {
  /** Schema profile of components.schemas (default: `default`). */
  profile?: Profile;
  /** Resolve per-model bounds (max_tokens) for this model id; without it they are left open. */
  model?: string;
  /** Default value of a server variable, by variable name (`base_url`, `messages_base_url`). */
  serverDefaults?: Record<string, string>;
  /**
   * Path for an endpoint whose path the spec leaves unspecified, by endpoint name; `null` leaves
   * the endpoint out. Without an entry, the path the spec's note names is used, if it names one.
   */
  pathChoices?: Record<string, string | null>;
}

export interface OpenApiServer {
  url: string;
  description: string;
  variables: Record<string, { default: string; description: string }>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  requestBody?: { required: boolean; description: string; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
  'x-endpoint': string;
  'x-base': string;
  'x-spec': string;
  'x-source': string;
  'x-path-unspecified'?: { chosen: string; note: string };
}

export type HttpMethod = 'get' | 'post';
export type OpenApiPathItem = { servers?: OpenApiServer[] } & Partial<Record<HttpMethod, OpenApiOperation>>;

export interface OmittedEndpoint {
  endpoint: string;
  bases: string[];
  reason: string;
}

export interface OpenApiDocument {
  openapi: typeof OPENAPI_VERSION;
  info: { title: string; summary: string; version: string; description: string };
  jsonSchemaDialect: string;
  servers: OpenApiServer[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string; 'x-spec': string; 'x-source': string }[];
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
  'x-omitted-endpoints'?: OmittedEndpoint[];
}

/** Where a base's endpoints live: the base that owns a server (`anchor`) and the path before them. */
interface Placement {
  anchor: string;
  prefix: string;
}

export function buildOpenApi(spec: Spec, options: BuildOpenApiOptions = {}): OpenApiDocument {
  const profile = options.profile ?? 'default';
  const placements = placeBases(spec);
  const primary = primaryAnchor(spec, placements);
  const servers = new Map<string, OpenApiServer>();
  for (const anchor of new Set(Object.values(placements).map((p) => p.anchor))) {
    servers.set(anchor, serverFor(spec, anchor, primary, placements, options.serverDefaults ?? {}));
  }

  const securityName = `${spec.authentication.scheme}Auth`;
  const paths: Record<string, OpenApiPathItem> = {};
  const pathAnchor = new Map<string, string>();
  const omitted: OmittedEndpoint[] = [];
  const unstated: string[] = [];

  for (const [name, endpoint] of Object.entries(spec.endpoints)) {
    const chosen = endpointPath(name, endpoint, options.pathChoices);
    if (chosen.path === undefined) {
      omitted.push({ endpoint: name, bases: [...endpoint.bases], reason: chosen.reason });
      continue;
    }
    if (isUnspecified(endpoint.path)) unstated.push(`endpoint \`${name}\`: ${oneLine(endpoint.path.note ?? 'path not stated')} The path in this document, ${chosen.path}, is a choice of this project, not part of the contract.`);
    for (const baseKey of endpoint.bases) {
      const placement = placements[baseKey];
      if (!placement) throw new Error(`endpoint \`${name}\` names base \`${baseKey}\`, which spec.bases does not define`);
      const key = placement.prefix + chosen.path;
      const method = endpoint.method.toLowerCase() as HttpMethod;
      const item = (paths[key] ??= {});
      const owner = pathAnchor.get(key);
      if (owner !== undefined && owner !== placement.anchor) {
        throw new Error(`path ${key} would belong to two servers (${owner}, ${placement.anchor}); the spec's bases and paths collide`);
      }
      pathAnchor.set(key, placement.anchor);
      if (item[method]) throw new Error(`${endpoint.method} ${key} is produced twice (endpoint \`${name}\`, base \`${baseKey}\`)`);
      if (placement.anchor !== primary && !item.servers) item.servers = [servers.get(placement.anchor)!];
      item[method] = operation(spec, name, endpoint, baseKey, chosen.path);
    }
  }

  for (const [key, base] of Object.entries(spec.bases)) {
    if (isUnspecified(base.path)) {
      const primaryBase = spec.bases[primary]!;
      unstated.push(`base \`${key}\` (${base.placeholder}): its relation to ${primaryBase.placeholder} is not stated. ${oneLine(base.path.note ?? '')}`.trim());
    }
  }
  for (const [name, endpoint] of Object.entries(spec.endpoints)) {
    const ct = endpoint.stream?.content_type;
    if (ct && ct.strength === 'unspecified') unstated.push(`endpoint \`${name}\`, stream media type ${ct.value}: ${oneLine(ct.note ?? 'not stated')}`);
  }

  const doc: OpenApiDocument = {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Chat completion service',
      summary: `The chat-completion service of ${spec.source_document}, as svc-conformance reads it.`,
      version: spec.revision,
      description: infoDescription(spec, profile, options.model, unstated, omitted),
    },
    jsonSchemaDialect: OAS_DIALECT,
    servers: [servers.get(primary)!],
    security: [{ [securityName]: [] }],
    tags: Object.entries(spec.bases).map(([key, base]) => ({
      name: key,
      description: baseLine(spec, key, base, placements[key]!, primary),
      'x-spec': `bases.${key}`,
      'x-source': base.source,
    })),
    paths: sortKeys(paths),
    components: {
      schemas: componentSchemas(spec, profile, options.model),
      responses: errorResponses(spec),
      securitySchemes: { [securityName]: securityScheme(spec) },
    },
  };
  if (omitted.length > 0) doc['x-omitted-endpoints'] = omitted;
  return doc;
}

// ------------------------------------------------------------------------------------------ bases

function placeBases(spec: Spec): Record<string, Placement> {
  const out: Record<string, Placement> = {};
  const place = (key: string, trail: string[]): Placement => {
    const known = out[key];
    if (known) return known;
    const base = spec.bases[key];
    if (!base) throw new Error(`base \`${trail.at(-1)}\` is relative to \`${key}\`, which spec.bases does not define`);
    if (trail.includes(key)) throw new Error(`bases relative to each other in a cycle: ${[...trail, key].join(' -> ')}`);
    let placement: Placement;
    if (isUnspecified(base.path)) placement = { anchor: key, prefix: '' };
    else if (!base.relative_to) placement = { anchor: key, prefix: base.path };
    else {
      const parent = place(base.relative_to, [...trail, key]);
      placement = { anchor: parent.anchor, prefix: parent.prefix + base.path };
    }
    out[key] = placement;
    return placement;
  };
  for (const key of Object.keys(spec.bases)) place(key, []);
  return out;
}

/** The server the document is written against: the anchor of the first base with a stated path. */
function primaryAnchor(spec: Spec, placements: Record<string, Placement>): string {
  const first = Object.entries(spec.bases).find(([, base]) => !isUnspecified(base.path));
  const key = first?.[0] ?? Object.keys(spec.bases)[0];
  if (key === undefined) throw new Error('the spec defines no bases');
  return placements[key]!.anchor;
}

function variableName(key: string, base: Base): string {
  const m = /^\{([A-Za-z0-9_]+)\}$/.exec(base.placeholder);
  return m ? m[1]! : key;
}

function serverFor(spec: Spec, anchor: string, primary: string, placements: Record<string, Placement>, defaults: Record<string, string>): OpenApiServer {
  const base = spec.bases[anchor]!;
  const variable = variableName(anchor, base);
  const fallback = anchor === primary ? DEFAULT_SERVER_URL : `https://${variable.replace(/_/g, '-')}.example.invalid`;
  const lines = Object.entries(spec.bases)
    .filter(([key]) => placements[key]!.anchor === anchor)
    .map(([key, b]) => baseLine(spec, key, b, placements[key]!, primary));
  return {
    url: `{${variable}}`,
    description: lines.join(' '),
    variables: {
      [variable]: {
        default: defaults[variable] ?? fallback,
        description:
          `The address ${spec.source_document} writes as ${base.placeholder}; set it to the service's address. ` +
          `The default is a placeholder that does not resolve.`,
      },
    },
  };
}

function baseLine(spec: Spec, key: string, base: Base, placement: Placement, primary: string): string {
  const where = isUnspecified(base.path)
    ? `its own server; its relation to ${spec.bases[primary]!.placeholder} is not stated (${oneLine(base.path.note ?? 'not shown')})`
    : placement.prefix === ''
      ? 'paths without a prefix'
      : `paths under ${placement.prefix}`;
  return `${base.placeholder} [base \`${key}\`; ${where}]: ${oneLine(base.notes ?? '')} Formats: ${base.formats.join(', ')}.`.replace(/\s+/g, ' ');
}

// -------------------------------------------------------------------------------------- endpoints

/** The path of an endpoint: stated, chosen by option, named by the spec's note, or none. */
function endpointPath(name: string, endpoint: Endpoint, choices: Record<string, string | null> = {}): { path: string; reason?: undefined } | { path?: undefined; reason: string } {
  if (!isUnspecified(endpoint.path)) return { path: endpoint.path };
  const choice = choices[name];
  if (choice === null) return { reason: `path not stated (${oneLine(endpoint.path.note ?? 'not shown')}); left out by option` };
  if (choice !== undefined) {
    if (!choice.startsWith('/')) throw new Error(`pathChoices.${name} must start with "/" (got ${JSON.stringify(choice)})`);
    return { path: choice };
  }
  // The spec records the project's choice in the note ("The harness posts to /v1/messages ...").
  const named = /(?:^|\s)(\/[A-Za-z0-9._~\-/]*[A-Za-z0-9_~\-])/.exec(endpoint.path.note ?? '');
  if (named) return { path: named[1]! };
  return { reason: `path not stated (${oneLine(endpoint.path.note ?? 'not shown')}) and no path chosen by this project` };
}

function operation(spec: Spec, name: string, endpoint: Endpoint, baseKey: string, path: string): OpenApiOperation {
  const base = spec.bases[baseKey]!;
  const unspecifiedPath = isUnspecified(endpoint.path) ? endpoint.path : undefined;
  const description = [
    endpoint.notes ? sentence(endpoint.notes) : '',
    `Base ${base.placeholder}: ${oneLine(base.notes ?? '')}`,
    unspecifiedPath
      ? `The description does not state this path: ${sentence(unspecifiedPath.note ?? 'not shown')} Here it is ${path}, a choice of this project, not part of the contract.`
      : '',
    `Source: ${endpoint.source}.`,
  ].filter(Boolean).join('\n\n');

  let requestBody: OpenApiOperation['requestBody'];
  if (endpoint.request !== null) {
    const object = objectNamed(spec, endpoint.request, `endpoints.${name}.request`);
    requestBody = {
      required: true,
      description: object.title,
      content: { [spec.authentication.content_type ?? JSON_MEDIA_TYPE]: { schema: { $ref: SCHEMAS_POINTER + endpoint.request } } },
    };
  }
  // The same key order for every operation: fixed fields, then extensions.
  return {
    operationId: `${name}__${baseKey}`,
    summary: `${endpoint.method} ${base.placeholder}${path}${unspecifiedPath ? ' (path chosen by this project)' : ''}`,
    description,
    tags: [baseKey],
    ...(requestBody ? { requestBody } : {}),
    responses: responsesFor(spec, name, endpoint),
    'x-endpoint': name,
    'x-base': baseKey,
    'x-spec': `endpoints.${name}`,
    'x-source': endpoint.source,
    ...(unspecifiedPath ? { 'x-path-unspecified': { chosen: path, note: oneLine(unspecifiedPath.note ?? 'not shown') } } : {}),
  };
}

function responsesFor(spec: Spec, name: string, endpoint: Endpoint): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, objectName] of Object.entries(endpoint.responses)) {
    const object = objectNamed(spec, objectName, `endpoints.${name}.responses.${status}`);
    const content: Record<string, unknown> = { [JSON_MEDIA_TYPE]: { schema: { $ref: SCHEMAS_POINTER + objectName } } };
    let description = `${object.title}.`;
    if (endpoint.stream && status === '200') {
      const sel = endpoint.stream.selected_by;
      const selector = sel.field !== undefined && 'equals' in sel ? `\`${sel.field}\` = ${JSON.stringify(sel.equals)}` : 'the request';
      description = `${object.title} (${JSON_MEDIA_TYPE}), or with ${selector} an SSE stream of ${objectNamed(spec, endpoint.stream.chunk, `endpoints.${name}.stream.chunk`).title} (${endpoint.stream.content_type?.value ?? SSE_MEDIA_TYPE}).`;
      content[endpoint.stream.content_type?.value ?? SSE_MEDIA_TYPE] = streamMedia(spec, name, endpoint, selector);
    }
    responses[status] = { description, content };
  }
  for (const status of Object.keys(spec.errors.statuses)) {
    if (!(status in responses)) responses[status] = { $ref: RESPONSES_POINTER + errorResponseName(status) };
  }
  return sortKeys(responses, byStatus);
}

/**
 * OpenAPI 3.1 has no item schema for a stream (3.2 adds `itemSchema`), so the body is a string
 * described from streaming.yaml, and `x-sse-data` points at the schema of each `data:` line's JSON.
 */
function streamMedia(spec: Spec, name: string, endpoint: Endpoint, selector: string): Record<string, unknown> {
  const stream = endpoint.stream!;
  const s = spec.streaming;
  const events = s.events.map((e) => `${e.id} (${e.order.replace(/_/g, ' ')}): ${oneLine(e.statement)}`).join('; ');
  const ct = stream.content_type;
  const media: Record<string, unknown> = {
    schema: {
      type: 'string',
      description:
        `Server-Sent Events, selected by ${selector}. Each event is a line \`${s.framing.line_prefix}<chunk JSON>\` whose JSON is ` +
        `a ${stream.chunk} (see x-sse-data); the stream ends with the literal line \`${s.framing.terminator}\`. ` +
        `Events in order: ${events}. ${oneLine(s.reasoning.statement)}` +
        (isUnspecified(s.reasoning.field_name) ? ` ${oneLine(s.reasoning.field_name.note ?? '')}` : ''),
      [STRENGTH]: s.framing.strength,
      [SPEC_REF]: 'streaming',
      [SOURCE]: s.framing.source,
    },
    'x-sse-data': { $ref: SCHEMAS_POINTER + stream.chunk },
    'x-sse-terminator': s.framing.terminator,
    'x-spec': `endpoints.${name}.stream`,
  };
  if (ct) {
    media['x-media-type-strength'] = ct.strength;
    if (ct.note) media['x-media-type-note'] = oneLine(ct.note);
  }
  return media;
}

// ----------------------------------------------------------------------------- errors, security

function errorResponseName(status: string): string {
  return `error_${status}`;
}

function errorResponses(spec: Spec): Record<string, unknown> {
  const envelope = spec.errors.envelope.object;
  objectNamed(spec, envelope, 'errors.envelope.object');
  const out: Record<string, unknown> = {};
  for (const [status, entry] of Object.entries(spec.errors.statuses).sort(([a], [b]) => byStatus(a, b))) {
    const retry = entry.retry
      ? `Retry${entry.retry_strength === 'should' ? ' is advised' : ''} with backoff (errors.retry)${entry.min_retry_after_seconds !== undefined ? `, after at least ${entry.min_retry_after_seconds} seconds` : ''}.`
      : 'Not retried.';
    const response: Record<string, unknown> = {
      description: `${entry.meaning}: ${entry.conditions.join('; ')}. ${retry} The error table is not per endpoint; this status may come from any operation.`,
    };
    if (entry.headers && entry.headers.length > 0) {
      response.headers = Object.fromEntries(
        entry.headers.map((h) => [
          h.name,
          {
            description: `${h.presence === 'must' ? 'Present' : 'May be present'}${h.strength ? ` (strength ${h.strength})` : ''}. ${entry.source}.`,
            required: h.presence === 'must',
            schema: { type: 'string' },
          },
        ]),
      );
    }
    response.content = { [JSON_MEDIA_TYPE]: { schema: { $ref: SCHEMAS_POINTER + envelope } } };
    response['x-retry'] = entry.retry;
    response['x-spec'] = `errors.statuses.${status}`;
    response['x-source'] = entry.source;
    out[errorResponseName(status)] = response;
  }
  return out;
}

function securityScheme(spec: Spec): Record<string, unknown> {
  const auth = spec.authentication;
  if (auth.scheme !== 'bearer') throw new Error(`authentication scheme \`${String(auth.scheme)}\` has no OpenAPI mapping here`);
  const parts = [
    `Header ${auth.header}: ${auth.value_format ?? 'Bearer <API_KEY>'}.`,
    auth.key_shape ? `Keys have the ${auth.key_shape.prefix} prefix shape (${auth.key_shape.strength}).` : '',
    auth.no_extra_quotes ? auth.no_extra_quotes.statement : '',
    `A ${orList(auth.failure_conditions ?? ['missing', 'invalid'])} key gives HTTP ${auth.failure_status}.`,
    auth.scopes && isUnspecified(auth.scopes) ? oneLine(auth.scopes.note ?? '') : '',
  ];
  return {
    type: 'http',
    scheme: 'bearer',
    ...(auth.key_shape ? { bearerFormat: `${auth.key_shape.prefix}<key>` } : {}),
    description: parts.filter(Boolean).join(' '),
    'x-spec': 'authentication',
    'x-source': auth.source,
  };
}

// ------------------------------------------------------------------------------------- schemas

/** Keywords whose values are data, not schemas: their `$ref` keys (if any) are left alone. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
/** Keywords whose values map names to schemas (the names are not keywords). */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);
/** Standalone-schema keywords that have no place inside components. */
const STANDALONE_KEYWORDS = new Set(['$schema', '$id', '$defs']);
const DEFS_POINTER = '#/$defs/';

function componentSchemas(spec: Spec, profile: Profile, model: string | undefined): Record<string, JsonSchema> {
  const names = Object.keys(spec.objects).sort(byCodeUnit);
  const out: Record<string, JsonSchema> = {};
  for (const name of names) {
    if (!COMPONENT_NAME.test(name)) throw new Error(`object \`${name}\` cannot be an OpenAPI component name (${COMPONENT_NAME})`);
    const ctx: DeriveContext = { profile, ...(model === undefined ? {} : { model }), spec, refs: new Set() };
    out[name] = rewriteSchema(objectBody(spec, name, ctx), (ref) => {
      if (!ref.startsWith(DEFS_POINTER)) throw new Error(`schema of \`${name}\` has a $ref ${ref} that is not an object of the spec`);
      const target = ref.slice(DEFS_POINTER.length);
      if (!spec.objects[target]) throw new Error(`schema of \`${name}\` refers to \`${target}\`, which spec.objects does not define`);
      return SCHEMAS_POINTER + target;
    }) as JsonSchema;
  }
  return out;
}

/** A copy of a schema with every `$ref` rewritten and standalone keywords ($schema, $id, $defs) dropped. */
export function rewriteSchema(node: unknown, rewriteRef: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteSchema(n, rewriteRef));
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (STANDALONE_KEYWORDS.has(key)) continue;
    if (key === '$ref' && typeof value === 'string') out[key] = rewriteRef(value);
    else if (DATA_KEYWORDS.has(key) || key.startsWith('x-')) out[key] = structuredClone(value);
    else if (SCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteSchema(v, rewriteRef)]));
    } else out[key] = rewriteSchema(value, rewriteRef);
  }
  return out;
}

// ------------------------------------------------------------------------------------ helpers

function infoDescription(spec: Spec, profile: Profile, model: string | undefined, unstated: string[], omitted: OmittedEndpoint[]): string {
  const headers = spec.common_headers.map((h) => `${h.name}: ${h.value ?? ''} (${h.strength ?? 'must'})`).join('; ');
  const parts = [
    `Generated by svc-conformance from its spec/ directory (revision ${spec.revision}, updated ${spec.revision_updated}), ` +
      `which encodes ${spec.source_document}. Do not edit by hand: run \`svc-conformance openapi --out FILE\`.`,
    `Every schema node carries ${STRENGTH} (must | should | unspecified: how strongly ${spec.source_document} states it), ` +
      `${SPEC_REF} (the spec entry it comes from) and ${SOURCE} (the section of ${spec.source_document} it cites). ` +
      `Constraints weaker than must are written as allOf layers marked with ${STRENGTH}: a validator that does not read ` +
      `${STRENGTH} treats them as hard constraints.`,
    `Schema profile: ${profile} (${profile === 'strict' ? 'every object closes with additionalProperties false' : 'fields the description does not list are allowed'}). ` +
      (model === undefined ? 'Per-model bounds (max_tokens) are left open.' : `Per-model bounds are those of ${model}.`),
    `Every request carries: ${headers}.`,
    unstated.length > 0 ? `Not stated by ${spec.source_document}:\n${unstated.map((u) => `- ${u}`).join('\n')}` : '',
    omitted.length > 0
      ? `Endpoints left out of this document:\n${omitted.map((o) => `- \`${o.endpoint}\` (bases ${o.bases.join(', ')}): ${o.reason}`).join('\n')}`
      : '',
  ];
  return parts.filter(Boolean).join('\n\n');
}

function objectNamed(spec: Spec, name: string, where: string) {
  const object = spec.objects[name];
  if (!object) throw new Error(`${where} names object \`${name}\`, which spec.objects does not define`);
  return object;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function orList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

function sentence(text: string): string {
  const t = oneLine(text);
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** Code-unit order: the same in every locale. */
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byStatus(a: string, b: string): number {
  return Number(a) - Number(b) || byCodeUnit(a, b);
}

function sortKeys<T>(record: Record<string, T>, compare: (a: string, b: string) => number = byCodeUnit): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => compare(a, b)));
}
