import { describe, expect, it } from 'vitest';
import { generalizeColumn, intervalHierarchy, roundingHierarchy } from '../../src/common/recoding/hierarchy.js';
import { tableFromRows } from '../../src/common/table/table.js';
import { releasedAsNumbers } from '../../src/jobs/method-kit/generalized-view.js';

describe('a generalized column is released as numbers only where every released value is one', () => {
  const table = tableFromRows(['age', 'zip'], [['37', 'A1'], ['42', 'B2'], ['', 'C3'], ['90', 'A1']], ['']);
  const age = table.columns[0]!;

  it('kept as collected: as the input column', () => {
    expect(releasedAsNumbers(generalizeColumn(age, undefined, 0), true, 0)).toBe(true);
    expect(releasedAsNumbers(generalizeColumn(table.columns[1]!, undefined, 0), false, 0)).toBe(false);
  });

  it('rounded (37 → 35, 30, 0): numbers; a missing value stays missing', () => {
    const rounded = generalizeColumn(age, roundingHierarchy([5, 10, 100]), 2);
    expect(rounded.dictionary.filter((v) => v !== '').sort()).toEqual(['30', '40', '90']);
    expect(releasedAsNumbers(rounded, true, 2)).toBe(true);
  });

  it('intervals and "*": text', () => {
    expect(releasedAsNumbers(generalizeColumn(age, intervalHierarchy([10, 20]), 1), true, 1)).toBe(false);
    const top = generalizeColumn(age, roundingHierarchy([5]), 2);
    expect(top.dictionary).toContain('*');
    expect(releasedAsNumbers(top, true, 2)).toBe(false);
  });
});
