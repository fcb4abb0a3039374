import { isUnspecified, type Spec } from '#harness/spec/model.ts';
import type { EndpointSettings } from './runConfig.ts';

/** The URL of a base of the spec for this run's target. */
export function baseUrlOf(spec: Spec, config: Pick<EndpointSettings, 'target'>, base: string): string {
  if (base === 'messages_base_url') return config.target.messagesBaseUrl;
  const b = spec.bases[base];
  if (!b) throw new Error(`no base \`${base}\` in the spec`);
  const root = b.relative_to ? baseUrlOf(spec, config, b.relative_to) : config.target.baseUrl;
  return root.replace(/\/+$/, '') + (isUnspecified(b.path) ? '' : b.path);
}
