/**
 * The value stored under a name from the data, or undefined. A plain lookup
 * `record[name]` finds Object.prototype's members for names like `constructor`
 * or `toString`; only own keys are names the job gave.
 */
export function own<T>(record: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}
