/**
 * Records keyed by names from the data (columns, values). A column may be called
 * `__proto__` or `constructor`: on a plain object the first is swallowed by the
 * prototype setter and a lookup of the second finds a function. These records
 * have no prototype, so every name is an ordinary key; build and update them
 * only through these helpers (a spread makes a plain object again).
 */
export type Named<T> = Readonly<Record<string, T>>;

/** A null-prototype record from records or [name, value] pairs, later sources winning. */
export function named<T>(...sources: readonly (Named<T> | Iterable<readonly [string, T]>)[]): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const source of sources) {
    const entries = Symbol.iterator in source ? (source as Iterable<readonly [string, T]>) : Object.entries(source as Named<T>);
    for (const [name, value] of entries) out[name] = value;
  }
  return out;
}

export function withName<T>(record: Named<T>, name: string, value: T): Record<string, T> {
  return named(record, [[name, value]]);
}

/**
 * The value stored under a name from the data, or undefined. A plain lookup
 * `record[name]` finds Object.prototype's members for names like `constructor`
 * or `toString`; only own keys are names the job gave.
 */
export function own<T>(record: Named<T>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}
