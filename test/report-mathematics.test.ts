import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/common/report/report-model.js';
import { reportHtml } from '../src/jobs/report-renderings.js';

const BIN = resolve('bin/custos.mjs');
const FIXTURES = resolve('test/fixtures/reports');

/** Symbols, formulas and the papers' numbering that belong in the appendix, not in a mechanism's section. */
const MATHEMATICS = /Lemma \d|Theorem \d|Algorithm \d|Σ|√|s_g|ε_sel|ε_eff|f_v|β_v|F′|SSE\/SST|\bNR\b|\bo1\b|Pr\[/;

/** A mechanism's sections: after the guarantee's section, before the method's parameters (whose labels keep the job's symbols). */
function methodSections(html: string): string {
  const start = html.indexOf('The formula is in “The mathematics” at the end.</p>');
  const end = html.indexOf('<h2>Method and parameters</h2>');
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return html.slice(start, end);
}

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

  const seeded = ['beta-internal', 'rp-internal', 'up-internal', 'safek-internal', 'partitioned-internal', 'dp2-internal', 'micro-internal', 'global-internal', 'chain-internal'];
  for (const name of seeded) {
    it(`${name}: the method's sections are in words; their symbols and the papers' numbering are in the appendix`, () => {
      const report = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Report;
      const html = reportHtml(report);
      const sections = methodSections(html);
      expect(sections.match(MATHEMATICS)?.[0] ?? null).toBeNull();
      const appendix = html.slice(html.indexOf('<h2>The mathematics</h2>'), html.indexOf('<h2>Provenance</h2>'));
      // The appendix holds more than the guarantee's formula: the mechanism's own mathematics.
      expect(appendix.match(/<h3>/g)?.length ?? 0).toBeGreaterThan(0);
    });
  }
  it("β-privacy's lemma and loss formula are in the appendix, with the exact condition", () => {
    const html = reportHtml(JSON.parse(readFileSync(join(FIXTURES, 'beta-internal.json'), 'utf8')) as Report);
    const appendix = html.slice(html.indexOf('<h2>The mathematics</h2>'));
    expect(appendix).toContain('Lemma 3.7');
    expect(appendix).toContain('f_v ≤ β_v for every value v');
    expect(appendix).toContain('loss = Σ_B |B|²;  MSE = Σ_B |B|² / n − 1');
  });
});
