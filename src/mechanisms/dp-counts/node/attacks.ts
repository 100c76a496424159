import type { RandomSource } from '../../../common/random/source.js';
import type { DpReport } from '../../../common/report/report-model.js';
import type { Table } from '../../../common/table/table.js';
import type { Plan } from '../../../jobs/method-kit/plan.js';
import { autocovariance, filteringAttack } from '../filtering-attack.js';
import { iidLaplaceNoise } from '../glm.js';
import { differentialInference } from '../inference-attack.js';
import type { AnswerPlan } from './answers.js';
import type { NoisyAnswers } from './noise.js';

/** The relative error within which the differential-inference adversary counts an estimate as a hit. */
export const ATTACK_EPSILON = 0.2;

type Filtering = NonNullable<DpReport['filtering']>[number];
type Inference = NonNullable<DpReport['inference']>[number];

/**
 * The filtering attack on each series of part 0 (up to 12): how much of the
 * noise a Wiener smoother removes from independent Laplace noise of the same
 * scale, and from this release's noise.
 */
export function filteringAttacks(random: RandomSource, answers: AnswerPlan, truth: Float64Array, noisy: NoisyAnswers, b: number): Filtering[] {
  const filtering: Filtering[] = [];
  const bySeries = new Map<string, number[]>();
  answers.unique.forEach((a, i) => {
    if (a.part !== 0 || a.series === undefined) return;
    const list = bySeries.get(a.series) ?? [];
    list.push(i);
    bySeries.set(a.series, list);
  });
  for (const [name, indexes] of [...bySeries].slice(0, 12)) {
    if (indexes.length < 7) continue;
    const x = indexes.map((i) => truth[i]!);
    const y = indexes.map((i) => noisy.released[i]!);
    const rx = autocovariance(x);
    const k = Math.min(10, Math.floor((indexes.length - 1) / 2) - 1);
    const iid = iidLaplaceNoise(random, x.length, b);
    const gainIid = filteringAttack(x, x.map((v, t) => v + iid[t]!), rx, (lag) => (lag === 0 ? 2 * b * b : 0), k);
    const rn = (lag: number): number => (noisy.correlated && noisy.model.kind === 'ar1' ? 2 * b * b * noisy.rho ** lag : lag === 0 ? 2 * b * b : 0);
    const own = filteringAttack(x, y, rx, rn, k);
    filtering.push({ series: name, length: x.length, halfWidth: k, gainIid: gainIid.gain, gainRelease: own.gain, removalIid: gainIid.noiseRemoval, removalRelease: own.noiseRemoval, mseRaw: own.mseRaw, mseFiltered: own.mseFiltered });
  }
  return filtering;
}

/**
 * The differential-inference attack on the riskiest groups (up to 5 of at
 * least 20 records on the first two quasi-identifiers): dividing the noisy
 * count of the group and its most frequent sensitive value.
 */
export function inferenceAttacks(random: RandomSource, plan: Plan, table: Table, columns: AnswerPlan['columns'], b: number): Inference[] {
  const inference: Inference[] = [];
  const sensitive = plan.sensitive[0];
  if (!sensitive) return inference;
  const sIndex = table.columns.indexOf(sensitive);
  const groupCols = plan.columns.filter((c) => c.role === 'quasi').map((c) => table.columns.indexOf(c.column)).slice(0, 2);
  if (groupCols.length === 0) return inference;
  const counts = new Map<string, { o1: number; byValue: Map<number, number>; label: string }>();
  for (let r = 0; r < table.rowCount; r++) {
    const key = groupCols.map((c) => columns[c]!.codes[r]).join(',');
    let e = counts.get(key);
    if (!e) counts.set(key, (e = { o1: 0, byValue: new Map(), label: groupCols.map((c) => `${columns[c]!.name}=${columns[c]!.dictionary[columns[c]!.codes[r]!]}`).join(' ∧ ') }));
    e.o1++;
    const v = columns[sIndex]!.codes[r]!;
    e.byValue.set(v, (e.byValue.get(v) ?? 0) + 1);
  }
  const risky = [...counts.values()]
    .filter((e) => e.o1 >= 20)
    .map((e) => {
      const [value, o2] = [...e.byValue].reduce((best, cur) => (cur[1] > best[1] ? cur : best));
      return { ...e, value, o2 };
    })
    .sort((x, y) => y.o2 / y.o1 - x.o2 / x.o1)
    .slice(0, 5);
  for (const g of risky) {
    const risk = differentialInference(random, g.o1, g.o2, b, ATTACK_EPSILON, 20_000);
    inference.push({ group: g.label, value: columns[sIndex]!.dictionary[g.value]!, ...risk, attackEpsilon: ATTACK_EPSILON });
  }
  return inference;
}
