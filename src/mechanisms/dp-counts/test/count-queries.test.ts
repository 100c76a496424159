import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerQueries, type CountQuerySpec } from '../count-queries.js';
import { tableFromRows } from '../../../common/table/table.js';

describe('true answers of count queries', () => {
  it('equal a scan of the rows, for any mix of shapes, subsets of rows and values no row holds (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.constantFrom('x', 'y'), fc.constantFrom('1', '2', '3', '4')), { minLength: 1, maxLength: 60 }),
        fc.array(fc.dictionary(fc.constantFrom('0', '1', '2'), fc.integer({ min: 0, max: 5 }), { maxKeys: 3 }), { minLength: 1, maxLength: 15 }),
        fc.boolean(),
        // The dense-table limit: past every table (one pass, marginals summed), between (a pass per shape), below all (renumbering).
        fc.constantFrom(undefined, 30, 1),
        (data, wheres, subset, denseCells) => {
          const table = tableFromRows(['p', 'q', 'r'], data.map((row) => [...row]));
          // Codes beyond a column's dictionary stand for values no row holds; widen the dictionaries to cover them.
          const columns = table.columns.map((c) => ({ ...c, dictionary: [...c.dictionary, ...Array.from({ length: 6 }, (_, i) => `absent${i}`)] }));
          const queries: CountQuerySpec[] = wheres.map((w) => ({ where: new Map(Object.entries(w).map(([c, v]) => [Number(c), v])) }));
          const rows = subset ? Uint32Array.from({ length: table.rowCount }, (_, i) => i).filter((i) => i % 2 === 0) : null;
          const answers = answerQueries(queries, columns, rows, table.rowCount, denseCells);
          const scanned = rows ?? Uint32Array.from({ length: table.rowCount }, (_, i) => i);
          queries.forEach((q, i) => {
            const expected = [...scanned].filter((r) => [...q.where].every(([c, v]) => columns[c]!.codes[r] === v)).length;
            expect(answers[i]).toBe(expected);
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('count no row for a code outside its dictionary, whichever way a shape is counted', () => {
    const table = tableFromRows(['p', 'q'], [['a', 'x'], ['b', 'y'], ['a', 'y'], ['b', '']]);
    // q has codes 0..2: code 3 is one past its dictionary, which a mixed-radix key aliases to (p + 1, q missing), a row the table has.
    const queries: CountQuerySpec[] = [{ where: new Map([[0, 1], [1, 3]]) }, { where: new Map([[1, -1]]) }, { where: new Map([[0, 1], [1, 2]]) }];
    for (const denseCells of [undefined, 1]) expect([...answerQueries(queries, table.columns, null, table.rowCount, denseCells)]).toEqual([0, 0, 1]);
  });
});
