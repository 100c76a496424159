import type { LevelBounds } from '../../common/recoding/search/level-bounds.js';
import { levelRange, type GlobalRecodingSpec } from './definition.js';

type Levels = NonNullable<GlobalRecodingSpec['levels']>;

/** A problem with the job's `levels`, with the job key it names. */
export interface LevelProblem {
  readonly message: string;
  readonly key: string;
}

/**
 * The bounds of each quasi-identifier (in the order of `quasi`) from the job's `levels`: undefined
 * for a column the job leaves free. Refused: a column that is not a quasi-identifier (only they are
 * generalized by the search) and a level beyond the column's hierarchy.
 */
export function levelBoundsOf(levels: Levels | undefined, quasi: readonly { readonly name: string; readonly depth: number }[]): { bounds: (LevelBounds | undefined)[] } | { problem: LevelProblem } {
  const bounds: (LevelBounds | undefined)[] = quasi.map(() => undefined);
  if (!levels) return { bounds };
  for (const [name, bound] of Object.entries(levels)) {
    const j = quasi.findIndex((c) => c.name === name);
    if (j < 0) return { problem: { message: `"${name}" is not a quasi-identifier: only the quasi-identifiers' levels are searched, so only theirs can be bounded`, key: `method.levels.${name}` } };
    const height = quasi[j]!.depth - 1;
    const { min, max } = levelRange(bound);
    for (const [end, level] of [['min', min], ['max', max]] as const) {
      if (level !== undefined && level > height) {
        const key = typeof bound === 'number' ? `method.levels.${name}` : `method.levels.${name}.${end}`;
        return { problem: { message: height === 0 ? `"${name}" has no hierarchy: its only level is 0 (as collected), not ${level}` : `level ${level} is beyond the ${height} levels of the hierarchy of "${name}"`, key } };
      }
    }
    bounds[j] = { min: min ?? 0, max: max ?? height };
  }
  return { bounds };
}

/** The job's bounds in words, from the job alone (verify writes them again from report.json): undefined when it states none. */
export function levelBoundsText(levels: Levels | undefined): string | undefined {
  const entries = Object.entries(levels ?? {});
  if (entries.length === 0) return undefined;
  return entries
    .map(([name, bound]) => {
      const { min, max } = levelRange(bound);
      if (min !== undefined && min === max) return `${name} at level ${min}`;
      if (min !== undefined && max !== undefined) return `${name} at levels ${min}–${max}`;
      if (min !== undefined) return `${name} at level ${min} or above`;
      if (max !== undefined) return `${name} at level ${max} or below`;
      return `${name} at any level`;
    })
    .join(', ');
}
