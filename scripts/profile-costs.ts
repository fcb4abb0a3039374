// Measures what each check costs on the embedded emulator and writes it where the cost estimate
// reads it (harness/runner/spend/costProfile.json). Run after changing what a check sends:
//   npm run profile:costs
// harness/runner/spend/estimate.test.ts fails while the file no longer matches the checks.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { measureCostProfile } from '#harness/runner/spend/estimate.ts';
import { loadSpec } from '#harness/spec/load.ts';

const out = fileURLToPath(new URL('../harness/runner/spend/costProfile.json', import.meta.url));
const { spec } = loadSpec();
// To the second: the file records when it was measured, and the test measures again at that instant.
const at = new Date(Math.floor(Date.now() / 1000) * 1000);
const profile = await measureCostProfile(spec, at);
writeFileSync(out, `${JSON.stringify(profile, null, 1)}\n`);
const checks = Object.keys(profile.checks).length;
console.log(`${out}: ${checks} checks on ${Object.keys(spec.models).length} models, measured at ${profile.measuredAt}`);
