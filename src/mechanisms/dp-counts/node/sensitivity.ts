import type { CountQuerySpec } from '../count-queries.js';

/**
 * Every kind of record the queries can tell apart: per queried column, each
 * value some query names, or one value none names (all of which match alike).
 * It depends on the queries alone, never on the data. Undefined above `limit`.
 */
export function possibleRecords(queries: readonly CountQuerySpec[], limit: number): { queried: number[]; each(visit: (tuple: readonly number[]) => void): void } | undefined {
  const queried = [...new Set(queries.flatMap((q) => [...q.where.keys()]))].sort((a, b) => a - b);
  const UNNAMED = -1;
  const candidates = queried.map((c) => [...new Set(queries.flatMap((q) => (q.where.has(c) ? [q.where.get(c)!] : [])))].concat(UNNAMED));
  const product = candidates.reduce((a, values) => a * values.length, 1);
  if (product > limit) return undefined;
  return {
    queried,
    each(visit) {
      const tuple = new Array<number>(queried.length);
      for (let i = 0; i < product; i++) {
        let rest = i;
        for (let j = 0; j < queried.length; j++) {
          tuple[j] = candidates[j]![rest % candidates[j]!.length]!;
          rest = Math.floor(rest / candidates[j]!.length);
        }
        visit(tuple);
      }
    },
  };
}

/**
 * The most queries one possible record can match (the L1 sensitivity of
 * explicit queries under add/remove neighbours). Per queried column a record
 * either holds a value some query names or one no query names (all of which
 * match alike), so it is enough to try those: the search depends on the queries
 * alone, never on the data. Undefined when there are too many combinations.
 */
export function maxMatches(queries: readonly CountQuerySpec[]): number | undefined {
  const records = possibleRecords(queries, 2_000_000);
  if (!records) return undefined;
  const { queried } = records;
  const shapes = new Map<string, { columns: number[]; counts: Map<string, number> }>();
  for (const q of queries) {
    const columns = [...q.where.keys()].sort((a, b) => a - b);
    const id = columns.join(',');
    let shape = shapes.get(id);
    if (!shape) shapes.set(id, (shape = { columns, counts: new Map() }));
    const key = columns.map((c) => q.where.get(c)).join(',');
    shape.counts.set(key, (shape.counts.get(key) ?? 0) + 1);
  }
  let best = 0;
  records.each((tuple) => {
    let matched = 0;
    for (const shape of shapes.values()) matched += shape.counts.get(shape.columns.map((c) => tuple[queried.indexOf(c)]).join(',')) ?? 0;
    if (matched > best) best = matched;
  });
  return Math.max(1, best);
}
