/**
 * The typed form of the files under spec/. The shapes mirror spec/meta-schema.json, which the loader
 * checks first; these types only describe what passed that check.
 */

export type Strength = 'must' | 'should' | 'unspecified';

/**
 * Why an entry has its strength: the description states it, its plain meaning entails it (from the
 * quoted phrase), it advises it, or it leaves it open. Stated and entailed go with must, advised with
 * should, unspecified with unspecified (the loader checks that they agree).
 */
export type Basis = 'stated' | 'advised' | 'unspecified' | { entailed: string };

export interface Unspecified {
  unspecified: true;
  note?: string;
  source?: string;
}

export function isUnspecified(value: unknown): value is Unspecified {
  return typeof value === 'object' && value !== null && (value as { unspecified?: unknown }).unspecified === true;
}

/** An integer, or a quantity as the description writes it ("8K", "1M"). */
export type Quantity = number | string | Unspecified;

export type TypeName = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';
export type PerModelKey = 'max_output_tokens' | 'default_max_tokens' | 'context_window';
export interface PerModel {
  per_model: PerModelKey;
}

export interface PatternRule {
  regex: string;
  strength: Strength;
  basis: Basis;
  note?: string;
}

/** A lower bound on an array's items with a reason of its own (an array the description's words need non-empty). */
export interface MinItemsRule {
  count: number;
  strength: Strength;
  basis: Basis;
  note?: string;
}

/** The least number of items a field takes, whichever way the spec writes it. */
export function minItemsOf(expr: TypeExpr): number | undefined {
  const m = expr.min_items;
  return typeof m === 'object' ? m.count : m;
}

/** A field, an array item or an alternative: how one value is shaped. */
export interface TypeExpr {
  type?: TypeName | TypeName[];
  nullable?: boolean | 'unspecified';
  enum?: unknown[];
  enum_ref?: 'finish_reasons';
  const?: unknown;
  minimum?: number | PerModel;
  maximum?: number | PerModel;
  /** A number: a bound stated with the field, at its strength. A MinItemsRule: one with a strength and basis of its own. */
  min_items?: number | MinItemsRule;
  max_items?: number | Unspecified;
  min_length?: number;
  pattern?: PatternRule;
  items?: TypeExpr;
  prefix_items?: TypeExpr[];
  ref?: string;
  fields?: Record<string, TypeExpr>;
  one_of?: TypeExpr[];
  json_string?: { strength: Strength; basis: Basis; note?: string };
  required?: boolean | 'unspecified';
  default?: unknown;
  strength?: Strength;
  basis?: Basis;
  advice?: string[];
  notes?: string;
  source?: string;
}

export interface SpecObject {
  title: string;
  direction: 'request' | 'response';
  source: string;
  notes?: string;
  fields: Record<string, TypeExpr>;
  /** Shapes one field's value entails of another (a `finish_reason` of `tool_calls` needs tool calls). */
  implies?: Implication[];
}

/**
 * When `if.field` (a dotted path inside the object) equals `if.equals`, `then.field` is present
 * (`required`) and carries at least `min_items` items.
 */
export interface Implication {
  if: { field: string; equals: unknown };
  then: { field: string; required?: true; min_items?: number };
  statement: string;
  notes?: string;
  strength: Strength;
  basis: Basis;
  source: string;
}

export type FormatName = 'chat_completions' | 'messages';
export type FeatureName = 'chat' | 'models' | 'balance' | 'fim' | 'prefix_completion' | 'messages';

export interface Base {
  placeholder: string;
  relative_to?: string | null;
  path: string | Unspecified;
  formats: FormatName[];
  features: FeatureName[];
  notes?: string;
  strength: Strength;
  basis: Basis;
  source: string;
}

export interface ThinkingMode {
  label: string;
  request: Record<string, unknown>;
  note?: string;
  strength?: Strength;
  basis?: Basis;
  source: string;
}

export interface Routing {
  model: string;
  mode: string;
}

export interface Replacement {
  model: string;
  request?: Record<string, unknown>;
}

export type ModelKind = 'current' | 'legacy_alias' | 'listed';

export interface Model {
  kind: ModelKind;
  default: boolean;
  description: string;
  context_window: Quantity;
  max_output_tokens: Quantity;
  max_output_includes_reasoning?: boolean;
  default_max_tokens: Quantity;
  routes_to?: Routing;
  retires_at?: string;
  replacement?: Replacement[];
  thinking_modes: string[] | Unspecified;
  tools: { supported: boolean; in_thinking_modes?: boolean; note?: string } | Unspecified;
  formats: FormatName[] | Unspecified;
  features: FeatureName[] | Unspecified;
  listed_in_models_endpoint?: boolean | Unspecified;
  source: string;
}

