/** The middle value (the mean of the two middle ones for an even count): the benchmarks' robust summary of repeated timings. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
