import type { RandomSource } from '../../../common/random/source.js';
import { independentParts } from '../../../common/recoding/partitioned.js';
import type { Column } from '../../../common/table/table.js';
import type { ResolvedDomain } from '../../../jobs/method-kit/domains.js';
import { JobError } from '../../../common/job/job-error.js';
import type { Plan } from '../../../jobs/method-kit/plan.js';
import { answerQueries, marginalQueries, type CountQuerySpec } from '../count-queries.js';
import type { DpCountsSpec } from '../definition.js';
import { columnIndex, publicColumns, type PublicColumns } from './public-columns.js';
import { maxMatches } from './sensitivity.js';

/** One released count: its query, its label, its series and its part. */
export interface Answered {
  readonly query: CountQuerySpec;
  readonly label: string;
  /** Series position and name, when the job asks for series. */
  readonly series?: string;
  readonly part: number;
}

/** The counts a job asks for, expanded over series and parts, with repeats answered once. */
export interface AnswerPlan {
  readonly known: PublicColumns;
  readonly columns: readonly Column[];
  /** Every released count, in release order. */
  readonly answered: readonly Answered[];
  /** answered[i] is answered by unique[slot[i]]: an identical query gets the same noisy answer. */
  readonly slot: readonly number[];
  readonly unique: readonly Answered[];
  /** The rows of each part (null: the whole table). */
  readonly partRows: readonly (Uint32Array | null)[];
  readonly marginals: number;
  readonly seriesColumn?: number;
  readonly groupColumn?: number;
}

/**
 * The queries of the job: marginals over the chosen columns or the explicit
 * list, expanded over the series column and the parts. Parts assign every
 * record independently, so one record added or removed changes one part only
 * (parallel composition under add/remove neighbours, the neighbours of Δ).
 */
export function planAnswers(
  spec: DpCountsSpec,
  plan: Plan,
  table: { readonly columns: readonly Column[]; readonly rowCount: number },
  random: RandomSource,
  domains: { readonly resolved: ReadonlyMap<string, ResolvedDomain>; readonly inputPath: string },
): AnswerPlan {
  const known = publicColumns(table.columns, spec, domains.resolved, domains.inputPath);
  const cols = known.columns;
  const forbidden = new Set(plan.columns.filter((c) => c.role === 'identifier').map((c) => c.column.name));
  const check = (name: string, key: string): number => {
    const i = columnIndex(cols, name, key);
    if (forbidden.has(name)) throw new JobError(`"${name}" is an identifier and is never queried`, key);
    return i;
  };
  let base: CountQuerySpec[];
  let marginals = 0;
  if (spec.queries === 'marginals') {
    const indexes = spec.columns!.map((name, i) => check(name, `method.columns[${i}]`));
    const m = marginalQueries(indexes, known.cells);
    base = m.queries;
    marginals = m.marginals;
  } else {
    base = spec.queries.map((q, i) => {
      const where = new Map<number, number>();
      for (const [name, value] of Object.entries(q.where)) {
        const c = check(name, `method.queries[${i}].where.${name}`);
        where.set(c, cols[c]!.dictionary.indexOf(value));
      }
      return { where };
    });
  }
  const seriesColumn = spec.series ? check(spec.series.by, 'method.series.by') : undefined;
  const groupColumn = spec.correlation && 'groupBy' in spec.correlation ? check(spec.correlation.groupBy, 'method.correlation.groupBy') : undefined;
  const partRows: (Uint32Array | null)[] = spec.parts > 1 ? independentParts(random, table.rowCount, spec.parts) : [null];
  const answered: Answered[] = [];
  const label = (q: CountQuerySpec): string => [...q.where].map(([c, code]) => `${cols[c]!.name}=${cols[c]!.dictionary[code]}`).join(' ∧ ') || 'all records';
  const seriesCells = seriesColumn === undefined ? [] : known.cells(seriesColumn);
  partRows.forEach((_, p) => {
    for (const q of base) {
      const name = label(q);
      if (seriesColumn === undefined) answered.push({ query: q, label: name, part: p });
      else
        for (const code of seriesCells) {
          const where = new Map(q.where);
          where.set(seriesColumn, code);
          answered.push({ query: { where }, label: name, series: name, part: p });
        }
    }
  });
  const keyOf = (a: Answered): string => `${a.part}|${[...a.query.where].sort((x, y) => x[0] - y[0]).map(([c, v]) => `${c}:${v}`).join(',')}`;
  const distinct = new Map<string, number>();
  const slot = answered.map((a) => {
    const k = keyOf(a);
    let i = distinct.get(k);
    if (i === undefined) distinct.set(k, (i = distinct.size));
    return i;
  });
  const unique: Answered[] = [];
  answered.forEach((a, i) => (unique[slot[i]!] ??= a));
  return { known, columns: cols, answered, slot, unique, partRows, marginals, ...(seriesColumn !== undefined ? { seriesColumn } : {}), ...(groupColumn !== undefined ? { groupColumn } : {}) };
}

/** Δ under add/remove neighbours: one cell per marginal, or the most distinct explicit queries one record can match. */
export function sensitivityOf(spec: DpCountsSpec, answers: AnswerPlan): { readonly sensitivity: number; readonly rule: string; readonly perPart: number } {
  const partZero = answers.unique.filter((a) => a.part === 0);
  const perPart = partZero.length;
  if (perPart === 0) throw new JobError('no query to answer', 'method.queries');
  if (spec.queries === 'marginals') {
    const m = answers.marginals;
    return { sensitivity: m, perPart, rule: `${m} marginal table(s); one record falls in exactly one cell of each, so Δ = ${m} (ε split equally over the marginals)` };
  }
  const exact = maxMatches(partZero.map((a) => a.query));
  return exact !== undefined
    ? { sensitivity: exact, perPart, rule: `${perPart} distinct count queries; over every possible record (each queried column holding a value some query names or any other value; the data play no part) at most ${exact} of them can match one record, so Δ = ${exact}` }
    : { sensitivity: perPart, perPart, rule: `${perPart} distinct count queries; one record may match all of them, so Δ = ${perPart} (sequential composition)` };
}

/** The true count of every distinct query, part by part. A value absent from the data has a code no row carries: its count is 0. */
export function trueAnswers(answers: AnswerPlan, rowCount: number): Float64Array {
  const truth = new Float64Array(answers.unique.length);
  answers.partRows.forEach((rows, p) => {
    const indexes = answers.unique.map((a, i) => (a.part === p ? i : -1)).filter((i) => i >= 0);
    const values = answerQueries(indexes.map((i) => answers.unique[i]!.query), answers.columns, rows, rowCount);
    indexes.forEach((i, j) => (truth[i] = values[j]!));
  });
  return truth;
}
