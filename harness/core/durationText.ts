/** A span of time as people say it: `45 s`, `12 min`, `2 h 10 min`. */
export function durationText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 120) return `${min} min`;
  return `${Math.floor(min / 60)} h${min % 60 === 0 ? '' : ` ${min % 60} min`}`;
}
