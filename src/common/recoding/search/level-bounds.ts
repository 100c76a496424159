/**
 * The levels a job allows each quasi-identifier ("keep birth year": a column pinned to one level, or
 * a range): the search then runs over the sub-lattice of nodes whose every level lies in its range.
 * A sub-lattice of a lattice is a lattice (a box), so the bottom-up and top-down visits run on it as
 * on the whole, from its lowest node `min` to its highest `max`.
 */
export interface LevelBounds {
  /** The lowest level allowed, ≥ 0. */
  readonly min: number;
  /** The highest level allowed, ≤ depth − 1. */
  readonly max: number;
}

/** Every level of each column: the whole lattice. */
export const wholeLattice = (depths: readonly number[]): LevelBounds[] => depths.map((d) => ({ min: 0, max: d - 1 }));

/** The bounds of each column, the whole range where none is given. */
export function boundsOf(depths: readonly number[], bounds: readonly (LevelBounds | undefined)[] | undefined): LevelBounds[] {
  return depths.map((d, j) => {
    const b = bounds?.[j];
    if (!b) return { min: 0, max: d - 1 };
    if (!(Number.isInteger(b.min) && Number.isInteger(b.max) && b.min >= 0 && b.min <= b.max && b.max < d)) throw new RangeError(`level bounds ${b.min}–${b.max} of column ${j} lie outside its levels 0–${d - 1}`);
    return b;
  });
}

export const boundedSize = (bounds: readonly LevelBounds[]): number => bounds.reduce((n, b) => n * (b.max - b.min + 1), 1);

export const withinBounds = (node: readonly number[], bounds: readonly LevelBounds[]): boolean => node.every((level, j) => level >= bounds[j]!.min && level <= bounds[j]!.max);

/** Whether the bounds leave some column less than its whole range. */
export const restricts = (bounds: readonly LevelBounds[], depths: readonly number[]): boolean => bounds.some((b, j) => b.min > 0 || b.max < depths[j]! - 1);
