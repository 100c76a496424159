/**
 * δ-presence with a research subset on Adult, side by side with ARX 3.9.2 (issue 36): the subset is a
 * fixed pseudo-random tenth of the records (bench/arx-harness/PresenceFigures.java, whose output is
 * test/fixtures/arx/delta-presence.json), added here as a column "in_study" to a copy of the data.
 * Custos must choose ARX's levels with ARX's Loss and release exactly the subset's unsuppressed records.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAdultDemoJob } from './adult-demo-job.js';

const CLI = resolve('dist/cli/custos.mjs');
const ARX = JSON.parse(readFileSync('test/fixtures/arx/delta-presence.json', 'utf8'));

/** The harness's subset: data row r is in it when (r · 2654435761) mod 2³² < 429496730. */
const inSubset = (r: number): boolean => Number((BigInt(r) * 2654435761n) % 4294967296n) < 429496730;

/** The Adult demo job on a copy of adult.csv with the subset column, marked "insensitive" (released). */
function presenceJob(method: Record<string, unknown>, attributes: Record<string, string> = { in_study: 'insensitive' }): { dir: string; path: string } {
  const { dir, path } = writeAdultDemoJob('custos-presence-', method, attributes);
  const lines = readFileSync('resources/adult/adult.csv', 'utf8').trimEnd().split(/\r?\n/);
  const copy = [`${lines[0]};in_study`, ...lines.slice(1).map((line, r) => `${line};${inSubset(r) ? 'yes' : 'no'}`)];
  writeFileSync(join(dir, 'adult.csv'), copy.join('\n') + '\n');
  const job = JSON.parse(readFileSync(path, 'utf8'));
  job.input.path = join(dir, 'adult.csv');
  writeFileSync(path, JSON.stringify(job));
  return { dir, path };
}

const run = (path: string) => spawnSync(process.execPath, [CLI, 'run', path, '--json', '--test-seed', '3'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });

describe('δ-presence with a research subset, as ARX 3.9.2', () => {
  // Settings 0 and 2 (δmin = 0). Setting 1 (δmin > 0 with k-anonymity) is where Custos and ARX differ: see below.
  it.each([0, 2].map((i) => [ARX.settings[i].name, i]))('%s: ARX\'s levels and Loss, the subset\'s records alone released, and verify passes', (_name, i) => {
    const s = ARX.settings[i as number];
    const models = [{ type: 'delta-presence', deltaMin: s.deltaMin, deltaMax: s.deltaMax, subset: 'in_study' }, ...(s.k > 0 ? [{ type: 'k-anonymity', k: s.k }] : [])];
    const { dir, path } = presenceJob({ models, suppressionLimit: s.suppressionLimit });
    const r = run(path);
    expect(r.status, r.stderr + r.stdout).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(ARX.quasi.map((q: string) => report.method.levels[q])).toEqual(s.levels);
    expect(Math.abs(report.method.internal.measureValue - s.loss)).toBeLessThanOrEqual(1e-12);
    expect(report.output.rows).toBe(s.releasedRecords);
    const csv = readFileSync(join(dir, 'out', 'release.csv'), 'utf8').trim().split('\r\n');
    const column = csv[0]!.split(',').indexOf('in_study');
    expect(csv.slice(1).every((line) => line.split(',')[column] === 'yes')).toBe(true);
    const published = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(published.guarantee.statement).toContain(`(${s.deltaMin}, ${s.deltaMax})-presence: the input is taken as the population, and only the records its column in_study marks as the research subset are released`);
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(dir, 'out'), '--accept-test-randomness', '--json'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
    const checks = JSON.stringify(JSON.parse(verify.stdout));
    expect(checks).toContain('not re-checked: taken on trust');
    expect(checks).toContain('only the research subset released (in_study)');
  });

  it('δmin > 0 with k-anonymity: ARX keeps a class of no subset record (its k-anonymity check, on 0 records, comes before DPresence\'s), Custos fails such a node as ARX\'s DPresence alone does', () => {
    const s = ARX.settings[1];
    const models = [{ type: 'delta-presence', deltaMin: s.deltaMin, deltaMax: s.deltaMax, subset: 'in_study' }, { type: 'k-anonymity', k: s.k }];
    const levels = Object.fromEntries(ARX.quasi.map((q: string, j: number) => [q, s.levels[j]]));
    // At ARX's optimum some class of the input holds no subset record: its δ is 0 < δmin, whatever is suppressed.
    const pinned = run(presenceJob({ models, suppressionLimit: s.suppressionLimit, levels }).path);
    expect(pinned.status, pinned.stdout).toBe(2);
    expect(JSON.parse(pinned.stdout).error.message).toMatch(/the only way of recoding within the job's levels .* does not meet \(0\.05, 0\.15\)-presence/);
    // With δmin = 0 the same node meets the models: only the empty class stood in the way.
    const relaxed = run(presenceJob({ models: [{ ...models[0], deltaMin: 0 }, models[1]], suppressionLimit: s.suppressionLimit, levels }).path);
    expect(relaxed.status, relaxed.stdout).toBe(0);
    const free = run(presenceJob({ models, suppressionLimit: s.suppressionLimit }).path);
    expect(free.status, free.stdout).toBe(0);
    expect(JSON.parse(free.stdout).method.internal.measureValue).toBeGreaterThan(s.loss);
  });

  it('refuses a subset column with another value, one that is a quasi-identifier, and models it does not go with (exit 2, the key named, nothing written)', () => {
    const presence = { type: 'delta-presence', deltaMin: 0, deltaMax: 0.5, subset: 'in_study' };
    const cases: [Record<string, unknown>, Record<string, string>, RegExp, string][] = [
      [{ models: [{ ...presence, subset: 'occupation' }] }, {}, /adult\.csv, column "occupation", record 1: "Adm-clerical"; the research subset's column holds 1, true or yes/, 'method.models.0.subset'],
      [{ models: [presence] }, { in_study: 'quasi' }, /"in_study" marks the research subset and is a quasi-identifier/, 'method.models.0.subset'],
      [{ models: [{ ...presence, subset: 'no_such' }] }, {}, /"no_such" is not a column of .*adult\.csv/, 'method.models.0.subset'],
      [{ models: [presence, { type: 'l-diversity', l: 2 }] }, { in_study: 'insensitive', occupation: 'sensitive' }, /δ-presence goes with k-anonymity and the highest risk only/, 'method.models[1]'],
      [{ models: [{ ...presence, deltaMin: 0.6 }] }, {}, /δmin \(0\.6\) is above δmax \(0\.5\)/, 'method.models[0].deltaMin'],
    ];
    for (const [method, attributes, message, key] of cases) {
      const { dir, path } = presenceJob(method, { in_study: 'insensitive', ...attributes });
      const r = run(path);
      expect(r.status, JSON.stringify(method) + r.stdout).toBe(2);
      const error = JSON.parse(r.stdout).error;
      expect(error.message).toMatch(message);
      expect(JSON.stringify(error)).toContain(key);
      expect(readdirSync(dir).sort()).toEqual(['adult.csv', 'job.json']);
    }
  });
});
