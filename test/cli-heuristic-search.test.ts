import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAdultDemoJob } from './adult-demo-job.js';

const CLI = resolve('dist/cli/custos.mjs');
const ENV = { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' };

const demoJob = (method: Record<string, unknown>): string => writeAdultDemoJob('custos-heuristic-', method).dir;

const assess = (dir: string) => spawnSync(process.execPath, [CLI, 'assess', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });

describe('global recoding: the heuristic search (method.search)', () => {
  it('on Adult with ample steps it completes with the exhaustive optimum; with few it releases a transformation that meets the model, states its gap, and verify passes', () => {
    const exhaustive = JSON.parse(assess(demoJob({})).stdout);
    const ample = assess(demoJob({ search: { strategy: 'heuristic', steps: 4320 } }));
    expect(ample.status, ample.stderr).toBe(0);
    const full = JSON.parse(ample.stdout);
    expect(full.method.levels).toEqual(exhaustive.method.levels);
    expect(full.method.derived.searchStrategy).toBe('heuristic');
    expect(full.method.internal.heuristicCompleted).toBe(1);
    expect(full.method.internal.measureLowerBound).toBe(full.method.internal.measureValue);
    expect(full.summary.join(' ')).toMatch(/its choice is the optimum/);

    const dir = demoJob({ search: { strategy: 'heuristic', steps: 120 } });
    const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json', '--test-seed', '3'], { encoding: 'utf8', env: ENV });
    expect(r.status, r.stderr + r.stdout).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.guarantee.holds).toBe(true);
    expect(report.method.internal.heuristicSteps).toBeLessThanOrEqual(120);
    expect(report.method.internal.heuristicCompleted).toBe(0);
    expect(report.method.internal.measureValue).toBeGreaterThanOrEqual(exhaustive.method.internal.measureValue);
    expect(report.method.internal.measureLowerBound).toBeLessThanOrEqual(exhaustive.method.internal.measureValue);
    expect(report.method.parameters.search).toMatch(/heuristic: best-first .* within 60 s or 120 transformations evaluated/);
    expect(report.summary.join(' ')).toMatch(/before its budget of steps stopped it; its choice has loss [\d.]+, within [\d.e-]+ of the optimum: no transformation that meets the models has loss below [\d.e-]+|no transformation left unseen can have a lower loss/);
    const external = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(external.summary.join(' ')).toMatch(/that a heuristic search with a budget found \(another combination may lose less\)/);
    expect(external.method.internal).toBeUndefined();
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(dir, 'out'), '--accept-test-randomness', '--json'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
    // Four assessments or runs of Adult and a verify: 20–30 s on a quiet machine.
  }, 180_000);

  it('a lattice beyond the exhaustive search\'s 5,000,000 nodes goes to the heuristic (auto), and "exhaustive" refuses it naming method.search.strategy', () => {
    // Ten numeric columns with six-level interval hierarchies: 6^10 ≈ 60 million transformations.
    const dir = mkdtempSync(join(tmpdir(), 'custos-heuristic-'));
    const names = Array.from({ length: 10 }, (_, j) => `q${j}`);
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) % 100;
    const rows = Array.from({ length: 400 }, () => names.map(() => next()).join(','));
    writeFileSync(join(dir, 'wide.csv'), [names.join(','), ...rows].join('\n') + '\n');
    const hierarchies = Object.fromEntries(names.map((n) => [n, { type: 'interval', widths: [2, 4, 8, 16] }]));
    const job = (search: Record<string, unknown>) => ({ version: 1, input: { path: join(dir, 'wide.csv') }, attributes: Object.fromEntries(names.map((n) => [n, 'quasi'])), method: { type: 'global-recoding', hierarchies, models: [{ type: 'k-anonymity', k: 3 }], suppressionLimit: 0.05, search }, output: { dir: 'out', formats: ['csv'], report: ['json'] } });
    writeFileSync(join(dir, 'auto.json'), JSON.stringify(job({ steps: 300, timeLimitSeconds: 120 })));
    const r = spawnSync(process.execPath, [CLI, 'assess', join(dir, 'auto.json'), '--json'], { encoding: 'utf8' });
    expect(r.status, r.stderr + r.stdout).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.method.derived.latticeNodes).toBe(6 ** 10);
    expect(report.method.derived.searchStrategy).toBe('heuristic');
    expect(report.method.internal.heuristicSteps).toBeLessThanOrEqual(300);
    expect(report.guarantee.holds).toBe(true);
    expect(report.risk.minClassSize).toBeGreaterThanOrEqual(3);
    writeFileSync(join(dir, 'exhaustive.json'), JSON.stringify(job({ strategy: 'exhaustive' })));
    const refused = spawnSync(process.execPath, [CLI, 'run', join(dir, 'exhaustive.json'), '--json'], { encoding: 'utf8' });
    expect(refused.status).toBe(2);
    const error = JSON.parse(refused.stdout).error;
    expect(error.message).toMatch(/more than the 5,000,000 the exhaustive search takes/);
    expect(JSON.stringify(error)).toContain('method.search.strategy');
    expect(readdirSync(dir).sort()).toEqual(['auto.json', 'exhaustive.json', 'wide.csv']);
  });
});
