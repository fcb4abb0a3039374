import { randomBytes } from 'node:crypto';
import { NOT_CAPTURED_HEADER, NotCapturedError } from '#harness/core/notCaptured.ts';
import type { TokenUse } from '#harness/core/outcome.ts';
import type { CheckContext, CheckRequest, CheckResponse } from '#harness/checks/index.ts';
import { validatorFor } from '#harness/derive/validators/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { SendRequest } from '#harness/transport/index.ts';
import { baseUrlOf } from './baseUrls.ts';
import type { RunConfig } from './runConfig.ts';

export interface Sender {
  send(request: SendRequest): Promise<CheckResponse>;
}

/** A wrong key of the description's shape: random, so it is never anyone's key. */
const WRONG_KEY = `sk-wrong-${randomBytes(12).toString('hex')}`;

function authHeaders(mode: CheckRequest['auth'], key: string, emptyBalanceKey: string | undefined): Record<string, string> {
  switch (mode ?? 'key') {
    case 'empty-balance':
      return { authorization: `Bearer ${emptyBalanceKey ?? key}` };
    case 'none':
      return {};
    case 'malformed':
      return { authorization: 'Token not-a-bearer-credential' };
    case 'wrong':
      return { authorization: `Bearer ${WRONG_KEY}` };
    default:
      return { authorization: `Bearer ${key}` };
  }
}

/** The CheckContext of one check on one model: requests go through the run's transport. */
export function createCheckContext(spec: Spec, config: RunConfig, sender: Sender, model: string, usage: TokenUse): CheckContext {
  const mapModel = (id: string) => config.modelMap[id] ?? id;
  const send = async (req: CheckRequest): Promise<CheckResponse> => {
    const res = await sender.send({
      method: req.method,
      url: baseUrlOf(spec, config, req.base) + req.path,
      headers: { ...authHeaders(req.auth, config.apiKey, config.emptyBalanceKey), ...(req.body !== undefined || req.rawBody !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(req.body !== undefined ? { body: req.body } : {}),
      ...(req.rawBody !== undefined ? { rawBody: req.rawBody } : {}),
      ...(req.retry === false ? { retry: false } : {}),
    });
    const missing = res.headers[NOT_CAPTURED_HEADER];
    if (missing !== undefined) throw new NotCapturedError(missing);
    return res;
  };
  return {
    spec,
    model,
    targetModel: mapModel(model),
    mapModel,
    send,
    judge: (objectName, body, profile = 'default') => validatorFor(spec, objectName, { profile })(body),
    referenceTime: async () => ({ value: new Date(config.referenceTime.value), source: config.referenceTime.source }),
    countUsage: (u) => {
      usage.promptTokens += u.promptTokens;
      usage.completionTokens += u.completionTokens;
      usage.cacheHitTokens += u.cacheHitTokens;
    },
    options: { strict: config.strict, runs: config.runs, seed: config.seed, lifecycleToleranceSeconds: config.lifecycleToleranceSeconds, hasEmptyBalanceKey: config.emptyBalanceKey !== undefined },
  };
}

