/**
 * A value made once per owner and key, kept while the owner lives: what is derived from a spec for
 * some options (its schemas, its breaks, its field values, the rules it weighs) is asked for by the
 * registry, the arbitraries and the coverage classes alike. Each call site makes its own store;
 * `make` runs on the first ask of an owner and key only.
 */
export function memoPer<Owner extends object, Value>(): (owner: Owner, key: string, make: () => Value) => Value {
  const byOwner = new WeakMap<Owner, Map<string, Value>>();
  return (owner, key, make) => {
    let byKey = byOwner.get(owner);
    if (!byKey) {
      byKey = new Map();
      byOwner.set(owner, byKey);
    }
    if (!byKey.has(key)) byKey.set(key, make());
    return byKey.get(key)!;
  };
}
