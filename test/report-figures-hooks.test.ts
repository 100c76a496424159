/**
 * The shared report code reads what it needs of a mechanism from its metadata's `reportFigures`,
 * not from its type: what of the (ε,δ) test the external report publishes, and how the key
 * figures word the utility figure and set the baseline beside it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/common/report/report-model.js';
import { factsOf } from '../src/common/report/key-figures.js';
import { externalVariant } from '../src/jobs/report-builder.js';
import type { Job } from '../src/mechanisms/definitions.js';
import { keyFiguresOf } from '../src/mechanisms/report-views.js';

const fixture = (name: string): Report => JSON.parse(readFileSync(`test/fixtures/reports/${name}`, 'utf8')) as Report;
const published = (report: Report): Report => externalVariant(report, { summary: [], warnings: [], job: report.job as unknown as Job });

describe("the reports read a mechanism's figures from its metadata", () => {
  it('publish the (ε,δ) test on the release only where it is the guarantee (reconstruction privacy), not for plain perturbation', () => {
    const rp = fixture('rp-internal.json');
    const up = fixture('up-internal.json');
    expect(rp.risk.violatingAfter).toBeDefined();
    expect(published(rp).risk.violatingAfter).toBe(rp.risk.violatingAfter);
    expect(published(rp).risk.bySensitive?.[0]?.violatingAfter).toBe(rp.risk.bySensitive?.[0]?.violatingAfter);
    expect(up.risk.violatingAfter).toBeDefined();
    expect(published(up).risk.violatingAfter).toBeUndefined();
    expect(published(up).risk.bySensitive?.[0]?.violatingAfter).toBeUndefined();
  });

  it('name the utility figure by the pool the method asks and leave plain perturbation out beside itself', () => {
    const label = (name: string): string | undefined => factsOf(keyFiguresOf(fixture(name))).find(([l]) => l.startsWith('Mean relative error'))?.[0];
    expect(label('rp-internal.json')).toBe('Mean relative error of sensitive-value count queries');
    expect(label('beta-internal.json')).toBe('Mean relative error of sensitive-value count queries');
    expect(label('safek-internal.json')).toBe('Mean relative error of quasi-identifier count queries');
    const bars = (name: string): string[] => keyFiguresOf(fixture(name)).flatMap((b) => (b.kind === 'bars' ? b.bars.map((x) => `${b.title}: ${x.label}`) : []));
    expect(bars('up-internal.json').filter((b) => b.includes('plain perturbation') && b.startsWith('Mean'))).toEqual([]);
    expect(bars('rp-internal.json')).toContain('Mean relative error of sensitive-value count queries (lower is better): plain perturbation');
    // The micro groups chart sets this release beside plain perturbation only where it meets the test.
    expect(bars('rp-internal.json')).toContain('Micro groups that fail the (ε,δ) test: this release');
    expect(bars('up-internal.json').filter((b) => b.endsWith('this release') && b.startsWith('Micro'))).toEqual([]);
  });
});
