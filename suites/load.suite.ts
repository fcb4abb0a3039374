import { describeChecks } from '#harness/runner/describeChecks.ts';

describeChecks('load');
