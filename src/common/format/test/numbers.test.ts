import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatFixed, formatNumber, formatPercent } from '../numbers.js';

describe('numbers for people', () => {
  it('a tiny probability keeps its digits: δ = 1e-5 is 1.0000e-5, as in the report (the wizard used to show 0.0000)', () => {
    expect(formatNumber(1e-5)).toBe('1.0000e-5');
    expect(formatNumber(-3.2e-7)).toBe('-3.2000e-7');
    expect(formatNumber(0.0001)).toBe('0.0001');
    expect(formatNumber(0.123456)).toBe('0.1235');
    expect(formatNumber(0.5, 2)).toBe('0.50');
  });

  it('whole numbers with thousands separators, missing and infinite values in words', () => {
    expect(formatNumber(30162)).toBe('30,162');
    expect(formatNumber(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatNumber(undefined)).toBe('n/a');
    expect(formatNumber(null)).toBe('n/a');
    expect(formatNumber(Number.NaN)).toBe('n/a');
    expect(formatNumber(Infinity)).toBe('∞');
    expect(formatNumber(-Infinity)).toBe('−∞');
    expect(formatFixed(0)).toBe('0.0000');
    expect(formatFixed(Infinity)).toBe('n/a');
  });

  it('shares and sizes', () => {
    expect(formatPercent(1, 3)).toBe('33.3%');
    expect(formatPercent(1, 30162)).toBe('0.0033%');
    expect(formatPercent(0, 0)).toBe('0%');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.00 GB');
  });

  it('is the only place that defines how a figure is printed (no second formatNumber, num or percent helper)', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !name.endsWith('.test.ts')) files.push(path);
      }
    };
    walk('src');
    const definers = files.filter((f) => /export (function|const) (formatNumber|num|percent|formatPercent)\b/.test(readFileSync(f, 'utf8')));
    // The compare chart's percent is a risk share (one argument), not a figure of the report; it is named for that below.
    expect(definers.sort()).toEqual(['src/common/compare/chart.ts', 'src/common/format/numbers.ts']);
  });
});
