import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAdultDemoJob } from './adult-demo-job.js';

const CLI = resolve('dist/cli/custos.mjs');

/** The Adult demo job with absolute paths and the given method fields, written in a fresh folder. */
const demoJob = (method: Record<string, unknown>): string => writeAdultDemoJob('custos-levels-', method).dir;

describe('global recoding: the job bounds a quasi-identifier\'s levels (method.levels)', () => {
  it('the search keeps the bounds, the reports state them, and verify writes the sentences again', () => {
    const free = spawnSync(process.execPath, [CLI, 'assess', join(demoJob({}), 'job.json'), '--json'], { encoding: 'utf8' });
    expect(free.status, free.stderr).toBe(0);
    const freeLevels = JSON.parse(free.stdout).method.levels;
    // The solution space: every transformation that meets the model, the optimum first and marked chosen, each within the model.
    const solutions = JSON.parse(free.stdout).method.solutions;
    expect(solutions.length).toBe(Math.min(500, JSON.parse(free.stdout).method.internal.satisfyingTransformations));
    expect(solutions[0]).toMatchObject({ levels: freeLevels, chosen: true });
    for (const s of solutions) expect(s.highestRisk).toBeLessThanOrEqual(1 / 5);
    for (let i = 1; i < solutions.length; i++) expect(solutions[i].measure).toBeGreaterThanOrEqual(solutions[i - 1].measure - 1e-9);
    // Pin age where the free optimum does not put it, and cap education below its free level when it has one.
    const pinnedAge = freeLevels.age === 0 ? 1 : 0;
    const dir = demoJob({ levels: { age: pinnedAge, education: { max: Math.max(0, freeLevels.education - 1) } } });
    const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json', '--test-seed', '3'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
    expect(r.status, r.stderr + r.stdout).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.method.levels.age).toBe(pinnedAge);
    expect(report.method.levels.education).toBeLessThanOrEqual(Math.max(0, freeLevels.education - 1));
    const words = `age at level ${pinnedAge}, education at level ${Math.max(0, freeLevels.education - 1)} or below`;
    expect(report.method.parameters.levels).toBe(words);
    expect(report.method.derived.searchedNodes).toBeLessThan(report.method.derived.latticeNodes);
    expect(report.anonymity.choice).toContain(`within the job's levels (${words})`);
    expect(report.guarantee.holds).toBe(true);
    const external = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(external.summary.join(' ')).toContain(`among the levels the job allowed (${words})`);
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(dir, 'out'), '--accept-test-randomness', '--json'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
  });

  it('refuses a level beyond the hierarchy, a column that is not a quasi-identifier, and a range upside down, naming the key (exit 2, nothing written)', () => {
    const cases: [Record<string, unknown>, RegExp, string][] = [
      [{ sex: { max: 7 } }, /level 7 is beyond the 1 levels of the hierarchy of "sex"/, 'method.levels.sex.max'],
      [{ age: 9 }, /level 9 is beyond/, 'method.levels.age'],
      [{ occupation: 0 }, /"occupation" is not a quasi-identifier/, 'method.levels.occupation'],
      [{ age: { min: 3, max: 1 } }, /lowest level \(3\) is above the highest \(1\)/, 'method.levels.age'],
      [{ age: -1 }, /whole number ≥ 0/, 'method.levels.age'],
    ];
    for (const [levels, message, key] of cases) {
      const dir = demoJob({ levels });
      const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json'], { encoding: 'utf8' });
      expect(r.status, JSON.stringify(levels) + r.stdout + r.stderr).toBe(2);
      const error = JSON.parse(r.stdout).error;
      expect(error.message).toMatch(message);
      expect(JSON.stringify(error)).toContain(key);
      expect(readdirSync(dir)).toEqual(['job.json']);
    }
  });
});
