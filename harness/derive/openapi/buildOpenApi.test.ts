import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, test } from 'vitest';
import { createAjv } from '#harness/derive/validators/createAjv.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { isUnspecified, type Spec } from '#harness/spec/model.ts';
import { buildOpenApi, rewriteSchema, type HttpMethod, type OpenApiDocument, type OpenApiOperation } from './index.ts';

const { spec } = loadSpec();

/** The parser dereferences and strips ids in place, so it gets a copy. */
async function parserVerdict(doc: unknown) {
  return validate(structuredClone(doc) as Parameters<typeof validate>[0]);
}

async function expectValid(doc: OpenApiDocument) {
  const result = await parserVerdict(doc);
  expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  expect(result.warnings).toEqual([]);
}

function operations(doc: OpenApiDocument): { path: string; method: HttpMethod; op: OpenApiOperation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    (['get', 'post'] as const).flatMap((method) => (item[method] ? [{ path, method, op: item[method] }] : [])),
  );
}

/** Every value of `key` anywhere under node, with its JSON pointer. */
function collect(node: unknown, key: string, pointer = ''): { pointer: string; value: unknown }[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => collect(n, key, `${pointer}/${i}`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([k, v]) => [
    ...(k === key ? [{ pointer: `${pointer}/${k}`, value: v }] : []),
    ...collect(v, key, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  ]);
}

function resolvePointer(doc: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);
}

