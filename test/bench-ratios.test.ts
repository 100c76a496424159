import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkAgainstReadme, ratioTable, recordedRatios } from '../bench/ratios.js';

const readme = readFileSync('docs/BENCHMARK.md', 'utf8');

describe('npm run bench -- --check', () => {
  it("reads docs/BENCHMARK.md's table for the row count, as the bench prints it", () => {
    const recorded = recordedRatios(readme, 1_000_000)!;
    expect(recorded.get('naive scan (read, split, count one column)')).toBe(1);
    expect(recorded.get('custos run, CSV + JSON report')).toBeGreaterThan(1);
    const printed = recordedRatios(ratioTable([{ name: 'a', ms: 300 }, { name: 'b', ms: 1500 }], 1000, 5).join('\n'), 5)!;
    expect([...printed]).toEqual([['a', 0.3], ['b', 1.5]]);
    expect(recordedRatios(readme, 123)).toBeUndefined();
  });

  it('fails on a ratio more than 20% above docs/BENCHMARK.md, not on one within it or on figures kept for the record', () => {
    const recorded = recordedRatios(readme, 1_000_000)!;
    const scanMs = 1000;
    const name = 'custos run, CSV + JSON report';
    const at = (factor: number) => [{ name, ms: recorded.get(name)! * scanMs * factor }];
    expect(checkAgainstReadme(readme, at(1.15), scanMs, 1_000_000)).toEqual([]);
    expect(checkAgainstReadme(readme, at(1.25), scanMs, 1_000_000)).toHaveLength(1);
    expect(checkAgainstReadme(readme, [{ ...at(3)[0]!, unchecked: true }], scanMs, 1_000_000)).toEqual([]);
    expect(checkAgainstReadme(readme, at(1), scanMs, 42)).toHaveLength(1);
  });
});
