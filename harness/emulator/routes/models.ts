import { jsonResponse } from '../http/respond.ts';
import { listedModels } from '../models.ts';
import type { RouteInput } from './request.ts';

/** GET /models: the container shape is not shown; the widely used {object: list, data: [...]}. */
export function listModels({ ctx }: RouteInput): Response {
  const owner = 'svc';
  const entries = listedModels(ctx).map((id) => (ctx.fault('models-missing-id') ? { name: id, object: 'model', owned_by: owner } : { id, object: 'model', owned_by: owner }));
  if (ctx.fault('models-bare-array')) return jsonResponse(entries);
  return jsonResponse({ object: 'list', data: entries });
}
