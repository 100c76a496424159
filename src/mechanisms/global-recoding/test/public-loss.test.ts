import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { parseJob } from '../../../jobs/load-job.js';
import { assessJob } from '../../../jobs/run-job.js';

/** Ten women aged 30–39 and one man whose record is deleted with his class; his age varies. */
function lossWith(suppressedAge: number, method: Record<string, unknown>): number {
  const dir = mkdtempSync(join(tmpdir(), 'custos-public-loss-'));
  const rows = [...Array.from({ length: 10 }, (_, i) => `${30 + i},F,x`), `${suppressedAge},M,y`];
  writeFileSync(join(dir, 'in.csv'), ['age,sex,note', ...rows].join('\n') + '\n');
  const job = { version: 1, input: { path: 'in.csv' }, attributes: { note: 'insensitive' }, method, output: { dir: 'out' } };
  const report = assessJob(parseJob(job, dir), { random: new SeededTestRandomSource(4) });
  // Global recoding counts the record; partitioned recoding gives it as a share of the input.
  expect(report.warnings.join(' ')).toMatch(/1 record\(s\) were suppressed with their class|1 of 11 records \(9\.1 %\) were deleted with their class/);
  return report.utility.generalizationLoss!;
}

describe('the published generalization loss', () => {
  // A deleted record's value used to count among the column's distinct values, the loss's denominator:
  // the published figure then told whether that record's age was one the released records also hold.
  it('depends on the hierarchies and the released records only, not on a deleted record', () => {
    const global = { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 2 }], suppressionLimit: 0.1, hierarchies: { age: { type: 'interval', widths: [10] } } };
    expect(lossWith(95, global)).toBe(lossWith(35, global));
    const partitioned = { type: 'partitioned-recoding', parts: 1, model: { type: 'k-anonymity', k: 2 }, hierarchies: { age: { type: 'interval', widths: [10] } }, levels: { age: 1 } };
    expect(lossWith(95, partitioned)).toBe(lossWith(35, partitioned));
  });
});
