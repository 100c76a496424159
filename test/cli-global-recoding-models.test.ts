import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAdultDemoJob } from './adult-demo-job.js';

/** Issue 36, item 3: the Loss's ARX settings, several sensitive attributes, δ-presence, through the command line. */
const CLI = resolve('dist/cli/custos.mjs');
const QUASI = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'salary-class'];

const adultJob = (method: Record<string, unknown>, attributes: Record<string, string> = {}) => writeAdultDemoJob('custos-grm-', method, attributes);

const run = (path: string, command = 'run') => spawnSync(process.execPath, [CLI, command, path, '--json', '--test-seed', '3'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });

describe('global recoding: the Loss with attribute weights and a generalization/suppression factor', () => {
  it('runs ARX\'s setting (5-anonymity, 5 %, gsFactor 0.8, weights) to ARX\'s levels, states the settings, and verify passes', () => {
    const arx = JSON.parse(readFileSync('test/fixtures/arx/loss-weights.json', 'utf8')).settings[1];
    const attributeWeights = Object.entries(arx.weights as Record<string, number>).map(([column, weight]) => ({ column, weight }));
    const { dir, path } = adultJob({ gsFactor: arx.gsFactor, attributeWeights });
    const r = run(path);
    expect(r.status, r.stderr + r.stdout).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(QUASI.map((q) => report.method.levels[q])).toEqual(arx.levels);
    expect(Math.abs(report.method.internal.measureValue - arx.loss)).toBeLessThanOrEqual(1e-12);
    expect(report.method.parameters.gsFactor).toBe(0.8);
    expect(report.method.parameters.attributeWeights).toBe('sex 0.1, age 1, race 0.5, marital-status 0.5, education 0.8, native-country 0.2, workclass 0.5, salary-class 0.5');
    expect(report.summary.join(' ')).toMatch(/chosen by loss \(generalization\/suppression factor 0\.8; attribute weights age 1, sex 0\.1, education 0\.8, native-country 0\.2 \(others 0\.5, divided by the largest\)\)/);
    const published = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(published.summary.join(' ')).toMatch(/least loss \(generalization\/suppression factor 0\.8; attribute weights age 1, sex 0\.1/);
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(dir, 'out'), '--accept-test-randomness', '--json'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
  });

  it('refuses a weight on a column that is not a quasi-identifier, and the settings with another measure (exit 2, the key named, nothing written)', () => {
    const cases: [Record<string, unknown>, RegExp, string][] = [
      [{ attributeWeights: [{ column: 'occupation', weight: 1 }] }, /"occupation" is not a quasi-identifier/, 'method.attributeWeights.0.column'],
      [{ measure: 'entropy', gsFactor: 0.3 }, /belongs to the Loss measure/, 'method.gsFactor'],
      [{ measure: 'precision', attributeWeights: [{ column: 'age', weight: 1 }] }, /attribute weights belong to the Loss measure/, 'method.attributeWeights'],
      [{ gsFactor: 1.5 }, /generalization\/suppression factor is a share in \[0, 1\]/, 'method.gsFactor'],
      [{ attributeWeights: [{ column: 'age', weight: 1 }, { column: 'age', weight: 0.5 }] }, /"age" is weighed twice/, 'method.attributeWeights[1].column'],
    ];
    for (const [method, message, key] of cases) {
      const { dir, path } = adultJob(method);
      const r = run(path);
      expect(r.status, JSON.stringify(method) + r.stdout).toBe(2);
      const error = JSON.parse(r.stdout).error;
      expect(error.message).toMatch(message);
      expect(JSON.stringify(error)).toContain(key);
      expect(readdirSync(dir)).toEqual(['job.json']);
    }
  });
});

describe('global recoding: several sensitive columns, each model on its own', () => {
  const quasi = { 'salary-class': 'sensitive' };
  it('runs distinct 3-diversity on occupation and 0.1-closeness on salary-class together, states each on its column, and verify re-checks both from the release', () => {
    const { dir, path } = adultJob(
      {
        models: [{ type: 'k-anonymity', k: 5 }, { type: 'l-diversity', l: 3, attribute: 'occupation' }, { type: 't-closeness', t: 0.1, attribute: 'salary-class' }],
        suppressionLimit: 0,
        hierarchies: Object.fromEntries(QUASI.filter((q) => q !== 'salary-class').map((q) => [q, resolve('resources/adult', `adult_hierarchy_${q}.csv`)])),
      },
      { ...quasi, occupation: 'sensitive' },
    );
    const r = run(path);
    expect(r.status, r.stderr + r.stdout).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.guarantee.name).toMatch(/5-anonymity and distinct 3-diversity on occupation and 0\.1-closeness \(equal distance\) on salary-class/);
    expect(report.guarantee.holds).toBe(true);
    // From the released file: every class has ≥ 3 occupations, and salary-class within 0.1 of the input's (nothing was suppressed, so the release's distribution is the input's).
    const lines = readFileSync(join(dir, 'out', 'release.csv'), 'utf8').trim().split('\r\n');
    const header = lines[0]!.split(',');
    const rows = lines.slice(1).map((l) => l.split(','));
    const at = (name: string) => header.indexOf(name);
    const key = QUASI.filter((q) => q !== 'salary-class').map(at);
    const classes = new Map<string, string[][]>();
    for (const row of rows) {
      const k = key.map((i) => row[i]).join('\u0000');
      const members = classes.get(k);
      if (members) members.push(row);
      else classes.set(k, [row]);
    }
    const overall = new Map<string, number>();
    for (const row of rows) overall.set(row[at('salary-class')]!, (overall.get(row[at('salary-class')]!) ?? 0) + 1 / rows.length);
    for (const members of classes.values()) {
      expect(new Set(members.map((m) => m[at('occupation')])).size).toBeGreaterThanOrEqual(3);
      let distance = 0;
      for (const [value, p] of overall) distance += Math.abs(members.filter((m) => m[at('salary-class')] === value).length / members.length - p);
      expect(distance / 2).toBeLessThanOrEqual(0.1 + 1e-12);
    }
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(dir, 'out'), '--accept-test-randomness', '--json', '--internal', join(dir, 'out-internal')], { encoding: 'utf8' });
    expect(verify.stdout).toMatch(/distinct 3-diversity on occupation/);
    expect(verify.stdout).toMatch(/0\.1-closeness \(equal distance\) on salary-class/);
    expect(verify.status, verify.stdout).toBe(0);
  });

  it('refuses a model without its column when several are sensitive, and one naming a column not marked sensitive (exit 2, the key named, nothing written)', () => {
    const cases: [Record<string, unknown>, Record<string, string>, RegExp, string][] = [
      [{ models: [{ type: 'l-diversity', l: 2 }] }, { occupation: 'sensitive', race: 'sensitive' }, /2 columns are marked sensitive: name the one this model applies to \("attribute": one of "race", "occupation"\)/, 'method.models.0.attribute'],
      [{ models: [{ type: 'k-anonymity', k: 2 }, { type: 'beta-likeness', beta: 1, attribute: 'education' }] }, { occupation: 'sensitive' }, /"education" is not a sensitive column/, 'method.models.1.attribute'],
    ];
    for (const [method, attributes, message, key] of cases) {
      const { dir, path } = adultJob(method, attributes);
      const r = run(path);
      expect(r.status, JSON.stringify(method) + r.stdout).toBe(2);
      const error = JSON.parse(r.stdout).error;
      expect(error.message).toMatch(message);
      expect(error.key).toBe(key);
      expect(readdirSync(dir)).toEqual(['job.json']);
    }
  });
});
