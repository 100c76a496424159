import { describe, expect, it } from 'vitest';
import type { HierarchySpec } from '../../common/recoding/hierarchy-spec.js';
import { dateHierarchy, intervalHierarchy, maskingHierarchy, roundingHierarchy, type Hierarchy } from '../../common/recoding/hierarchy.js';
import type { Report } from '../../common/report/report-model.js';
import type { Table } from '../../common/table/table.js';
import { CheckList } from '../method-kit/checks.js';
import { checkRecodedValues } from './recoded-values.js';

/** A released table of one column holding these values (dictionary[0] is the missing value). */
function release(name: string, values: readonly string[]): Table {
  const dictionary = ['', ...new Set(values)];
  return { rowCount: values.length, columns: [{ name, dictionary, codes: Uint32Array.from(values, (v) => dictionary.indexOf(v)) }] } as unknown as Table;
}

function check(spec: HierarchySpec, level: number, values: readonly string[]): { ok: boolean; detail: string } | undefined {
  const checks = new CheckList();
  const report = { anonymity: { columns: [{ name: 'x', level, depth: 5, hierarchy: '' }] } } as unknown as Report;
  checkRecodedValues(report, { x: spec }, release('x', values), checks);
  return checks.checks.find((c) => c.name === 'recoded values of their hierarchies');
}

const CASES: [string, HierarchySpec, Hierarchy, readonly string[]][] = [
  ['intervals', { type: 'interval', widths: [5, 10] }, intervalHierarchy([5, 10]), Array.from({ length: 130 }, (_, i) => String(i - 20))],
  ['intervals with top and bottom coding', { type: 'interval', widths: [10], top: 90, bottom: 18 }, intervalHierarchy([10], { top: 90, bottom: 18 }), Array.from({ length: 120 }, (_, i) => String(i))],
  ['rounding', { type: 'rounding', bases: [5, 10, 100] }, roundingHierarchy([5, 10, 100]), Array.from({ length: 300 }, (_, i) => String(i - 50))],
  ['masking', { type: 'masking', length: 5 }, maskingHierarchy(5), Array.from({ length: 200 }, (_, i) => String(10000 + i * 371))],
  ['dates', { type: 'date' }, dateHierarchy(), Array.from({ length: 200 }, (_, i) => new Date(Date.UTC(1990, 0, 1 + i * 97)).toISOString().slice(0, 10))],
];

describe('recoded values of a built-in hierarchy (verify, issue 31)', () => {
  for (const [name, spec, hierarchy, inputs] of CASES) {
    it(`${name}: every level's values pass, with missing values and the suppression symbol`, () => {
      for (let level = 1; level < hierarchy.depth; level++) {
        const released = [...inputs.map((v) => hierarchy.generalize(v, level)!), '', '*'];
        expect(check(spec, level, released), `level ${level}`).toMatchObject({ ok: true });
      }
    });
    it(`${name}: the input's own values in place of their generalization fail, naming the column`, () => {
      const result = check(spec, 1, inputs.slice(0, 10));
      expect(result?.ok).toBe(false);
      expect(result?.detail).toMatch(/^x: \d+ value\(s\) not of its hierarchy at level 1/);
    });
  }

  it('a file hierarchy, or level 0, is not checked here', () => {
    expect(check('age.csv', 1, ['anything'])).toBeUndefined();
    expect(check({ type: 'interval', widths: [10] }, 0, ['37'])).toBeUndefined();
  });

  it('a band that is not one of the level (shifted, or of another width) fails', () => {
    expect(check({ type: 'interval', widths: [10] }, 1, ['20-29', '25-34'])?.ok).toBe(false);
    expect(check({ type: 'interval', widths: [10] }, 1, ['20-24'])?.ok).toBe(false);
    expect(check({ type: 'masking', length: 5 }, 2, ['123**', '1234*'])?.ok).toBe(false);
  });
});
