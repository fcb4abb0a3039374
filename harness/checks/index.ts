import type { Spec } from '#harness/spec/model.ts';
import { answerChecks } from './answer/meaning.ts';
import { crossingChecks } from './answer/crossing.ts';
import { scriptChecks } from './answer/scripts.ts';
import { servedChecks } from './endpoint/served.ts';
import { authChecks } from './auth/keys.ts';
import { balanceChecks } from './balance/spending.ts';
import { balanceTotalChecks } from './balance/total.ts';
import { baseChecks } from './bases/v1.ts';
import { cachingChecks } from './caching/prefix.ts';
import { aiSdkClientChecks } from './client/aiSdk.ts';
import { anthropicClientChecks } from './client/anthropic.ts';
import { langchainClientChecks } from './client/langchain.ts';
import { openaiClientChecks } from './client/openai.ts';
import { reasoningTurnChecks } from './conversation/reasoning.ts';
import { conversationChecks } from './conversation/turns.ts';
import { fimStreamChecks } from './fim/stream.ts';
import { gatewayChecks, gatewayMessagesChecks } from './gateway/index.ts';
import { lifecycleChecks } from './lifecycle/aliases.ts';
import { loadChecks } from './load/checks.ts';
import { messagesFormatChecks } from './messages/format.ts';
import { messagesStreamChecks } from './messages/stream.ts';
import { messagesToolChecks } from './messages/tools.ts';
import { modelChecks } from './models/list.ts';
import { propertyChecks } from './property/index.ts';
import { outputChecks } from './output/stopText.ts';
import { CheckRegistry } from './registry.ts';
import { boundChecks } from './request/bounds.ts';
import { ruleChecks } from './rule/rules.ts';
import { schemaChecks } from './schema/responses.ts';
import { statelessChecks } from './stateless/memory.ts';
import { streamChoiceChecks } from './stream/choices.ts';
import { streamChecks } from './stream/events.ts';
import { streamUsageChecks } from './stream/usage.ts';
import { usageChecks } from './usage/arithmetic.ts';

import type { Check } from './define.ts';

export type { Check } from './define.ts';
export type { CheckContext, CheckOutcome, CheckRequest, CheckResponse, LoadPhaseView, ReferenceTime, AuthMode, SampleStore, ServedVerdict, StoredAnswer, UpstreamView } from './context.ts';
export type { SharedAnswer } from './support/samples.ts';
export { recoveryWindowText, type DrivenLoad, type RecoveryWindow } from './load/run.ts';
export { CheckRegistry } from './registry.ts';

/** Every check of the catalogue, derived from the spec where the spec can drive it. */
const registries = new WeakMap<Spec, CheckRegistry>();

/** Every check of the spec, built once per spec object (the CLI, the plan and the estimate all ask). */
export function buildRegistry(spec: Spec): CheckRegistry {
  let registry = registries.get(spec);
  if (!registry) {
    registry = registryOf(spec);
    registries.set(spec, registry);
  }
  return registry;
}

/**
 * The areas of the catalogue, each with the module that builds its checks from the spec, in the
 * order a run lists them. An area's checks carry its name (`area`, and the start of their ids): a
 * test holds every check to the area it is registered under.
 */
export const AREAS = [
  { area: 'endpoint', checks: servedChecks },
  { area: 'models', checks: modelChecks },
  { area: 'schema', checks: schemaChecks },
  { area: 'request', checks: boundChecks },
  { area: 'rule', checks: ruleChecks },
  { area: 'auth', checks: authChecks },
  { area: 'stream', checks: streamChecks },
  { area: 'stream', checks: streamChoiceChecks },
  { area: 'stream', checks: streamUsageChecks },
  { area: 'usage', checks: usageChecks },
  { area: 'fim', checks: fimStreamChecks },
  { area: 'answer', checks: answerChecks },
  { area: 'answer', checks: crossingChecks },
  { area: 'answer', checks: scriptChecks },
  { area: 'output', checks: outputChecks },
  { area: 'caching', checks: cachingChecks },
  { area: 'balance', checks: balanceChecks },
  { area: 'balance', checks: balanceTotalChecks },
  { area: 'bases', checks: baseChecks },
  { area: 'stateless', checks: statelessChecks },
  { area: 'conversation', checks: conversationChecks },
  { area: 'conversation', checks: reasoningTurnChecks },
  { area: 'messages', checks: messagesFormatChecks },
  { area: 'messages', checks: messagesStreamChecks },
  { area: 'messages', checks: messagesToolChecks },
  { area: 'lifecycle', checks: lifecycleChecks },
  { area: 'gateway', checks: gatewayChecks },
  { area: 'gateway', checks: gatewayMessagesChecks },
  { area: 'property', checks: propertyChecks },
  { area: 'load', checks: loadChecks },
  { area: 'client', checks: openaiClientChecks },
  { area: 'client', checks: anthropicClientChecks },
  { area: 'client', checks: aiSdkClientChecks },
  { area: 'client', checks: langchainClientChecks },
] as const satisfies readonly { area: string; checks: (spec: Spec) => Check[] }[];

function registryOf(spec: Spec): CheckRegistry {
  return new CheckRegistry().register(...AREAS.flatMap(({ checks }) => checks(spec)));
}

/** Models a run covers by default: every current model, and the legacy aliases for lifecycle. */
export function defaultModels(spec: Spec): string[] {
  return Object.entries(spec.models)
    .filter(([, m]) => m.kind === 'current' || m.kind === 'legacy_alias')
    .map(([id]) => id);
}