export interface Condition {
  field?: string;
  present?: boolean;
  equals?: unknown;
  not_equals?: unknown;
  in?: unknown[];
  unknown_model?: true;
  wrong_type?: true;
  out_of_bounds?: true;
  above?: number | PerModel;
  body?: 'invalid_json';
  last_message?: { role: 'system' | 'user' | 'assistant' | 'tool'; prefix?: boolean | 'absent' };
  any_message_has?: string;
  base?: string;
  base_not?: string;
  model?: string;
  model_kind?: ModelKind;
  after?: 'retires_at';
  account?: 'balance_too_low';
}

export interface Expectation {
  status?: number;
  status_any_of?: number[];
  status_note?: string;
  status_unspecified?: true;
  error?: true;
  accepted?: true;
  effect?: string;
}

export interface Rule {
  id: string;
  endpoint: string;
  statement: string;
  when: Condition[];
  also_when?: Condition[][];
  expect: Expectation;
  strength: Strength;
  basis: Basis;
  applies_to_models?: { kind?: ModelKind };
  advice?: string;
  notes?: string;
  source: string;
}

export interface Endpoint {
  method: 'GET' | 'POST';
  path: string | Unspecified;
  bases: string[];
  /** Per base it is served under, the feature of that base (bases.yaml) the route belongs to. */
  features: Record<string, FeatureName>;
  request: string | null;
  responses: Record<string, string>;
  stream?: {
    selected_by: Condition;
    chunk: string;
    content_type?: { value: string; strength: Strength; basis: Basis; note?: string };
  };
  notes?: string;
  source: string;
}

export interface Header {
  name: string;
  value?: string;
  presence?: 'must' | 'may';
  strength?: Strength;
  basis?: Basis;
  source?: string;
}

export interface NamedStatement {
  id: string;
  statement: string;
  notes?: string;
  /** Production captures (file names under fixtures/real-world) showing what the description does not say. */
  evidence?: string[];
  /** A stream rule over the whole stream: some chunk has this field of the chunk object non-empty. */
  some_chunk?: { non_empty: string };
  strength: Strength;
  basis: Basis;
  source: string;
}

/**
 * A behaviour the checks observe (conversation.yaml, messages-format.yaml, streaming.yaml fim_stream):
 * what it is, how strong, and why.
 */
export interface Behaviour {
  statement: string;
  notes?: string;
  /** The models it binds, by id or kind; every model when left out. */
  models?: { ids?: string[]; kind?: ModelKind };
  /** A models.yaml instant the behaviour holds before (a legacy alias's retirement). */
  until?: 'retires_at';
  evidence?: string[];
  strength: Strength;
  basis: Basis;
  source: string;
}

export interface StreamEvent {
  id: string;
  order: 'first' | 'zero_or_more' | 'after_content' | 'last';
  shape?: unknown;
  statement: string;
  notes?: string;
  strength: Strength;
  basis: Basis;
  source: string;
}

export interface Streaming {
  selected_by: Condition;
  framing: { line_prefix: string; terminator: string; strength: Strength; basis: Basis; source: string };
  events: StreamEvent[];
  rules: NamedStatement[];
  reasoning: { statement: string; field_name: string | Unspecified; strength: Strength; basis: Basis; source: string };
  /** A chunk with `choices: []` carrying usage, last, after the final chunk: not a chunk of the message. */
  usage_carrier: { shape: { choices: []; usage: 'present' }; after: 'final_chunk'; statement: string; notes?: string; strength: Strength; basis: Basis; source: string };
  /** Fill-in-the-middle asked to stream (the FIM table lists no stream field). */
  fim_stream: Behaviour;
  pushed_notifications?: Unspecified;
}

export interface ErrorStatus {
  meaning: string;
  conditions: string[];
  headers?: Header[];
  retry: boolean;
  retry_strength?: Strength;
  min_retry_after_seconds?: number;
  source: string;
}

export interface RetryPolicy {
  statuses: number[];
  advised_statuses?: number[];
  read_retry_after_first: boolean;
  backoff?: 'exponential';
  initial_delay_seconds: number;
  multiplier: number;
  max_delay_seconds: number;
  jitter_seconds: { min: number; max: number };
  max_attempts: number;
  max_attempts_note?: string;
  min_delay_after_503_seconds: number;
  strength: Strength;
  basis: Basis;
  source: string;
}

