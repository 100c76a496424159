import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { generalizeColumn, intervalHierarchy, maskingHierarchy, tableHierarchy, unmappedValues, withMetadataLoss } from '../hierarchy.js';
import { partitionedRecoding } from '../partitioned.js';
import { safeKAnonymize } from '../classes.js';
import { SeededTestRandomSource } from '../../random/source.js';
import { rational } from '../../exact/rational.js';
import { tableFromRows } from '../../table/table.js';
import { readHierarchyRows } from '../../../io/input/hierarchy-reader.js';

const tuples = (cols: { codes: Uint32Array; dictionary: readonly string[] }[], rows: Uint32Array): string[] =>
  [...rows].map((r) => cols.map((c) => c.dictionary[c.codes[r]!]).join('|'));

describe('hierarchies', () => {
  it('imports ARX hierarchies and names values without a path to the root', () => {
    const h = tableHierarchy(readHierarchyRows('resources/adult/adult_hierarchy_education.csv'));
    expect(h.depth).toBe(4);
    expect(h.generalize('Bachelors', 1)).toBe('Undergraduate');
    expect(h.generalize('Bachelors', 3)).toBe('*');
    const table = tableFromRows(['education'], [['Bachelors'], ['Wizardry'], ['11th']]);
    expect(unmappedValues(table.columns[0]!, h)).toEqual(['Wizardry']);
    expect(() => tableHierarchy([['a', 'x'], ['b']])).toThrow(/row 2 has 1 levels/);
  });

  it('builds nested intervals and masks', () => {
    const ages = intervalHierarchy([5, 10, 20]);
    expect([1, 2, 3, 4].map((l) => ages.generalize('37', l))).toEqual(['35-39', '30-39', '20-39', '*']);
    expect(() => intervalHierarchy([5, 12])).toThrow(/multiple of 5/);
    const zip = maskingHierarchy(5);
    expect([0, 1, 2, 4, 5].map((l) => zip.generalize('12345', l))).toEqual(['12345', '1234*', '123**', '1****', '*']);
    expect(zip.generalize('123', 1)).toBeUndefined();
  });
});

