import type { RandomSource } from '../../random/source.js';
import type { Rational } from '../../exact/rational.js';
import { shuffleRelease, type ReleaseRows } from '../../table/release-rows.js';
import { perturbAll, UniformPerturber } from './randomize.js';

export interface PerturbedAttribute {
  readonly values: Uint32Array;
  readonly domainSize: number;
  readonly retention: Rational;
}

/**
 * Plain uniform perturbation of every sensitive attribute, each independently, rows shuffled: a
 * release. `inInputOrder`: rows left in the input's order, for a perturbation that is never
 * released (the "before" a report compares with): counts over it are the same either way, and a
 * shuffle of a million rows, and reading them at random afterwards, is a fifth of a second.
 */
export function uniformPerturbationRelease(source: RandomSource, rowCount: number, attributes: readonly PerturbedAttribute[], inInputOrder = false): ReleaseRows {
  const sourceRow = new Uint32Array(rowCount);
  for (let i = 0; i < rowCount; i++) sourceRow[i] = i;
  const sensitive = attributes.map((a) => perturbAll(source, a.values, new UniformPerturber(a.retention, a.domainSize)));
  const rows = { sourceRow, sensitive };
  if (!inInputOrder) shuffleRelease(source, rows);
  return rows;
}
