/** Pearson's χ² statistic against expected counts. */
export function chiSquare(observed: ArrayLike<number>, expected: ArrayLike<number>): number {
  let stat = 0;
  for (let i = 0; i < observed.length; i++) {
    const e = expected[i]!;
    stat += ((observed[i]! - e) ** 2) / e;
  }
  return stat;
}

/** Upper quantile of χ²(k) by Wilson–Hilferty; z = 3.09 is the 0.001 level. */
export function chiSquareCritical(k: number, z = 3.090232): number {
  const a = 2 / (9 * k);
  return k * (1 - a + z * Math.sqrt(a)) ** 3;
}