describe('strongly-safe k-anonymization', () => {
  it('every released class of identical tuples has at least k records (property, with sampling)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 17, max: 60 }), fc.constantFrom('a', 'b', 'c'), fc.constantFrom('x', 'y')), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer(),
        (rows, k, tenths, seed) => {
          const table = tableFromRows(['age', 'c', 's'], rows.map(([a, c, s]) => [String(a), c, s]));
          const cols = [generalizeColumn(table.columns[0]!, intervalHierarchy([10]), 1), generalizeColumn(table.columns[1]!, undefined, 0), generalizeColumn(table.columns[2]!, undefined, 0)];
          const result = safeKAnonymize(new SeededTestRandomSource(seed), cols, table.rowCount, k, rational(BigInt(tenths), 10n));
          const counts = new Map<string, number>();
          for (const t of tuples(cols, result.rows)) counts.set(t, (counts.get(t) ?? 0) + 1);
          for (const n of counts.values()) expect(n).toBeGreaterThanOrEqual(k);
          expect(counts.size).toBe(result.classes);
          expect(result.rows.length + result.suppressedRows).toBe(result.sampled);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('without sampling, classes and suppressed count on Adult equal a brute-force group-by', () => {
    const lines = readFileSync('resources/adult/adult.csv', 'utf8').trim().split(/\r?\n/);
    const header = lines[0]!.split(';');
    const rows = lines.slice(1).map((l) => l.split(';'));
    const table = tableFromRows(header, rows);
    const levels: Record<string, [string, number]> = { age: ['interval', 2], education: ['education', 1], 'native-country': ['native-country', 1] };
    const cols = table.columns.map((c) => {
      const spec = levels[c.name];
      if (!spec) return generalizeColumn(c, undefined, 0);
      const h = spec[0] === 'interval' ? intervalHierarchy([5, 10]) : tableHierarchy(readHierarchyRows(`resources/adult/adult_hierarchy_${spec[0]}.csv`));
      return generalizeColumn(c, h, spec[1]);
    });
    const result = safeKAnonymize(new SeededTestRandomSource(1), cols, table.rowCount, 5, rational(1n));
    // Brute force on strings.
    const ageOf = (v: string) => `${Math.floor(Number(v) / 10) * 10}-${Math.floor(Number(v) / 10) * 10 + 9}`;
    const edu = new Map(readHierarchyRows('resources/adult/adult_hierarchy_education.csv').map((r) => [r[0]!, r[1]!]));
    const country = new Map(readHierarchyRows('resources/adult/adult_hierarchy_native-country.csv').map((r) => [r[0]!, r[1]!]));
    const key = (r: string[]) => header.map((h, j) => (h === 'age' ? ageOf(r[j]!) : h === 'education' ? edu.get(r[j]!) : h === 'native-country' ? country.get(r[j]!) : r[j])).join('|');
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
    const kept = [...counts.values()].filter((n) => n >= 5);
    expect(result.classes).toBe(kept.length);
    expect(result.suppressedRows).toBe([...counts.values()].filter((n) => n < 5).reduce((a, b) => a + b, 0));
    expect(result.rows.length).toBe(kept.reduce((a, b) => a + b, 0));
    expect(result.sampled).toBe(30162);
  });
});

describe('partitioned recoding', () => {
  it('splits into parts of ⌊n/P⌋ or ⌈n/P⌉ and every released class of every part meets the model', () => {
    const rows = Array.from({ length: 1003 }, (_, i) => [String(17 + (i % 50)), ['a', 'b', 'c', 'd'][i % 4]!, ['flu', 'cold', 'hiv'][(i * 7) % 3]!]);
    const table = tableFromRows(['age', 'region', 'dx'], rows);
    const quasi = [generalizeColumn(table.columns[0]!, intervalHierarchy([10]), 1), generalizeColumn(table.columns[1]!, undefined, 0)];
    const sensitive = { codes: table.columns[2]!.codes, m: 3 };
    for (const model of [{ type: 'k-anonymity', k: 10 }, { type: 'l-diversity', l: 3 }, { type: 't-closeness', t: 0.2 }] as const) {
      const result = partitionedRecoding(new SeededTestRandomSource(3), quasi, sensitive, table.rowCount, 4, model);
      expect(result.parts.map((p) => p.size).sort()).toEqual([250, 251, 251, 251]);
      for (const part of result.parts) {
        const classes = new Map<string, { n: number; values: Map<number, number> }>();
        for (const r of part.rows) {
          const k = tuples(quasi, Uint32Array.of(r))[0]!;
          const entry = classes.get(k) ?? { n: 0, values: new Map() };
          entry.n++;
          entry.values.set(sensitive.codes[r]!, (entry.values.get(sensitive.codes[r]!) ?? 0) + 1);
          classes.set(k, entry);
          expect(result.partOfRow[r]).toBe(part.part - 1);
        }
        for (const c of classes.values()) {
          if (model.type === 'k-anonymity') expect(c.n).toBeGreaterThanOrEqual(10);
          if (model.type === 'l-diversity') expect(c.values.size).toBeGreaterThanOrEqual(3);
        }
        if (model.type === 't-closeness') expect(part.worst).toBeLessThanOrEqual(0.2 + 1e-12);
      }
    }
  });
});

describe('the search loss depends on the hierarchy alone', () => {
  it('gives a generalized value the same loss whatever else the data hold', () => {
    const h = tableHierarchy([['a', 'ab', '*'], ['b', 'ab', '*'], ['c', 'cd', '*'], ['d', 'cd', '*']]);
    const few = tableFromRows(['x'], [['a'], ['b']]);
    const all = tableFromRows(['x'], [['a'], ['b'], ['c'], ['d']]);
    const lossOf = (t: typeof few, level: number, value: string): number => {
      const g = withMetadataLoss(generalizeColumn(t.columns[0]!, h, level), h, level);
      return g.loss[g.dictionary.indexOf(value)]!;
    };
    // (2 covered − 1) / (4 values − 1), from the hierarchy's 4 rows, with 2 or 4 distinct values in the data.
    expect(lossOf(few, 1, 'ab')).toBeCloseTo(1 / 3, 12);
    expect(lossOf(all, 1, 'ab')).toBeCloseTo(1 / 3, 12);
    expect(lossOf(few, 2, '*')).toBe(1);
    // The report's loss does depend on the data: 'ab' covers every distinct value of `few`.
    expect(generalizeColumn(few.columns[0]!, h, 1).loss[1]).toBe(1);
    // Intervals have no fixed domain: level / (depth − 1).
    const ages = tableFromRows(['age'], [['23'], ['47']]);
    const byLevel = withMetadataLoss(generalizeColumn(ages.columns[0]!, intervalHierarchy([5, 10]), 1), intervalHierarchy([5, 10]), 1);
    expect(byLevel.loss[1]).toBeCloseTo(1 / 3, 12);
  });
});
