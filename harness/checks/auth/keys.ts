import type { Spec } from '#harness/spec/model.ts';
import type { AuthMode } from '../context.ts';
import { defaultModelOnly, defineCheck, gradeOf, type Check } from '../define.ts';
import { outcomeOf, pass } from '../support/outcome.ts';
import { inconclusive } from '../support/cooperation.ts';
import { plainCompletion, settled } from '../support/samples.ts';
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
      ...gradeOf(spec.authentication),
      specRefs: ['authentication.failure_status'],
      appliesTo: defaultModelOnly,
      async run(ctx) {
        // A refusal shows the key was judged only where the run's key is accepted: the control, shared, sent beside it.
        const control = plainCompletion(ctx);
        const res = await ctx.send({ ...chat(ctx), auth: c.mode, retry: false });
        const failures = await judgeRefusal(ctx, res, { status }, c.what);
        if (failures.length > 0) return (await settled(control), outcomeOf(failures));
        const { res: valid } = await control;
        return valid.status === 200 ? pass() : inconclusive(`the same request with the run's key is refused too (HTTP ${valid.status}): refusing ${c.what} shows nothing of the key`);
      },
    }),
  );
}
