import type { Column } from '../../common/table/table.js';
import { tupleIds } from '../../common/table/tuple-ids.js';

/** A count query: the rows where every listed column has the given code. */
export interface CountQuerySpec {
  /** Column index → dictionary code. */
  readonly where: ReadonlyMap<number, number>;
}

/**
 * Every 1- and 2-way marginal over the columns: one query per cell (including
 * empty cells), the cells of a column being the codes `cells` lists for it.
 */
export function marginalQueries(columns: readonly number[], cells: (column: number) => readonly number[]): { queries: CountQuerySpec[]; marginalOf: number[]; marginals: number } {
  const queries: CountQuerySpec[] = [];
  const marginalOf: number[] = [];
  let marginal = 0;
  for (const a of columns) {
    for (const code of cells(a)) {
      queries.push({ where: new Map([[a, code]]) });
      marginalOf.push(marginal);
    }
    marginal++;
  }
  for (let i = 0; i < columns.length; i++) {
    for (let j = i + 1; j < columns.length; j++) {
      const a = columns[i]!;
      const b = columns[j]!;
      for (const x of cells(a)) {
        for (const y of cells(b)) {
          queries.push({ where: new Map([[a, x], [b, y]]) });
          marginalOf.push(marginal);
        }
      }
      marginal++;
    }
  }
  return { queries, marginalOf, marginals: marginal };
}

/**
 * The largest dense table of counts a count pass fills (cells of the product of the
 * dictionaries): 4 Mi cells of 4 bytes. Above it a shape is counted by renumbering its tuples.
 */
export const DENSE_CELLS = 1 << 22;

/**
 * True answers of many queries. Each query's shape (the set of columns it restricts) is a
 * marginal; every row is counted once, by its dictionary codes, into a dense table over the
 * union of the shapes' columns when that table is small enough (all the marginals then follow by
 * summing its cells, with no further pass over the rows), else into one dense table per shape,
 * else (a shape whose dictionaries multiply past DENSE_CELLS) by renumbering its code tuples.
 * A query naming a code its column's dictionary does not have counts no row: 0.
 */
export function answerQueries(queries: readonly CountQuerySpec[], tableColumns: readonly Column[], rows: Uint32Array | null, rowCount: number, denseCells = DENSE_CELLS): Float64Array {
  const answers = new Float64Array(queries.length);
  const byShape = new Map<string, { readonly cols: readonly number[]; readonly members: number[] }>();
  queries.forEach((q, i) => {
    const cols = [...q.where.keys()].sort((a, b) => a - b);
    const shape = cols.join(',');
    let entry = byShape.get(shape);
    if (!entry) byShape.set(shape, (entry = { cols, members: [] }));
    entry.members.push(i);
  });
  const n = rows ? rows.length : rowCount;
  const cardinality = (c: number): number => tableColumns[c]!.dictionary.length;
  const cellsOf = (cols: readonly number[]): number => cols.reduce((p, c) => p * cardinality(c), 1);
  const union = [...new Set([...byShape.values()].flatMap((s) => s.cols))].sort((a, b) => a - b);
  const finest = cellsOf(union) <= denseCells ? countCells(union, tableColumns, rows, n) : undefined;
  for (const { cols, members } of byShape.values()) {
    if (finest || cellsOf(cols) <= denseCells) {
      const counts = finest ? marginalOf(finest, union, cols, cardinality) : countCells(cols, tableColumns, rows, n);
      for (const i of members) answers[i] = counts[cellIndex(queries[i]!, cols, cardinality)] ?? 0;
    } else answerByRenumbering(queries, members, cols, tableColumns, rows, n, answers);
  }
  return answers;
}

/** The cell of a query in a dense table over `cols` (first column varying slowest); -1 when a code is outside its dictionary. */
function cellIndex(query: CountQuerySpec, cols: readonly number[], cardinality: (c: number) => number): number {
  let cell = 0;
  for (const c of cols) {
    const code = query.where.get(c)!;
    const base = cardinality(c);
    if (!(code >= 0 && code < base)) return -1;
    cell = cell * base + code;
  }
  return cell;
}

/** One pass over the rows: the count of every combination of the columns' codes, in a dense table. */
function countCells(cols: readonly number[], tableColumns: readonly Column[], rows: Uint32Array | null, n: number): Uint32Array {
  const counts = new Uint32Array(cols.reduce((p, c) => p * tableColumns[c]!.dictionary.length, 1));
  if (cols.length === 0) {
    counts[0] = n;
    return counts;
  }
  const cells = new Uint32Array(n);
  for (const c of cols) {
    const { codes, dictionary } = tableColumns[c]!;
    const base = dictionary.length;
    if (rows) for (let k = 0; k < n; k++) cells[k] = cells[k]! * base + codes[rows[k]!]!;
    else for (let k = 0; k < n; k++) cells[k] = cells[k]! * base + codes[k]!;
  }
  for (let k = 0; k < n; k++) counts[cells[k]!]!++;
  return counts;
}

/** The counts over `cols` (a subset of `union`), summed from the dense table over `union`. */
function marginalOf(finest: Uint32Array, union: readonly number[], cols: readonly number[], cardinality: (c: number) => number): Uint32Array {
  const out = new Uint32Array(cols.reduce((p, c) => p * cardinality(c), 1));
  if (cols.length === union.length) {
    out.set(finest);
    return out;
  }
  // Each cell of the finest table adds to the cell of `out` its codes on `cols` name.
  const weight = union.map(() => 0);
  let w = 1;
  for (let j = cols.length - 1; j >= 0; j--) {
    weight[union.indexOf(cols[j]!)] = w;
    w *= cardinality(cols[j]!);
  }
  const target = new Uint32Array(finest.length);
  let span = 1;
  for (let u = union.length - 1; u >= 0; u--) {
    const base = cardinality(union[u]!);
    const add = weight[u]!;
    if (add > 0) for (let f = 0; f < finest.length; f++) target[f]! += (Math.floor(f / span) % base) * add;
    span *= base;
  }
  for (let f = 0; f < finest.length; f++) out[target[f]!]! += finest[f]!;
  return out;
}

/** A shape too wide for a dense table: its rows' code tuples renumbered, the queries' tuples after them so one renumbering gives both the same ids. */
function answerByRenumbering(queries: readonly CountQuerySpec[], all: readonly number[], cols: readonly number[], tableColumns: readonly Column[], rows: Uint32Array | null, n: number, answers: Float64Array): void {
  // A code outside its dictionary would alias another tuple's mixed-radix key: such a query counts no row.
  const members = all.filter((i) => cols.every((c) => { const code = queries[i]!.where.get(c)!; return code >= 0 && code < tableColumns[c]!.dictionary.length; }));
  for (const i of all) answers[i] = 0;
  const key = cols.map((c) => {
    const column = tableColumns[c]!;
    const codes = new Uint32Array(n + members.length);
    for (let k = 0; k < n; k++) codes[k] = column.codes[rows ? rows[k]! : k]!;
    members.forEach((i, j) => (codes[n + j] = queries[i]!.where.get(c)!));
    return { codes, cardinality: column.dictionary.length };
  });
  const { ids, count } = tupleIds(key, null, n + members.length);
  const counts = new Float64Array(count);
  for (let k = 0; k < n; k++) counts[ids[k]!]!++;
  members.forEach((i, j) => (answers[i] = counts[ids[n + j]!]!));
}
