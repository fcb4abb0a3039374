/**
 * A check-id pattern: a glob with `*` matching the whole id, or, without `*`, a substring of it
 * (`exact` makes it the whole id instead, as a known-failures entry names its check).
 */
export function globMatcher(pattern: string, exact = false): (id: string) => boolean {
  if (!pattern.includes('*')) return exact ? (id) => id === pattern : (id) => id.includes(pattern);
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return (id) => re.test(id);
}
