import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editDistance, likelyMethod, normalizeMethodName } from '../../src/common/method-names.js';
import { MECHANISM_DEFINITIONS } from '../../src/mechanisms/definitions.js';
import { jobSchema } from '../../src/mechanisms/job-schema.js';

const METHODS = MECHANISM_DEFINITIONS.map((d) => d.metadata);
const BIN = resolve('bin/custos.mjs');

describe('one name per method, and the names people type', () => {
  it('the common names and near misses point to the method type', () => {
    expect(likelyMethod('k-anonymity', METHODS)).toBe('global-recoding');
    expect(likelyMethod('K anonymity', METHODS)).toBe('global-recoding');
    expect(likelyMethod('randomized-response', METHODS)).toBe('uniform-perturbation');
    expect(likelyMethod('differential-privacy', METHODS)).toBe('dp-counts');
    expect(likelyMethod('β-privacy', METHODS)).toBe('beta-privacy');
    expect(likelyMethod('global-recodng', METHODS)).toBe('global-recoding');
    expect(likelyMethod('microagregation', METHODS)).toBe('microaggregation');
    expect(likelyMethod('magic', METHODS)).toBeUndefined();
    expect(likelyMethod('', METHODS)).toBeUndefined();
  });

  it('no alias is another method\'s type or alias, and every alias is written normalized', () => {
    const seen = new Map<string, string>();
    for (const m of METHODS) {
      for (const name of [m.type, ...m.aliases]) {
        expect(normalizeMethodName(name), name).toBe(name);
        expect(seen.get(name), `${name} of ${m.type}`).toBeUndefined();
        seen.set(name, m.type);
      }
    }
  });

  it('edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('a job file with method.type "k-anonymity" is refused at that key with the suggestion', () => {
    const parsed = jobSchema.safeParse({ input: { path: 'x.csv' }, attributes: {}, output: {}, method: { type: 'k-anonymity', k: 5 } });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues.find((i) => i.path.join('.') === 'method.type');
    expect(issue?.message).toMatch(/^unknown method "k-anonymity" \(did you mean global-recoding\?\); the methods are /);
  });

  it('custos init --method k-anonymity exits 2 naming the flag and the method meant; so does a run of such a job', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-names-'));
    writeFileSync(join(dir, 'people.csv'), 'age,sex,diagnosis\n30,f,flu\n40,m,cold\n');
    const init = spawnSync(process.execPath, [BIN, 'init', 'people.csv', '--method', 'k-anonymity'], { encoding: 'utf8', cwd: dir });
    expect(init.status).toBe(2);
    expect(init.stderr).toMatch(/--method: unknown method "k-anonymity" \(did you mean global-recoding\?\)/);
    expect(init.stdout).toBe('');
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ input: { path: 'people.csv' }, attributes: { age: 'quasi', sex: 'quasi', diagnosis: 'sensitive' }, method: { type: 'randomized-response', retention: 0.7 } }));
    const run = spawnSync(process.execPath, [BIN, 'assess', 'job.json'], { encoding: 'utf8', cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/method\.type: unknown method "randomized-response" \(did you mean uniform-perturbation\?\)/);
  });
});
