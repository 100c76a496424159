// @vitest-environment happy-dom
// One table of the riskiest records serves the risk preview (numbered, "Individual risk") and the
// before/after view (unnumbered: a released record does not lead back to its input row).
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RiskiestRecords, type Riskiest } from '../../src/renderer/components/riskiest-records.js';

afterEach(cleanup);

const records: Riskiest = [
  { record: 1234, values: ['30-39', ''], classSize: 1, weightSum: 1, risk: 1 },
  { record: 7, values: ['40-49', 'f'], classSize: 3, weightSum: 3, risk: 1 / 3 },
];

const cells = (table: HTMLElement, role: 'columnheader' | 'cell'): string[] => within(table).getAllByRole(role).map((c) => c.textContent ?? '');

describe('the riskiest records table', () => {
  it('numbers the records in the risk preview', () => {
    render(<RiskiestRecords caption="The riskiest records" quasi={['age', 'sex']} records={records} recordColumn riskHeading="Individual risk" />);
    const table = screen.getByRole('table', { name: 'The riskiest records' });
    expect(table.className).toBe('grid');
    expect(cells(table, 'columnheader')).toEqual(['Record', 'age', 'sex', 'Class size', 'Individual risk']);
    expect(cells(table, 'cell')).toEqual(['1,234', '30-39', 'missing', '1', '1.0000', '7', '40-49', 'f', '3', '0.3333']);
  });

  it('lists them without their rows beside the release', () => {
    render(<RiskiestRecords caption="Release" quasi={['age', 'sex']} records={records} recordColumn={false} riskHeading="Risk" className="before-after-risk" />);
    const table = screen.getByRole('table', { name: 'Release' });
    expect(table.className).toBe('grid before-after-risk');
    expect(cells(table, 'columnheader')).toEqual(['age', 'sex', 'Class size', 'Risk']);
    expect(cells(table, 'cell')).toEqual(['30-39', 'missing', '1', '1.0000', '40-49', 'f', '3', '0.3333']);
  });
});
