/** NaN and infinities are not JSON; they become null. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}
