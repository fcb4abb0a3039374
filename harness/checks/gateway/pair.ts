import type { UpstreamExchange } from '#harness/core/upstream.ts';
import { jsonOf } from '#harness/core/parsesAsJson.ts';
import type { Failure } from '#harness/core/outcome.ts';
import type { CheckContext, CheckRequest, CheckResponse } from '../context.ts';
import { failure } from '../support/outcome.ts';
import type { Difference } from './differences.ts';
import { chunkTextLength } from '#harness/core/chunkText.ts';
import { sseFrame } from '#harness/core/sseFold.ts';

/** One client request through the gateway and what it caused upstream. */
export interface Pair {
  res: CheckResponse;
  /** The client's answer whole (a stream as its events). */
  text: string;
  /** Every request the gateway sent upstream for it, in order; empty when it asked nothing. */
  upstream: UpstreamExchange[];
}

/** Why a gateway check judges nothing outside a gateway run. */
export const NO_UPSTREAM = 'judged only in a gateway run, against the harness as the upstream (run --upstream-port PORT, the gateway configured to call 127.0.0.1:PORT)';

/**
 * Sends `req` through the gateway, reads the answer to its end (a stream event by event, telling the
 * upstream what arrived, so a lockstep stream goes on) and gathers the upstream exchanges it caused.
 * The same request asked by several checks is sent once: its pair is shared through the run's store
 * of answers (as support/samples.ts shares plain ones), and each check that reads it judged it.
 */
export async function through(ctx: CheckContext, req: CheckRequest): Promise<Pair | { why: string }> {
  const upstream = ctx.upstream;
  if (upstream === undefined) return { why: NO_UPSTREAM };
  const key = JSON.stringify(['gateway pair', req.base, req.method, req.path, req.final ?? false, req.retry ?? true, req.upstream ?? null, req.body ?? null]);
  let shared = ctx.samples.get(key) as Promise<{ res: CheckResponse; text: string; upstream: UpstreamExchange[] | undefined }> | undefined;
  if (!shared) {
    shared = (async () => {
      const res = await ctx.send(req);
      const text = await readAll(ctx, res);
      return { res, text, upstream: await upstream.of(res) };
    })();
    // A check that reads it sees a rejection; no other must see an unhandled one.
    shared.catch(() => undefined);
    ctx.samples.set(key, shared);
  }
  const { res, text, upstream: seen } = await shared;
  if (seen === undefined) return { why: 'the request had no text to carry the marker that pairs it with the upstream' };
  return { res, text, upstream: seen };
}

async function readAll(ctx: CheckContext, res: CheckResponse): Promise<string> {
  if (!String(res.headers['content-type'] ?? '').includes('event-stream')) return res.text().catch(() => '');
  const out: string[] = [];
  let chars = 0;
  try {
    for await (const e of res.events()) {
      if (e.kind === 'comment') continue;
      out.push(sseFrame(e));
      if (e.kind === 'data') chars += chunkTextLength(e.data);
      ctx.upstream?.seen(res, chars);
    }
  } catch {
    // A broken stream keeps what arrived: the checks judge how it ended.
  }
  return out.join('');
}

/** The upstream's last answer (after any retries of the gateway's), or undefined. */
export const lastOf = (p: Pair): UpstreamExchange | undefined => p.upstream.at(-1);

/** A pair with something of the upstream's to compare: `up`, its last answer (the one passed on). */
export interface Judged {
  pair: Pair;
  up: UpstreamExchange;
}

/** One request through the gateway as a pair to judge, or why there is none (the gateway asked the upstream nothing). */
export async function judgedThrough(ctx: CheckContext, req: CheckRequest): Promise<Judged | { why: string }> {
  const p = await through(ctx, req);
  if ('why' in p) return p;
  const up = lastOf(p);
  if (up === undefined) return { why: `the gateway answered HTTP ${p.res.status} without asking the upstream (a refusal of its own, or a cache), so nothing of the upstream's reached the client to compare` };
  return { pair: p, up };
}

/** The body the upstream received, parsed. */
export const upstreamBody = (e: UpstreamExchange): unknown => jsonOf(e.request.body);

/** A value as a report shows it beside the other side's. */
const shownValue = (v: unknown): string => {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
};

/** A difference as a failure: both sides in the message and in the defect, the client's exchange as evidence. */
export function changeFailure(d: Difference, where: 'request' | 'answer' | 'usage' | 'error', res: CheckResponse, up: UpstreamExchange): Failure {
  // In a request the client's value went up and the upstream got another; in an answer the upstream's came down.
  const [sender, receiver] = where === 'request' ? ['the client sent', 'the upstream'] : ['the upstream sent', 'the client'];
  const what =
    d.kind === 'dropped'
      ? `${d.path}: ${sender} ${shownValue(where === 'request' ? d.client : d.upstream)}, and ${receiver} never got it`
      : d.kind === 'replaced'
        ? where === 'request'
          ? `${d.path}: the upstream got ${shownValue(d.upstream)}, the client sent ${shownValue(d.client)}`
          : `${d.path}: the upstream sent ${shownValue(d.upstream)}, the client was told ${shownValue(d.client)}`
        : `${d.path}: added by the gateway (${shownValue(d.upstream)})`;
  return failure(`${where}: ${what} (upstream ${up.request.method} ${up.request.path} answered ${up.response.status})`, res, {
    path: `/${d.path.replace(/\./g, '/')}`,
    defect: { kind: 'changed', path: d.path, change: d.kind, ...(d.client !== undefined ? { atClient: shownValue(d.client) } : {}), ...(d.upstream !== undefined ? { atUpstream: shownValue(d.upstream) } : {}), what },
  });
}