export interface Errors {
  envelope: { object: string; statement: string; sample?: Record<string, unknown>; other_codes?: Unspecified; strength: Strength; basis: Basis; source: string };
  statuses: Record<string, ErrorStatus>;
  retry: RetryPolicy;
  retired_alias: { statement: string; status: Unspecified; strength: Strength; basis: Basis; source: string };
}

export interface Authentication {
  scheme: 'bearer';
  header: string;
  value_format?: string;
  content_type?: string;
  key_shape?: { prefix: string; strength: Strength; basis: Basis; note?: string };
  no_extra_quotes?: { statement: string; strength: Strength };
  failure_status: number;
  failure_conditions?: string[];
  revoked_recoverable?: boolean;
  key_hygiene?: { statement: string; strength: Strength };
  scopes?: Unspecified;
  strength: Strength;
  basis: Basis;
  source: string;
}

/** Decimal strings keep the digits the description wrote. */
export interface Price {
  model?: string;
  generation?: string;
  input_cache_hit: string;
  input_cache_miss: string;
  output: string;
  note?: string;
  valid_until?: string;
  valid_until_note?: string;
}

export interface Pricing {
  currency: string;
  per_tokens: number;
  may_change?: boolean;
  note?: string;
  source: string;
  entries: (Price & { model: string })[];
  earlier?: Price[];
}

export interface LifecycleTransition {
  from: string;
  to: string;
  moved_by: 'time';
  at: string;
  strength: Strength;
  basis: Basis;
  source: string;
}

export interface Lifecycle {
  driven_by: string;
  states: { id: string; model: string; routes_to?: Routing; effect?: string }[];
  transitions: LifecycleTransition[];
  replacement: Record<string, Replacement[] | string>;
  other_resources?: Unspecified;
  strength: Strength;
  basis: Basis;
  source: string;
}

/** Entries whose keys vary (limits, caching, versioning); read through the accessors in spec/. */
export type LooseEntry = { [key: string]: unknown };

/** A consequence of the description's plain meaning, with the phrase it follows from. */
export interface Meaning {
  statement: string;
  /** A total and the parts it adds up from, as fields of `object`. */
  sum?: { object: string; total: string; parts: string[] };
  tolerance_seconds?: number;
  notes?: string;
  strength: Strength;
  basis: Basis;
  source: string;
}

export interface Spec {
  revision: string;
  revision_updated: string;
  source_document: string;
  files: string[];
  bases: Record<string, Base>;
  thinking_modes: Record<string, ThinkingMode>;
  models: Record<string, Model>;
  objects: Record<string, SpecObject>;
  finish_reasons: { source: string; values: Record<string, string> };
  endpoints: Record<string, Endpoint>;
  common_headers: Header[];
  rules: Rule[];
  streaming: Streaming;
  /** Several turns in one request (spec/conversation.yaml). */
  conversation: Record<string, Behaviour>;
  /** The messages-style format beyond its request and response objects (spec/messages-format.yaml). */
  messages_format: Record<string, Behaviour>;
  errors: Errors;
  authentication: Authentication;
  limits: Record<string, LooseEntry>;
  rate_limits: LooseEntry;
  context_caching: LooseEntry;
  pricing: Pricing;
  billing: { model?: string; spending_order: ('granted' | 'topped_up')[]; strength: Strength; basis: Basis; source: string };
  lifecycle: Lifecycle;
  statelessness: { statement: string; strength: Strength; basis: Basis; source: string };
  versioning: LooseEntry;
  /** What the description's plain meaning entails (spec/meanings.yaml), by id. */
  meanings: Record<string, Meaning>;
  /** Optional features of the main operation (spec/features.yaml), by name: what shows a check needs one. */
  features: Record<string, Feature>;
  change_history: { date: string; change: string }[];
}

/** Top-level keys a complete spec must define, each in exactly one file. */
export const REQUIRED_TOP_LEVEL_KEYS: readonly (keyof Spec)[] = [
  'revision', 'revision_updated', 'source_document', 'files', 'bases', 'thinking_modes', 'models',
  'objects', 'finish_reasons', 'endpoints', 'common_headers', 'rules', 'streaming', 'conversation', 'messages_format', 'errors',
  'authentication', 'limits', 'rate_limits', 'context_caching', 'pricing', 'billing', 'lifecycle',
  'statelessness', 'versioning', 'change_history', 'meanings', 'features',
];

/**
 * A feature a run may leave out: a check needs it when a request it sends sets one of
 * `request_fields`, or a field of one of its messages is one of `message_fields`, or it judges one
 * of `spec_entries` (an entry of the spec, or a part of one: `rules.prefix` is every prefix rule).
 */
export interface Feature {
  request_fields?: string[];
  message_fields?: string[];
  spec_entries?: string[];
  source: string;
}
