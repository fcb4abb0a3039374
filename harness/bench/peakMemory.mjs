// Preload for a benchmarked process (bench/targets.ts): on exit, its peak resident set (KiB) is
// written to the file SVC_BENCH_PEAK_FILE names, so the parent reads this process's own figure.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.SVC_BENCH_PEAK_FILE;
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
});
