import { resolve } from 'node:path';
import { smallestK } from '../src/common/dp/sampling-amplification.js';
import { generalizeColumn, tableHierarchy, type GeneralizedColumn } from '../src/common/recoding/hierarchy.js';
import { DEFAULT_LOSS_WEIGHT, scoreRule } from '../src/mechanisms/safe-k-anonymity/lattice-score.js';
import { latticeColumn, latticeSize } from '../src/mechanisms/safe-k-anonymity/lattice.js';
import { chooseGeneralization } from '../src/mechanisms/safe-k-anonymity/lattice-search.js';
import { generalizationLoss } from '../src/common/recoding/query-error.js';
import { anonymizeSample, bernoulliSample } from '../src/common/recoding/classes.js';
import type { RandomSource } from '../src/common/random/source.js';
import { rationalFromNumber } from '../src/common/exact/rational.js';
import { readHierarchyRows } from '../src/io/input/hierarchy-reader.js';
import { readTable } from '../src/io/input/read-table.js';
import { safePubSearch } from './safepub-baseline.js';
import { mean, median } from './summary.js';

/**
 * `levels: "search"` against SafePub on Adult (all 9 columns, ARX's hierarchies),
 * at ARX's setting for ε = 1, δ = 1e-5: ε_search = 0.1, β = 1 − e^−0.9 (ARX
 * samples at the largest β ε allows), k the smallest k for δ. Both searches run
 * on the same sample in each round; what they release is measured the same way.
 */
export interface SearchComparison {
  readonly k: number;
  readonly beta: number;
  readonly nodes: number;
  readonly columns: number;
  readonly rounds: number;
  /** Reading the hierarchies and generalizing every column at every level, once. */
  readonly prepareMs: number;
  readonly rows: readonly { readonly name: string; readonly ms: number[]; readonly released: number[]; readonly loss: number[]; readonly scored?: number[] }[];
}

/** `released`: the columns published (and so searched): all 9, or the 8 the issue names as ARX's quasi-identifiers. */
export function compareSearches(random: RandomSource, rounds: number, released: 'all' | 'without salary-class'): SearchComparison {
  const dir = resolve('resources/adult');
  const { table } = readTable(resolve(dir, 'adult.csv'), { missing: [''], onBadRow: 'error' });
  const t0 = performance.now();
  const columns = table.columns.filter((c) => released === 'all' || c.name !== 'salary-class');
  const hierarchies = columns.map((c) => tableHierarchy(readHierarchyRows(resolve(dir, `adult_hierarchy_${c.name}.csv`))));
  // Measured with the report's loss; the search scores with the hierarchy-only loss, as the product does.
  const lattice: { levels: GeneralizedColumn[] }[] = columns.map((c, j) => ({ levels: Array.from({ length: hierarchies[j]!.depth }, (_, l) => generalizeColumn(c, hierarchies[j], l)) }));
  const scoring = columns.map((c, j) => latticeColumn(c, hierarchies[j]));
  const prepareMs = performance.now() - t0;
  const epsilonSearch = 0.1;
  const epsilon = 1 - epsilonSearch;
  const beta = Math.floor((1 - Math.exp(-epsilon)) * 1e6) / 1e6;
  const k = smallestK(beta, epsilon, 1e-5)!;
  const custos = [DEFAULT_LOSS_WEIGHT, 0.5, 1].map((lossWeight) => ({
    lossWeight,
    name: `Custos lattice search (λ = ${lossWeight}${lossWeight === DEFAULT_LOSS_WEIGHT ? ', default' : lossWeight === 1 ? ", SafePub's objective" : ''})`,
    ms: [] as number[],
    released: [] as number[],
    loss: [] as number[],
    scored: [] as number[],
  }));
  const safePub = { name: 'SafePub walk, 100 steps (re-implemented)', ms: [] as number[], released: [] as number[], loss: [] as number[] };
  const measure = (row: { ms: number[]; released: number[]; loss: number[] }, sample: Uint32Array, ms: number, node: readonly number[]): void => {
    const generalized = lattice.map((c, j) => c.levels[node[j]!]!);
    const census = anonymizeSample(random, generalized, sample, k);
    row.ms.push(ms);
    row.released.push(census.rows.length);
    row.loss.push(generalizationLoss(generalized, census.rows));
  };
  for (let round = 0; round < rounds; round++) {
    const sample = bernoulliSample(random, table.rowCount, rationalFromNumber(beta));
    for (const row of custos) {
      const t0 = performance.now();
      const choice = chooseGeneralization(random, scoreRule(k, lattice.length, sample.length, { lossWeight: row.lossWeight }), scoring, sample, epsilonSearch);
      measure(row, sample, performance.now() - t0, choice.node);
      row.scored.push(choice.scored);
    }
    const t0 = performance.now();
    const node = safePubSearch(random, lattice, sample, k, epsilonSearch, 100);
    measure(safePub, sample, performance.now() - t0, node);
  }
  return { k, beta, nodes: latticeSize(lattice), columns: lattice.length, rounds, prepareMs, rows: [...custos, safePub] };
}

export function formatComparison(c: SearchComparison): string[] {
  const lines = [
    `Search on Adult (30,162 rows, ${c.columns} columns released, ${c.nodes.toLocaleString('en-US')} lattice nodes), ε = 1 (ε_search 0.1), δ = 1e-5, β = ${c.beta}, k = ${c.k}; ${c.rounds} rounds, each on a fresh sample shared by all rows:`,
    '',
    '| search | best ms | median ms | released records, median [min–max] | mean | generalization loss, median | mean | nodes scored, median |',
    '|---|---:|---:|---|---:|---:|---:|---:|',
  ];
  for (const r of c.rows) {
    lines.push(
      `| ${r.name} | ${Math.min(...r.ms).toFixed(0)} | ${median(r.ms).toFixed(0)} | ${median(r.released).toLocaleString('en-US')} [${Math.min(...r.released).toLocaleString('en-US')}–${Math.max(...r.released).toLocaleString('en-US')}] | ${Math.round(mean(r.released)).toLocaleString('en-US')} | ${median(r.loss).toFixed(3)} | ${mean(r.loss).toFixed(3)} | ${r.scored ? median(r.scored).toLocaleString('en-US') : '—'} |`,
    );
  }
  lines.push('| ARX 3.9.2 SafePub on this machine (from the issue) | 334 | | 13,962–16,020 | | | | |');
  lines.push('', `Reading the hierarchies and generalizing every column at every level (once, before the rounds): ${c.prepareMs.toFixed(0)} ms.`);
  return lines;
}