describe('buildOpenApi', () => {
  const doc = buildOpenApi(spec);

  test('the document is valid OpenAPI 3.1 according to @readme/openapi-parser', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expectValid(doc);
  });

  test('the strict profile and a per-model build are valid too', async () => {
    await expectValid(buildOpenApi(spec, { profile: 'strict' }));
    await expectValid(buildOpenApi(spec, { model: 'svc-v4-flash' }));
  });

  test('the parser reports a $ref to a missing component as invalid', async () => {
    const broken = structuredClone(doc);
    const ok = broken.paths['/models']!.get!.responses['200'] as { content: Record<string, { schema: { $ref: string } }> };
    ok.content['application/json']!.schema.$ref = '#/components/schemas/no_such_object';
    const result = await parserVerdict(broken);
    expect(result.valid).toBe(false);
    expect(result.valid ? '' : result.errors.map((e) => e.message).join('\n')).toMatch(/no_such_object/);
  });

  test('the parser reports a document that breaks the OpenAPI schema as invalid', async () => {
    const broken: Partial<OpenApiDocument> = structuredClone(doc);
    delete broken.info;
    const result = await parserVerdict(broken);
    expect(result.valid).toBe(false);
    expect(result.valid ? '' : compileErrors(result)).toMatch(/info/);
  });

  test('info cites the source document and carries the spec revision', () => {
    expect(doc.info.version).toBe(spec.revision);
    expect(doc.info.description).toContain(spec.source_document);
    expect(doc.info.description).toContain(spec.revision_updated);
  });

  test('every endpoint x base of the spec is one operation, at the base prefix plus the endpoint path', () => {
    const ops = operations(doc);
    for (const [name, endpoint] of Object.entries(spec.endpoints)) {
      for (const baseKey of endpoint.bases) {
        const found = ops.filter((o) => o.op['x-endpoint'] === name && o.op['x-base'] === baseKey);
        expect(found, `${name} x ${baseKey}`).toHaveLength(1);
        const { path, method, op } = found[0]!;
        expect(method).toBe(endpoint.method.toLowerCase());
        expect(op.tags).toEqual([baseKey]);
        const base = spec.bases[baseKey]!;
        if (isUnspecified(base.path)) {
          expect(doc.paths[path]!.servers?.map((s) => s.url)).toEqual([base.placeholder]);
        } else {
          const parent = base.relative_to ? spec.bases[base.relative_to]!.path : '';
          const prefix = (typeof parent === 'string' ? parent : '') + base.path;
          expect(path.startsWith(prefix), `${path} starts with ${prefix}`).toBe(true);
          expect(doc.paths[path]!.servers).toBeUndefined();
        }
        if (!isUnspecified(endpoint.path)) expect(path.endsWith(endpoint.path), `${path} ends with ${endpoint.path}`).toBe(true);
        else expect(op['x-path-unspecified']?.chosen).toBe(path);
      }
    }
    const pairs = Object.values(spec.endpoints).reduce((n, e) => n + e.bases.length, 0);
    expect(ops).toHaveLength(pairs);
  });

  test('the paths are the ones the service description names, plus the chosen messages path', () => {
    expect(operations(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`)).toEqual([
      'POST /beta/chat/completions',
      'POST /beta/completions',
      'POST /chat/completions',
      'GET /models',
      'GET /user/balance',
      'POST /v1/chat/completions',
      'POST /v1/messages',
      'GET /v1/models',
      'GET /v1/user/balance',
    ]);
    expect(doc.servers.map((s) => s.url)).toEqual(['{base_url}']);
    expect(doc.servers[0]!.variables.base_url!.default).toBe('https://api.example.invalid');
    const messages = doc.paths['/v1/messages']!;
    expect(messages.servers![0]!.variables.messages_base_url).toBeDefined();
    expect(messages.servers![0]!.description).toMatch(/relation to \{base_url\} is not stated/);
    expect(messages.post!.description).toMatch(/a choice of this project, not part of the contract/);
  });

  test('request bodies, 200 responses and the stream refer to the spec objects', () => {
    for (const { op } of operations(doc)) {
      const endpoint = spec.endpoints[op['x-endpoint']]!;
      if (endpoint.request === null) expect(op.requestBody).toBeUndefined();
      else expect(op.requestBody?.content['application/json']?.schema).toEqual({ $ref: `#/components/schemas/${endpoint.request}` });
      for (const [status, object] of Object.entries(endpoint.responses)) {
        const response = op.responses[status] as { content: Record<string, Record<string, unknown>> };
        expect(response.content['application/json']!.schema).toEqual({ $ref: `#/components/schemas/${object}` });
        if (endpoint.stream) {
          const sse = response.content['text/event-stream']!;
          expect(sse['x-sse-data']).toEqual({ $ref: `#/components/schemas/${endpoint.stream.chunk}` });
          expect((sse.schema as { description: string }).description).toContain('data: [DONE]');
        } else {
          expect(response.content['text/event-stream']).toBeUndefined();
        }
      }
    }
    expect(operations(doc).filter((o) => o.op.responses['200'] && 'text/event-stream' in ((o.op.responses['200'] as { content: object }).content))).toHaveLength(
      spec.endpoints.chat_completions!.bases.length,
    );
  });

  test('every error status of the spec is a response of every operation, with the error envelope', () => {
    const statuses = Object.keys(spec.errors.statuses);
    for (const { op } of operations(doc)) {
      for (const status of statuses) expect(op.responses[status]).toEqual({ $ref: `#/components/responses/error_${status}` });
    }
    for (const status of statuses) {
      const response = doc.components.responses[`error_${status}`] as { content: Record<string, { schema: unknown }> };
      expect(response.content['application/json']!.schema).toEqual({ $ref: `#/components/schemas/${spec.errors.envelope.object}` });
    }
    expect(Object.keys((doc.components.responses.error_429 as { headers: object }).headers)).toEqual(['Retry-After']);
  });

  test('bearer auth applies to every operation', () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  test('every object of the spec is a component schema, with its annotations and no standalone keywords', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(Object.keys(spec.objects).sort());
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(schema['x-spec']).toBe(`objects.${name}`);
      expect(schema['x-strength']).toBe('must');
      for (const key of ['$defs', '$schema', '$id']) expect(collect(schema, key), `${name} ${key}`).toEqual([]);
    }
  });

  test('no ref points into $defs, and every ref resolves inside the document', () => {
    expect(JSON.stringify(doc)).not.toContain('#/$defs/');
    const refs = collect(doc, '$ref');
    expect(refs.length).toBeGreaterThan(0);
    for (const { pointer, value } of refs) {
      expect(typeof value, pointer).toBe('string');
      expect(value as string, pointer).toMatch(/^#\/components\/(schemas|responses)\//);
      expect(resolvePointer(doc, value as string), `${pointer} -> ${String(value)}`).toBeDefined();
    }
  });

  test('the component schemas compile as draft 2020-12 with the harness ajv and judge bodies', () => {
    const ajv = createAjv();
    ajv.addKeyword({ keyword: 'components' });
    const id = 'urn:svc-conformance:openapi';
    ajv.addSchema({ $id: id, components: { schemas: doc.components.schemas } });
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => ajv.compile({ $ref: `${id}#/components/schemas/${name}` }), name).not.toThrow();
    }
    const request = ajv.compile({ $ref: `${id}#/components/schemas/chat_completion_request` });
    expect(request({ model: 'svc-v4-flash', messages: [{ role: 'user', content: 'hi' }] })).toBe(true);
    expect(request({ model: 'svc-v4-flash', messages: [{ role: 'robot', content: 'hi' }] })).toBe(false);
    const envelope = ajv.compile({ $ref: `${id}#/components/schemas/error_envelope` });
    expect(envelope({ error: { message: 'bad key', type: 'invalid_request_error', code: 'invalid_api_key' } })).toBe(true);
    expect(envelope({ message: 'bad key' })).toBe(false);
  });

  test('the strict profile closes every object; a model resolves per-model bounds', () => {
    const strict = buildOpenApi(spec, { profile: 'strict' });
    for (const schema of Object.values(strict.components.schemas)) expect(schema.additionalProperties).toBe(false);
    for (const schema of Object.values(doc.components.schemas)) expect(schema.additionalProperties).toBeUndefined();
    const maxTokens = (s: OpenApiDocument) => (s.components.schemas.chat_completion_request!.properties as Record<string, { maximum?: number }>).max_tokens!.maximum;
    expect(maxTokens(doc)).toBeUndefined();
    expect(maxTokens(buildOpenApi(spec, { model: 'svc-v4-flash' }))).toBe(384000);
  });

  test('the output is stable and sorted where order carries no meaning', () => {
    expect(JSON.stringify(buildOpenApi(spec))).toBe(JSON.stringify(doc));
    const sorted = (keys: string[]) => [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(Object.keys(doc.paths)).toEqual(sorted(Object.keys(doc.paths)));
    expect(Object.keys(doc.components.schemas)).toEqual(sorted(Object.keys(doc.components.schemas)));
    expect(Object.keys(doc.components.responses)).toEqual(Object.keys(spec.errors.statuses).sort().map((s) => `error_${s}`));
  });

  test('server variables take defaults from the options', () => {
    const custom = buildOpenApi(spec, { serverDefaults: { base_url: 'https://svc.test', messages_base_url: 'https://svc.test/msg' } });
    expect(custom.servers[0]!.variables.base_url!.default).toBe('https://svc.test');
    expect(custom.paths['/v1/messages']!.servers![0]!.variables.messages_base_url!.default).toBe('https://svc.test/msg');
  });

  describe('an endpoint whose path the spec leaves unspecified', () => {
    const withNote = (note: string): Spec => ({
      ...spec,
      endpoints: { ...spec.endpoints, messages: { ...spec.endpoints.messages!, path: { unspecified: true, note } } },
    });

    test('is left out, and said so, when no path is chosen', async () => {
      for (const built of [buildOpenApi(spec, { pathChoices: { messages: null } }), buildOpenApi(withNote('Request path: not shown.'))]) {
        expect(operations(built).some((o) => o.op['x-endpoint'] === 'messages')).toBe(false);
        expect(built['x-omitted-endpoints']?.map((o) => o.endpoint)).toEqual(['messages']);
        expect(built.info.description).toMatch(/Endpoints left out of this document:\n- `messages`/);
        await expectValid(built);
      }
    });

    test('takes the path an option chooses', () => {
      const built = buildOpenApi(spec, { pathChoices: { messages: '/messages' } });
      expect(built.paths['/messages']?.post?.['x-path-unspecified']?.chosen).toBe('/messages');
      expect(built.paths['/v1/messages']).toBeUndefined();
      expect(() => buildOpenApi(spec, { pathChoices: { messages: 'messages' } })).toThrow(/must start with "\/"/);
    });
  });
});

describe('rewriteSchema', () => {
  test('rewrites refs in schema positions only and drops standalone keywords', () => {
    const input = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'x',
      properties: { const: { $ref: '#/$defs/a' }, default: { items: { $ref: '#/$defs/b' } } },
      const: { $ref: '#/$defs/data' },
      default: { $ref: '#/$defs/data' },
      'x-note': { $ref: '#/$defs/data' },
      anyOf: [{ $ref: '#/$defs/c' }],
      $defs: { a: {} },
    };
    expect(rewriteSchema(input, (r) => r.replace('#/$defs/', '#/components/schemas/'))).toEqual({
      properties: { const: { $ref: '#/components/schemas/a' }, default: { items: { $ref: '#/components/schemas/b' } } },
      const: { $ref: '#/$defs/data' },
      default: { $ref: '#/$defs/data' },
      'x-note': { $ref: '#/$defs/data' },
      anyOf: [{ $ref: '#/components/schemas/c' }],
    });
  });
});
