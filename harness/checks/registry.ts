import type { Spec } from '#harness/spec/model.ts';
import type { Check } from './define.ts';

/** Checks by id. Registering an id twice is an error: ids are stable names, never reused. */
export class CheckRegistry {
  readonly #checks = new Map<string, Check>();

  register(...checks: Check[]): this {
    for (const c of checks) {
      if (this.#checks.has(c.id)) throw new Error(`check id \`${c.id}\` is registered twice`);
      this.#checks.set(c.id, c);
    }
    return this;
  }

  all(): Check[] {
    return [...this.#checks.values()];
  }

  areas(): string[] {
    return [...new Set(this.all().map((c) => c.area))];
  }

  /** Checks of an area that `--only` selects (a substring or a glob with `*`). */
  select(area: string | undefined, only: string | undefined): Check[] {
    const match = only === undefined ? () => true : globMatcher(only);
    return this.all().filter((c) => (area === undefined || c.area === area) && match(c.id));
  }

  /** (check, model) pairs to run. */
  plan(spec: Spec, models: readonly string[], area?: string, only?: string): { check: Check; model: string }[] {
    return this.select(area, only).flatMap((check) =>
      models.filter((id) => spec.models[id] && check.appliesTo(spec.models[id]!, id)).map((model) => ({ check, model })),
    );
  }
}

function globMatcher(pattern: string): (id: string) => boolean {
  if (!pattern.includes('*')) return (id) => id.includes(pattern);
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return (id) => re.test(id);
}
