import { jsonResponse } from '../http/respond.ts';
import { listedModels } from '../models.ts';
import type { RouteInput } from './request.ts';
import type { EmulatorContext } from '../context.ts';

const lastCurrent = (ctx: EmulatorContext) => Object.entries(ctx.spec.models).filter(([, m]) => m.kind === 'current' && !m.default).map(([id]) => id).at(-1);

/** GET /models: the container shape is not shown; the widely used {object: list, data: [...]}. */
export function listModels({ ctx, base }: RouteInput): Response {
  const owner = 'svc';
  // The fault leaves out a current model the emulator serves (the last one, not the default).
  const dropOne = ctx.fault('models-list-missing-current') || (ctx.fault('v1-models-differ') && base === 'v1');
  const ids = dropOne ? listedModels(ctx).filter((id) => id !== lastCurrent(ctx)) : listedModels(ctx);
  const entries = ids.map((id) => (ctx.fault('models-missing-id') ? { name: id, object: 'model', owned_by: owner } : { id, object: 'model', owned_by: owner }));
  if (ctx.fault('models-bare-array')) return jsonResponse(entries);
  return jsonResponse({ object: 'list', data: entries });
}
