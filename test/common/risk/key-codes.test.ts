import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { classIds, classIdsOnAll, encodeKeys, type KeyValue } from '../../../src/common/risk/key-codes.js';

describe('class ids', () => {
  test('equal ids exactly when the values are equal on the listed attributes, dense from 0', () => {
    // Wide domains (up to 1,000 values) on up to 300 records reach the counting-sort path.
    const tables = fc
      .record({ m: fc.integer({ min: 1, max: 4 }), n: fc.integer({ min: 0, max: 300 }), domain: fc.integer({ min: 1, max: 1000 }) })
      .chain(({ m, n, domain }) =>
        fc.record({
          rows: fc.array(fc.array(fc.oneof(fc.integer({ min: 0, max: domain - 1 }), fc.constant(null), fc.constant('0')), { minLength: m, maxLength: m }), { minLength: n, maxLength: n }),
          attributes: fc.subarray([...Array(m).keys()]),
        }),
      );
    fc.assert(
      fc.property(tables, ({ rows, attributes }) => {
        const { ids, classes } = classIds(encodeKeys(rows as KeyValue[][]), attributes);
        const reference = new Map<string, number>();
        rows.forEach((row, r) => {
          const key = JSON.stringify(attributes.map((a) => row[a]));
          const seen = reference.get(key);
          if (seen === undefined) reference.set(key, ids[r]!);
          else expect(ids[r]).toBe(seen);
        });
        expect(classes).toBe(reference.size);
        expect(new Set(ids).size).toBe(classes);
        ids.forEach((id) => expect(id).toBeLessThan(classes));
        // Numbered by first record, as tupleIds numbers tuples: each new class takes the next id.
        let next = 0;
        ids.forEach((id) => {
          if (id === next) next++;
          else expect(id).toBeLessThan(next);
        });
      }),
      { seed: 4, numRuns: 200 },
    );
  });

  test('rows of different lengths are refused with the record named', () => {
    expect(() => encodeKeys([['a', 'b'], ['a']])).toThrow(/record 2 has 1 key values, the first has 2/);
  });
});

describe('classIdsOnAll', () => {
  test('is classIds on every attribute, computed once per keys and shared by its callers', () => {
    const keys = encodeKeys([['a', 1], ['b', 1], ['a', 1], ['a', 2], [null, 2]]);
    const first = classIdsOnAll(keys);
    const fresh = classIds(keys, [0, 1]);
    expect(Array.from(first.ids)).toEqual(Array.from(fresh.ids));
    expect(first.classes).toBe(fresh.classes);
    expect(classIdsOnAll(keys)).toBe(first);
    // Other keys (even of equal values) have their own classes.
    expect(classIdsOnAll(encodeKeys([['a', 1], ['b', 1], ['a', 1], ['a', 2], [null, 2]]))).not.toBe(first);
  });
});
