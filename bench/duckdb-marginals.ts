/**
 * dp-counts' exact counts from DuckDB (issue 37 item 5), for bench/duckdb-counts.ts and its test.
 * The counting stage of dp-counts is a group-by: every count set a job asks for (each column alone
 * and each pair, for marginals; the columns a query names, for explicit queries) is one grouping set
 * of a single `GROUP BY GROUPING SETS` over the finest cells of `read_csv`, one pass over the
 * file. The counts are keyed by value text and mapped onto Custos's distinct queries
 * (`AnswerPlan.unique`); the noise is then drawn by Custos's own `runDpCounts` (its `exactCounts` parameter), from Custos's random source in
 * Custos's query order, so a seeded release from DuckDB's counts is the release `custos run` writes.
 * Bench code only: the product never imports DuckDB (the layering rule refuses it in src/).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { resolve } from 'node:path';
import type { JobWith } from '../src/common/job/job-parts.js';
import { SeededTestRandomSource } from '../src/common/random/source.js';
import type { ImportedTable } from '../src/io/input/import-types.js';
import { readTable } from '../src/io/input/read-table.js';
import { writeCsv } from '../src/io/output/csv-writer.js';
import { compactReleaseTable, type CompactTable } from '../src/io/output/release-table.js';
import { stamped } from '../src/jobs/method-kit/release-view.js';
import type { LoadedJob } from '../src/jobs/load-job.js';
import { prepareInput } from '../src/jobs/prepare-input.js';
import type { DpCountsSpec } from '../src/mechanisms/dp-counts/definition.js';
import type { AnswerPlan } from '../src/mechanisms/dp-counts/node/answers.js';
import { runDpCounts, type ExactCounts } from '../src/mechanisms/dp-counts/node/run.js';

/** Exact counts keyed by cell: the grouping sets counted, and each non-empty cell's count. */
export interface EngineCounts {
  /** Each counted column set, as `shapeKey` writes it. */
  readonly shapes: ReadonlySet<string>;
  /** `cellKey` of a cell (column name → value text) → its count. A cell absent here counted no row. */
  readonly cells: ReadonlyMap<string, number>;
}

/** A column set, independent of order. */
export const shapeKey = (columns: readonly string[]): string => JSON.stringify([...columns].sort());
/** A cell: its columns' values, independent of order. */
export const cellKey = (cell: readonly (readonly [string, string])[]): string => JSON.stringify([...cell].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));

export function dpCountsJobOf(loaded: LoadedJob): JobWith<DpCountsSpec> {
  if (loaded.job.method.type !== 'dp-counts') throw new Error(`the job's method is ${loaded.job.method.type}, not dp-counts`);
  return loaded.job as JobWith<DpCountsSpec>;
}

/**
 * The column sets the job's queries restrict, read from the job alone (no pass over the data):
 * marginals' single columns and pairs, or each explicit query's columns; a series column joins
 * every set. Parts (P > 1) are refused: Custos assigns records to parts at random, which a
 * group-by over the file cannot know.
 */
export function countSetsOf(spec: DpCountsSpec): string[][] {
  if (spec.parts > 1) throw new Error(`method.parts is ${spec.parts}: the part of each record is drawn by Custos, not a column DuckDB can group by`);
  let sets: string[][];
  if (spec.queries === 'marginals') {
    const cols = spec.columns!;
    sets = [...cols.map((c) => [c]), ...cols.flatMap((a, i) => cols.slice(i + 1).map((b) => [a, b]))];
  } else sets = spec.queries.map((q) => Object.keys(q.where));
  if (spec.series) sets = sets.map((s) => (s.includes(spec.series!.by) ? s : [...s, spec.series!.by]));
  const unique = new Map(sets.map((s) => [shapeKey(s), s]));
  return [...unique.values()];
}

const identifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * The one statement, one pass over the CSV (read as text, the job's missing codes as NULL): every
 * count set a grouping set. A NULL (missing) value is a value of the finest cells like any other,
 * so each roll-up sums exactly the rows its grouping set counts.
 */
export function groupingSetsSql(csv: { readonly path: string; readonly delimiter?: string; readonly missing: readonly string[] }, sets: readonly (readonly string[])[]): string {
  const columns = [...new Set(sets.flat())];
  const options = [
    `header = true`,
    `all_varchar = true`,
    `quote = '"'`,
    `escape = '"'`,
    ...(csv.delimiter !== undefined ? [`delim = ${literal(csv.delimiter)}`] : []),
    `nullstr = [${csv.missing.map(literal).join(', ')}]`,
  ];
  const from = `read_csv(${literal(csv.path)}, ${options.join(', ')})`;
  if (columns.length === 0) return `SELECT 0 AS g, count(*) AS n FROM ${from}`;
  const list = columns.map(identifier).join(', ');
  const grouping = sets.map((s) => `(${s.map(identifier).join(', ')})`).join(', ');
  // One hash aggregate over the rows (the finest cells: every counted column at once), then the
  // grouping sets rolled up from those few thousand cells; on 1M census rows 0.8 s against 1.2 s
  // for the grouping sets straight over read_csv, which feed every row to each set's aggregate.
  return `WITH finest AS (SELECT ${list}, count(*) AS n FROM ${from} GROUP BY ${list}) SELECT GROUPING(${list}) AS g, ${list}, sum(n) AS n FROM finest GROUP BY GROUPING SETS (${grouping})`;
}

/**
 * The counts of every cell of the job's count sets, by DuckDB: one statement, one pass over the file.
 * A NULL in a grouped column is a missing value (the job's `input.missing`): that cell is no
 * query's (a query names a value), so it is left out, as Custos's count pass leaves out code 0.
 */
export async function duckdbCounts(loaded: LoadedJob, options: { readonly threads?: number } = {}): Promise<EngineCounts & { readonly sql: string }> {
  const job = dpCountsJobOf(loaded);
  const sets = countSetsOf(job.method);
  const columns = [...new Set(sets.flat())];
  const sql = groupingSetsSql({ path: resolve(loaded.baseDir, job.input.path), ...(job.input.delimiter !== undefined ? { delimiter: job.input.delimiter } : {}), missing: job.input.missing }, sets);
  const instance = await DuckDBInstance.create(':memory:', options.threads ? { threads: String(options.threads) } : {});
  const connection = await instance.connect();
  try {
    const rows = (await connection.runAndReadAll(sql)).getRows();
    const cells = new Map<string, number>();
    for (const row of rows) {
      const g = Number(row[0]);
      const n = Number(row[row.length - 1]);
      // GROUPING(c1 … ck): bit k−1−i set when column i is rolled up (not in this row's grouping set).
      const cell: [string, string][] = [];
      let missing = false;
      columns.forEach((name, i) => {
        if ((g >> (columns.length - 1 - i)) & 1) return;
        const value = row[1 + i];
        if (value === null) missing = true;
        else cell.push([name, String(value)]);
      });
      if (!missing) cells.set(cellKey(cell), n);
    }
    return { shapes: new Set(sets.map(shapeKey)), cells, sql };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Each distinct query's count (in `answers.unique` order) from the engine's cells: a cell it did not return counted no row. */
export function countsForPlan(answers: AnswerPlan, counts: EngineCounts): Float64Array {
  if (answers.partRows.length > 1) throw new Error('a plan with parts: the engine counted the whole file');
  return Float64Array.from(answers.unique, (a) => {
    const cell = [...a.query.where].map(([c, code]) => [answers.columns[c]!.name, answers.columns[c]!.dictionary[code]!] as const);
    const shape = shapeKey(cell.map(([name]) => name));
    if (!counts.shapes.has(shape)) throw new Error(`the engine did not count the column set ${shape} (query ${a.label})`);
    return counts.cells.get(cellKey(cell)) ?? 0;
  });
}

/** Where two counts of the same queries differ: each query's label and both counts. */
export function countDifferences(answers: AnswerPlan, custos: Float64Array, engine: Float64Array): { readonly query: string; readonly custos: number; readonly engine: number }[] {
  return answers.unique.flatMap((a, i) => (custos[i] === engine[i] ? [] : [{ query: a.label, custos: custos[i]!, engine: engine[i]! }]));
}

/** The input as `custos run` reads it (runJob's importInput: the reader, then prepareInput). */
export function readJobInput(loaded: LoadedJob): ImportedTable {
  const { job } = loaded;
  const read = readTable(resolve(loaded.baseDir, job.input.path), {
    ...(job.input.delimiter ? { delimiter: job.input.delimiter } : {}),
    ...(job.input.encoding ? { encoding: job.input.encoding } : {}),
    sheet: job.input.sheet ?? null,
    missing: job.input.missing,
    onBadRow: job.input.onBadRow,
  });
  return prepareInput(job, read);
}

/**
 * The answers table a seeded `custos run` releases, made by Custos's own dp-counts run from the
 * given exact counts (default: its count pass): stamped and cut as runJob does before its writers.
 */
export function seededAnswers(loaded: LoadedJob, imported: ImportedTable, seed: number, exactCounts?: ExactCounts): CompactTable {
  const job = dpCountsJobOf(loaded);
  const ctx = { random: new SeededTestRandomSource(seed), mode: 'run' as const, baseDir: loaded.baseDir, progress: () => undefined, settleLater: true };
  const outcome = runDpCounts(job, imported, job.method, ctx, exactCounts);
  return compactReleaseTable(stamped(outcome.releases[0]!.table));
}

/** answers.csv as the run's CSV writer writes it (the job's delimiter and CSV options). */
export function writeAnswersCsv(path: string, loaded: LoadedJob, table: CompactTable): void {
  writeCsv(path, table, { delimiter: loaded.job.output.delimiter, ...loaded.job.output.csv });
}
