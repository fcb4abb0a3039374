import type { Spec } from '#harness/spec/model.ts';
import type { AuthMode } from '../context.ts';
import { defaultModelOnly, defineCheck, gradeOf, type Check } from '../define.ts';
import { outcomeOf } from '../support/outcome.ts';
import { judgeRefusal } from '../support/refusal.ts';
import { chat } from '../support/requests.ts';

const CASES: { mode: AuthMode; subject: string; what: string }[] = [
  { mode: 'none', subject: 'missing-key', what: 'a request without a key' },
  { mode: 'malformed', subject: 'malformed-key', what: 'a malformed Authorization header' },
  { mode: 'wrong', subject: 'wrong-key', what: 'an unknown key' },
];

/** Missing, malformed or wrong key: the spec's failure status, with an error envelope. */
export function authChecks(spec: Spec): Check[] {
  const status = spec.authentication.failure_status;
  return CASES.map((c) =>
    defineCheck({
      id: `auth.${c.subject}.returns-${status}`,
      title: `${c.what} is refused with ${status}`,
      area: 'auth',
      ...gradeOf(spec.authentication),
      specRefs: ['authentication.failure_status'],
      appliesTo: defaultModelOnly,
      async run(ctx) {
        const res = await ctx.send({ ...chat(ctx), auth: c.mode, retry: false });
        return outcomeOf(await judgeRefusal(ctx, res, { status }, c.what));
      },
    }),
  );
}
