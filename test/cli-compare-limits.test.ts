/**
 * `custos compare` counts its candidates before it starts: a grid beyond the
 * cap (the wizard's, unless --max-candidates raises it within a hard limit) is
 * refused at once naming --grid, and progress shows without a terminal too.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CANDIDATES } from '../src/common/ipc/compare-api.js';
import { MAX_CANDIDATES_LIMIT } from '../src/common/compare/comparison.js';
import { parseGridAxis, plannedCandidates } from '../src/jobs/compare/candidates.js';

const CLI = resolve('dist/cli/custos.mjs');

function custos(args: string[], cwd: string): { code: number; stdout: string; stderr: string; ms: number } {
  const start = Date.now();
  // stderr is a pipe here, not a terminal: what a log or CI sees.
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd, env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' }, timeout: 120_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - start };
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function setUp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-compare-limits-'));
  made.push(dir);
  writeFileSync(join(dir, 'in.csv'), ['age,sex,diagnosis', ...Array.from({ length: 300 }, (_, i) => `${20 + (i % 30)},${i % 2 ? 'F' : 'M'},d${i % 4}`)].join('\n') + '\n');
  writeFileSync(join(dir, 'rp.json'), JSON.stringify({ version: 1, input: { path: 'in.csv' }, attributes: { diagnosis: 'sensitive' }, method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { diagnosis: 'from-data' } } }));
  return dir;
}

const values = (n: number, from: number, to: number): string => Array.from({ length: n }, (_, i) => String(from + ((to - from) * i) / (n - 1))).join(',');

describe('the number of candidates', () => {
  it('a 30,000-candidate grid is refused before any work, naming --grid, the count and the cap', () => {
    const dir = setUp();
    const r = custos(['compare', 'rp.json', '--grid', `retention=${values(200, 0.1, 0.9)}`, '--grid', `epsilon=${values(150, 0.1, 0.9)}`, '--internal', 'cmp', '--csv', 'table.csv'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--grid: retention (200 values) × epsilon (150 values) make 30,000 candidates');
    expect(r.stderr).toContain(`at most ${MAX_CANDIDATES} candidates`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.ms).toBeLessThan(15_000);
    expect(readdirSync(dir).sort()).toEqual(['in.csv', 'rp.json']);
  }, 60_000);

  it('the cap is the wizard\'s; --max-candidates lowers or raises it within the hard limit', () => {
    const dir = setUp();
    expect(MAX_CANDIDATES).toBe(60);
    // 61 candidates: one more than the wizard allows.
    let r = custos(['compare', 'rp.json', '--grid', `retention=${values(61, 0.2, 0.8)}`], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/make 61 candidates; a comparison holds at most 60 candidates \(--max-candidates raises that to at most 1,000\)/);
    r = custos(['compare', 'rp.json', '--grid', 'retention=0.3,0.5,0.7', '--max-candidates', '2'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--grid: retention \(3 values\) make 3 candidates; a comparison holds at most 2 candidates/);
    for (const bad of ['0', '1001', '2.5', 'many']) {
      r = custos(['compare', 'rp.json', '--max-candidates', bad], dir);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--max-candidates must be a whole number from 1 to 1,000/);
    }
    // The worker counts the same way (a request that bypassed the command line).
    const axes = ['retention=0.3,0.5', 'epsilon=0.1,0.2,0.3'].map(parseGridAxis);
    expect(plannedCandidates(1, axes)).toBe(6);
    expect(plannedCandidates(1, [parseGridAxis(`retention=${values(61, 0.2, 0.8)}`)], 61)).toBe(61);
    expect(() => plannedCandidates(1, axes, 5)).toThrow(/make 6 candidates/);
    expect(() => plannedCandidates(1, axes, MAX_CANDIDATES_LIMIT + 1)).toThrow(/--max-candidates/);
    expect(() => plannedCandidates(MAX_CANDIDATES + 1, [])).toThrow(/61 job files make 61 candidates/);
  }, 60_000);

  it('says how many candidates it compares, then a line per candidate assessed when stderr is not a terminal', () => {
    const dir = setUp();
    const r = custos(['compare', 'rp.json', '--grid', 'retention=0.3,0.4,0.5,0.6,0.7', '--json', '--test-seed', '4'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).candidates).toHaveLength(5);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines[0]).toBe('custos: comparing 5 candidates');
    const progress = lines.slice(1);
    expect(progress.length).toBeGreaterThan(0);
    for (const line of progress) expect(line).toMatch(/^custos: [1-5]\/5 candidates assessed \((20|40|60|80|100)%\)$/);
    expect(progress.at(-1)).toBe('custos: 5/5 candidates assessed (100%)');
    // Never a redraw: no carriage return, and the count only grows.
    expect(r.stderr).not.toContain('\r');
    const counts = progress.map((l) => Number(/(\d)\/5/.exec(l)![1]));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(new Set(counts).size).toBe(counts.length);
  }, 120_000);
});
