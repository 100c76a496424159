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

/** True answers of many queries in one pass per marginal shape (rows counted by their code tuple). */
export function answerQueries(queries: readonly CountQuerySpec[], tableColumns: readonly Column[], rows: Uint32Array | null, rowCount: number): Float64Array {
  const answers = new Float64Array(queries.length);
  const byShape = new Map<string, number[]>();
  queries.forEach((q, i) => {
    const shape = [...q.where.keys()].sort((a, b) => a - b).join(',');
    let list = byShape.get(shape);
    if (!list) byShape.set(shape, (list = []));
    list.push(i);
  });
  const n = rows ? rows.length : rowCount;
  for (const [shape, members] of byShape) {
    const cols = shape === '' ? [] : shape.split(',').map(Number);
    // The queries' code tuples go after the rows', so one renumbering gives both the same ids.
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
  return answers;
}
