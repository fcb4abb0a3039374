import { HarnessError } from '#harness/core/errors/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { Check } from './define.ts';
import { selector, type Selection } from './selection.ts';

/** A check id registered twice: a harness defect, typed as every harness error is (a suite of checks built wrong). */
export class DuplicateCheckError extends HarnessError {
  readonly checkId: string;

  constructor(checkId: string) {
    super('HARNESS_DUPLICATE_CHECK', `check id \`${checkId}\` is registered twice: ids are stable names, never reused`);
    this.name = 'DuplicateCheckError';
    this.checkId = checkId;
  }
}

/** Checks by id. Registering an id twice is an error: ids are stable names, never reused. */
export class CheckRegistry {
  readonly #checks = new Map<string, Check>();

  register(...checks: Check[]): this {
    for (const c of checks) {
      if (this.#checks.has(c.id)) throw new DuplicateCheckError(c.id);
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

  /** Checks of an area that `--only` and `--skip` select (selection.ts). */
  select(area: string | undefined, selection: Selection = {}): Check[] {
    const match = selector(selection);
    return this.all().filter((c) => (area === undefined || c.area === area) && match(c.id));
  }

  /** (check, model) pairs to run. */
  plan(spec: Spec, models: readonly string[], area?: string, selection: Selection = {}): { check: Check; model: string }[] {
    return this.select(area, selection).flatMap((check) =>
      models.filter((id) => spec.models[id] && check.appliesTo(spec.models[id]!, id)).map((model) => ({ check, model })),
    );
  }
}
