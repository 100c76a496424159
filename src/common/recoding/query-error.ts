import { uniformInt } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import type { Column } from '../table/table.js';
import type { GeneralizedColumn } from './hierarchy.js';
import { sortByCode } from '../table/rows-by-code.js';
import { classesOf } from './classes.js';

/**
 * Relative error of COUNT(*) WHERE A_1=a_1 ∧ … ∧ A_d=a_d (d ∈ {1,2,3}, answer
 * ≥ 0.1% of |D|) answered from generalized, sampled records: each released
 * record counts Π_j 1/|values its generalization covers| when it can match,
 * scaled by 1/β (uniform spread within a generalized value).
 */
export function generalizedQueryError(
  source: RandomSource,
  original: readonly Column[],
  generalized: readonly GeneralizedColumn[],
  released: Uint32Array,
  sampling: number,
  options: { size: number; maxAttempts: number },
): { error: number; queries: number } {
  const n = original[0]?.codes.length ?? 0;
  const minAnswer = Math.max(1, Math.ceil(0.001 * n));
  // Per column: original code → generalized code, how many original values share it, and the rows of each value.
  const maps = original.map((c, j) => {
    const g = generalized[j]!;
    const toGeneral = new Uint32Array(c.dictionary.length);
    for (let r = 0; r < c.codes.length; r++) toGeneral[c.codes[r]!] = g.codes[r]!;
    const share = new Float64Array(g.dictionary.length);
    for (let code = 1; code < c.dictionary.length; code++) share[toGeneral[code]!]!++;
    return { toGeneral, share, rows: sortByCode(c.codes, c.dictionary.length) };
  });
  // The release counted once per class of identical generalized records, not per record.
  const { classOf, count: classCount } = classesOf(generalized, released);
  const classSize = new Float64Array(classCount);
  const classCodes = generalized.map(() => new Uint32Array(classCount));
  for (let i = 0; i < released.length; i++) {
    const c = classOf[i]!;
    if (classSize[c]!++ === 0) generalized.forEach((g, j) => (classCodes[j]![c] = g.codes[released[i]!]!));
  }
  let total = 0;
  let kept = 0;
  for (let attempt = 0; attempt < options.maxAttempts && kept < options.size; attempt++) {
    const d = 1 + uniformInt(source, Math.min(3, original.length));
    const pool = original.map((_, j) => j);
    const attrs: number[] = [];
    for (let i = 0; i < d; i++) attrs.push(pool.splice(uniformInt(source, pool.length), 1)[0]!);
    const values = attrs.map((j) => 1 + uniformInt(source, Math.max(1, original[j]!.distinct)));
    // The true answer from the shortest list of rows holding one of the values; too short a list settles it.
    let shortest = 0;
    const lengths = attrs.map((j, i) => maps[j]!.rows.start[values[i]! + 1]! - maps[j]!.rows.start[values[i]!]!);
    for (let i = 1; i < d; i++) if (lengths[i]! < lengths[shortest]!) shortest = i;
    if (lengths[shortest]! < minAnswer) continue;
    const list = maps[attrs[shortest]!]!.rows;
    let answer = 0;
    rows: for (let at = list.start[values[shortest]!]!; at < list.start[values[shortest]! + 1]!; at++) {
      const r = list.order[at]!;
      for (let i = 0; i < d; i++) if (original[attrs[i]!]!.codes[r] !== values[i]) continue rows;
      answer++;
    }
    if (answer < minAnswer) continue;
    let estimate = 0;
    const targets = attrs.map((j, i) => maps[j]!.toGeneral[values[i]!]!);
    const weights = attrs.map((j, i) => 1 / maps[j]!.share[targets[i]!]!);
    classes: for (let c = 0; c < classCount; c++) {
      let w = classSize[c]!;
      for (let i = 0; i < d; i++) {
        if (classCodes[attrs[i]!]![c] !== targets[i]) continue classes;
        w *= weights[i]!;
      }
      estimate += w;
    }
    total += Math.abs(estimate / sampling - answer) / answer;
    kept++;
  }
  return { error: kept === 0 ? Number.NaN : total / kept, queries: kept };
}

/** Mean generalization loss of the released cells (0 = as collected, 1 = fully suppressed to "*"). */
export function generalizationLoss(generalized: readonly GeneralizedColumn[], released: Uint32Array): number {
  if (released.length === 0 || generalized.length === 0) return 1;
  let sum = 0;
  for (const g of generalized) for (const r of released) sum += g.loss[g.codes[r]!]!;
  return sum / (released.length * generalized.length);
}
