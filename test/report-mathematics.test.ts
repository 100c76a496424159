import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = resolve('bin/custos.mjs');

describe('the report says it in plain words first, the mathematics in an appendix', () => {
  it('the guarantee\'s formula is in "The mathematics", after the plain sections, not beside the guarantee\'s sentence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-maths-'));
    const rows = ['age,sex,diagnosis'];
    for (let i = 0; i < 60; i++) rows.push(`${20 + (i % 5)},${i % 2 ? 'f' : 'm'},${['flu', 'cold', 'HIV'][i % 3]}`);
    writeFileSync(join(dir, 'people.csv'), rows.join('\n') + '\n');
    const job = { version: 1, input: { path: 'people.csv' }, attributes: { age: 'quasi', sex: 'quasi', diagnosis: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.7, domains: { diagnosis: ['flu', 'cold', 'HIV'] } }, output: { dir: 'release', formats: ['csv'], report: ['html', 'json'] } };
    writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
    const env = { ...process.env };
    delete env['CUSTOS_TEST_RANDOMNESS'];
    const run = spawnSync(process.execPath, [BIN, 'run', 'job.json'], { encoding: 'utf8', cwd: dir, env });
    expect(run.status, run.stderr).toBe(0);
    const html = readFileSync(join(dir, 'release', 'report.html'), 'utf8');
    const report = JSON.parse(readFileSync(join(dir, 'release', 'report.json'), 'utf8')) as { guarantee: { formula: string } };
    const escaped = report.guarantee.formula.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const guarantee = html.indexOf('<h2>Guarantee');
    const mathematics = html.indexOf('<h2>The mathematics</h2>');
    expect(guarantee).toBeGreaterThan(0);
    expect(mathematics).toBeGreaterThan(html.indexOf('<h2>Method and parameters</h2>'));
    expect(html.indexOf(escaped)).toBeGreaterThan(mathematics);
    expect(html.slice(guarantee, mathematics)).not.toContain(escaped);
    // verify writes the report again with the same code, byte for byte.
    const verify = spawnSync(process.execPath, [BIN, 'verify', 'release'], { encoding: 'utf8', cwd: dir, env });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
  });
});
