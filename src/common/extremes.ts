/**
 * The largest and smallest of many numbers, and their sum, by a loop. Math.max(...values) passes every value as an
 * argument, and past some 100,000 (class sizes of a large release, nodes of a wide lattice) that
 * overflows the stack.
 */

/** The largest value; -Infinity for none, NaN if any is NaN, and 0 over -0, as Math.max gives. */
export function maxOf(values: Iterable<number> | ArrayLike<number>): number {
  const list = indexed(values);
  let max = -Infinity;
  for (let i = 0; i < list.length; i++) {
    const v = list[i]!;
    if (v > max || (v === 0 && Object.is(max, -0))) max = v;
    else if (v !== v) return Number.NaN;
  }
  return max;
}

/** The smallest value; Infinity for none, NaN if any is NaN, and -0 under 0, as Math.min gives. */
export function minOf(values: Iterable<number> | ArrayLike<number>): number {
  const list = indexed(values);
  let min = Infinity;
  for (let i = 0; i < list.length; i++) {
    const v = list[i]!;
    if (v < min || (v === 0 && min === 0 && Object.is(v, -0))) min = v;
    else if (v !== v) return Number.NaN;
  }
  return min;
}

/** The sum of the values (0 for none). */
export function sumOf(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum;
}

/** Arrays as they are (read by index: hot loops call these per micro group, and an iterator costs more than the comparison); other iterables copied. */
function indexed(values: Iterable<number> | ArrayLike<number>): ArrayLike<number> {
  return Array.isArray(values) || ArrayBuffer.isView(values) ? (values as ArrayLike<number>) : Array.from(values as Iterable<number>);
}
