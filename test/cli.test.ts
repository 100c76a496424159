import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCensus } from '../bench/gen-census.js';
import { TEST_STAMP_COLUMN } from '../src/jobs/method-kit/release-view.js';
import { ACCEPT_REVIEW } from './accept-review.js';

const CLI = resolve('dist/cli/custos.mjs');
const ADULT = resolve('resources/adult/adult.csv');
const ADULT_SHA = 'c700df9304fbf3c4d4db5938bffc510561bd4a2dfad285a3feef9a20619391c5';

function custos(args: string[], env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const TEST_ENV = { CUSTOS_TEST_RANDOMNESS: '1' };

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'custos-cli-'));
}

function writeJob(dir: string, job: Record<string, unknown>): string {
  const path = join(dir, 'job.json');
  writeFileSync(path, JSON.stringify(job));
  return path;
}

const adultJob = (method: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  version: 1,
  input: { path: ADULT, missing: ['', '?'] },
  attributes: { occupation: 'sensitive', 'salary-class': 'insensitive' },
  method,
  // Tests of folders, signals and formats: the disclosure review is tested in test/review/.
  review: ACCEPT_REVIEW,
  ...extra,
  output: { dir: 'out', formats: ['csv', 'xlsx'], report: ['html', 'json'], ...(extra.output as object | undefined) },
});

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('custos inspect', () => {
  it('prints rows, columns, types, distinct and missing counts, encoding and delimiter', () => {
    const r = custos(['inspect', ADULT, '--json']);
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.rows).toBe(30162);
    expect(info.delimiter).toBe(';');
    expect(info.encoding).toBe('utf-8');
    expect(info.sha256).toBe(ADULT_SHA);
    expect(info.columns).toHaveLength(9);
    expect(info.columns.find((c: { name: string }) => c.name === 'age')).toEqual({ name: 'age', type: 'integer', distinct: 72, missing: 0 });
    expect(info.columns.find((c: { name: string }) => c.name === 'occupation').distinct).toBe(14);
  });

  it('a malformed file exits 3 with the line number', () => {
    const dir = workdir();
    const path = join(dir, 'bad.csv');
    writeFileSync(path, 'a,b\n1,2\n3,4,5\n');
    const r = custos(['inspect', path]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/bad\.csv:3: 3 fields where the header has 2/);
    expect(r.stderr).toMatch(/give them with --delimiter and --encoding/);
  });

  it('a workbook whose first sheet is notes opens its data sheet; --sheet Notes exits 3 naming the sheet and listing the others; a missing file gets no delimiter advice', () => {
    const dir = workdir();
    const XLSX = createRequire(import.meta.url)('xlsx') as typeof import('xlsx');
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Confidential survey'], ['Generated', '2025-01-05']]), 'Notes');
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['id', 'sex'], [1, 'F'], [2, 'M']]), 'Data 2025');
    const path = join(dir, 'survey.xlsx');
    XLSX.writeFile(book, path);
    const opened = custos(['inspect', path, '--json']);
    expect(opened.code).toBe(0);
    expect(JSON.parse(opened.stdout)).toMatchObject({ sheet: 'Data 2025', rows: 2 });
    const r = custos(['inspect', path, '--sheet', 'Notes']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('survey.xlsx (sheet "Notes"):2: ');
    expect(r.stderr).toContain('the workbook\'s sheets are "Notes", "Data 2025": choose the one holding the table with --sheet');
    expect(r.stderr).not.toMatch(/delimiter/);
    expect(custos(['inspect', path, '--sheet', 'Data 2025']).code).toBe(0);
    const gone = custos(['inspect', join(dir, 'gone.csv')]);
    expect(gone.code).toBe(3);
    expect(gone.stderr).not.toMatch(/delimiter/);
  });

  it('a header with an empty and a repeated name (pandas to_csv) is read under column_<n> and <name>_2 by inspect, init and run alike, with a warning and a line in the internal report', () => {
    const dir = workdir();
    const path = join(dir, 'pandas.csv');
    const lines = [',region,region,diagnosis'];
    for (let i = 0; i < 200; i++) lines.push(`${i},${['N', 'S'][i % 2]},${['a', 'b', 'c'][i % 3]},${['flu', 'cold', 'HIV', 'asthma'][i % 4]}`);
    writeFileSync(path, lines.join('\n') + '\n');
    const text = custos(['inspect', path]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('warning: The header has 2 columns without a name of its own, named here so the job and the release can refer to them: column 1 (no name in the header) is read as "column_1"; column 3 ("region" again) is read as "region_2".');
    const json = JSON.parse(custos(['inspect', path, '--json']).stdout);
    expect(json.columns.map((c: { name: string }) => c.name)).toEqual(['column_1', 'region', 'region_2', 'diagnosis']);
    expect(json.renamedColumns).toEqual([
      { column: 1, from: '', to: 'column_1' },
      { column: 3, from: 'region', to: 'region_2' },
    ]);
    const init = custos(['init', path]);
    expect(init.code).toBe(0);
    expect(init.stderr).toContain('column 3 ("region" again) is read as "region_2"');
    const job = JSON.parse(init.stdout);
    expect(Object.keys(job.attributes)).toEqual(expect.arrayContaining(['column_1', 'region', 'region_2', 'diagnosis']));
    const jobPath = writeJob(dir, { version: 1, input: { path }, attributes: { column_1: 'identifier', region: 'quasi', region_2: 'quasi', diagnosis: 'sensitive' }, method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { diagnosis: 'from-data' } }, output: { dir: 'out', formats: ['csv'], report: ['json'] } });
    const run = custos(['run', jobPath, '--json'], TEST_ENV);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(dir, 'out', 'release.csv'), 'utf8').split(/\r?\n/)[0]).toMatch(/^region,region_2,diagnosis/);
    const internal = JSON.parse(readFileSync(join(dir, 'out-internal', 'internal-report.json'), 'utf8'));
    expect(internal.input.renamedColumns).toEqual(json.renamedColumns);
    expect(internal.warnings.join('\n')).toContain('column 1 (no name in the header) is read as "column_1"');
    // The public report does not carry the internal note.
    expect(JSON.stringify(JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')).input)).not.toContain('renamedColumns');
  });
});

describe('custos run: reconstruction privacy on the Adult data', () => {
  it('writes a stamped release and a report with every required field', () => {
    const dir = workdir();
    const job = writeJob(dir, adultJob({ type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { occupation: 'from-data' } }));
    const r = custos(['run', job, '--json', '--test-seed', '1'], TEST_ENV);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = join(dir, 'out');
    const report = JSON.parse(readFileSync(join(dir, 'out-internal', 'internal-report.json'), 'utf8'));
    expect(JSON.parse(r.stdout).input.sha256).toBe(ADULT_SHA);
    expect(report.input.sha256).toBe(ADULT_SHA);
    expect(report.input.rows).toBe(30162);
    expect(report.variant).toBe('internal');
    expect(report.method.type).toBe('reconstruction-privacy');
    expect(report.guarantee.holds).toBe(true);
    expect(report.testRandomness).toBe(true);
    expect(report.risk.microGroups).toBeGreaterThan(1000);
    expect(report.risk.violatingBefore).toBeGreaterThan(0);
    expect(report.risk.violatingAfter).toBe(0);
    expect(report.utility.relativeError.uniformPerturbation).toBeGreaterThan(0);
    expect(report.utility.relativeError.reconstructionPrivacy).toBeGreaterThan(0);
    expect(report.risk.bySensitive[0].queries).toBe(5000);
    const names = report.output.files.map((f: { name: string }) => f.name);
    expect(names).toEqual(['release.csv', 'release.xlsx', 'job.json', 'report.html', 'report.json']);
    for (const f of report.output.files) expect(sha(join(out, f.name))).toBe(f.sha256);
    expect(readdirSync(out).sort()).toEqual([...names, 'manifest.json'].sort());
    expect(readdirSync(join(dir, 'out-internal')).sort()).toEqual(['internal-report.html', 'internal-report.json', 'internal-report.xlsx', 'job.json', 'manifest.json']);
    const lines = readFileSync(join(out, 'release.csv'), 'utf8').trimEnd().split('\r\n');
    expect(lines[0]!.split(',')[0]).toBe(TEST_STAMP_COLUMN);
    expect(lines.length - 1).toBe(report.output.rows);
    expect(Math.abs(report.output.rows - 30162)).toBeLessThan(300);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('NOT A PROTECTED RELEASE');
    expect(html).toContain('(ε,δ)-reconstruction privacy');
    expect(readdirSync(dir).sort()).toEqual(['job.json', 'out', 'out-internal']);
  });

  it('with strict: false, a release whose groups fail the test never says the test holds', () => {
    const dir = workdir();
    const job = writeJob(dir, adultJob({ type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, strict: false, domains: { occupation: 'from-data' } }, { output: { formats: ['csv'] } }));
    const r = custos(['run', job, '--json', '--test-seed', '3'], TEST_ENV);
    expect(r.code, r.stderr).toBe(0);
    const internal = JSON.parse(r.stdout);
    expect(internal.risk.violatingAfter).toBeGreaterThan(0);
    expect(internal.guarantee.holds).toBe(false);
    const external = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    for (const text of [internal.guarantee.statement, external.guarantee.statement, ...external.summary]) {
      expect(text).not.toMatch(/Every micro group|no adversary can reconstruct/);
    }
    expect(external.guarantee.statement).toMatch(/do NOT pass .*compares bounds, not exact probabilities/);
  });

  it('the same test seed reproduces the same release; the input is untouched', () => {
    const dir = workdir();
    const job = writeJob(dir, adultJob({ type: 'reconstruction-privacy', retention: 0.7, epsilon: 0.3, delta: 0.3, bound: 'full', domains: { occupation: 'from-data' } }, { output: { formats: ['csv'] } }));
    expect(custos(['run', job, '--test-seed', '5', '--out', join(dir, 'a')], TEST_ENV).code).toBe(0);
    expect(custos(['run', job, '--test-seed', '5', '--out', join(dir, 'b')], TEST_ENV).code).toBe(0);
    expect(sha(join(dir, 'a', 'release.csv'))).toBe(sha(join(dir, 'b', 'release.csv')));
    expect(sha(ADULT)).toBe(ADULT_SHA);
  });

  it('drops identifiers and gives each sensitive attribute its own release', () => {
    const dir = workdir();
    const job = writeJob(
      dir,
      adultJob(
        { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { occupation: 'from-data', education: 'from-data' } },
        { attributes: { occupation: 'sensitive', education: 'sensitive', 'native-country': 'identifier' }, output: { formats: ['csv'] } },
      ),
    );
    const r = custos(['run', job, '--json', '--test-seed', '2'], TEST_ENV);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.risk.bySensitive.map((s: { column: string }) => s.column)).toEqual(['education', 'occupation']);
    const header = readFileSync(join(dir, 'out', 'release-occupation.csv'), 'utf8').split('\r\n')[0]!.split(',');
    expect(header).not.toContain('native-country');
    expect(header).not.toContain('education');
    expect(header).toContain('occupation');
    expect(report.risk.violatingAfter).toBe(0);
  });

  it('uniform perturbation derives p from ρ1–ρ2 and reports the leaking groups', () => {
    const dir = workdir();
    const job = writeJob(dir, adultJob({ type: 'uniform-perturbation', rho1: 0.1, rho2: 0.5, domains: { occupation: 'from-data' } }, { output: { formats: ['csv'] } }));
    const r = custos(['run', job, '--json', '--test-seed', '3'], TEST_ENV);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    // m = 14: γ = 9, p = 8/22 = 4/11.
    expect(report.risk.bySensitive[0].retentionExact).toBe('4/11');
    expect(report.guarantee.rho).toEqual({ rho1: 0.1, rho2: 0.5 });
    expect(report.risk.violatingAfter).toBe(report.risk.violatingBefore);
    expect(report.output.rows).toBe(30162);
  });
});

describe('custos assess and errors', () => {
  it('assess writes nothing and reports the same structure', () => {
    const dir = workdir();
    const job = writeJob(dir, adultJob({ type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { occupation: 'from-data' } }));
    const r = custos(['assess', job, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.kind).toBe('assessment');
    expect(report.risk.violatingBefore).toBeGreaterThan(0);
    expect(report.testRandomness).toBe(false);
    expect(readdirSync(dir)).toEqual(['job.json']);
  });

  it('an invalid job exits 2 naming the key and leaves no output', () => {
    const dir = workdir();
    const job = writeJob(dir, adultJob({ type: 'reconstruction-privacy', retention: 1.5, epsilon: 0.5, delta: 0.3 }));
    const r = custos(['run', job, '--json']);
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stdout).error;
    expect(error.key).toBe('method.retention');
    expect(readdirSync(dir)).toEqual(['job.json']);
  });

  it('an ε beyond the valid range exits 2 and states the largest valid ε', () => {
    const dir = workdir();
    const job = writeJob(dir, adultJob({ type: 'reconstruction-privacy', retention: 0.5, epsilon: 1.2, delta: 0.3, domains: { occupation: 'from-data' } }));
    const r = custos(['run', job]);
    expect(r.code).toBe(2);
    // 1 + ((1−p)/m)/(p·1) with m = 14, p = 0.5.
    expect(r.stderr).toMatch(/method\.epsilon: .*largest valid ε here is 1\.071428/);
    expect(readdirSync(dir)).toEqual(['job.json']);
  });

  it('an unknown column in attributes exits 2 naming it', () => {
    const dir = workdir();
    const job = writeJob(dir, adultJob({ type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3 }, { attributes: { diagnosis: 'sensitive' } }));
    const r = custos(['run', job]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/attributes\.diagnosis: the input has no column "diagnosis"/);
  });

  it('a malformed input exits 3 with the line number and no output folder', () => {
    const dir = workdir();
    writeFileSync(join(dir, 'bad.csv'), 'q,s\na,x\nb,y\n"c,z\n');
    const job = writeJob(dir, { version: 1, input: { path: 'bad.csv' }, attributes: { s: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5 } });
    const r = custos(['run', job]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/bad\.csv:4:1: a quoted field is never closed/);
    expect(readdirSync(dir).sort()).toEqual(['bad.csv', 'job.json']);
  });

  it('--test-seed is refused without CUSTOS_TEST_RANDOMNESS=1', () => {
    const dir = workdir();
    const job = writeJob(dir, adultJob({ type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }));
    const r = custos(['run', job, '--test-seed', '1'], { CUSTOS_TEST_RANDOMNESS: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/CUSTOS_TEST_RANDOMNESS=1/);
    expect(readdirSync(dir)).toEqual(['job.json']);
  });

  it('refuses to overwrite a folder that is not a release', () => {
    const dir = workdir();
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    const job = writeJob(dir, adultJob({ type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, { output: { dir: '.' } }));
    const r = custos(['run', job]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a folder Custos wrote/);
    expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('never deletes a folder holding report.json and the confidential input (the old release marker)', () => {
    const dir = workdir();
    writeFileSync(join(dir, 'patients.csv'), readFileSync(ADULT));
    writeFileSync(join(dir, 'report.json'), '{}');
    const job = writeJob(dir, { ...adultJob({ type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, { output: { dir: '.' } }), input: { path: 'patients.csv', missing: ['', '?'] } });
    const r = custos(['run', job]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/output\.dir: .*not a folder Custos wrote/);
    expect(readdirSync(dir).sort()).toEqual(['job.json', 'patients.csv', 'report.json']);
    // An empty folder that holds the input's folder is refused too.
    const around = workdir();
    mkdirSync(join(around, 'data'));
    writeFileSync(join(around, 'data', 'patients.csv'), readFileSync(ADULT));
    const job3 = join(around, 'data', 'job.json');
    writeFileSync(job3, JSON.stringify({ ...adultJob({ type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }), input: { path: 'patients.csv', missing: ['', '?'] }, output: { dir: '.' } }));
    const r3 = custos(['run', job3]);
    expect(r3.code).toBe(2);
    expect(existsSync(join(around, 'data', 'patients.csv'))).toBe(true);
    // An input named through a link to a file inside an earlier release: that release folder holds the input.
    const linked = workdir();
    const first = writeJob(linked, { ...adultJob({ type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, { output: { dir: 'out', formats: ['csv'], report: ['json'] } }) });
    expect(custos(['run', first]).code).toBe(0);
    symlinkSync(join(linked, 'out', 'release.csv'), join(linked, 'inlink.csv'));
    const second = join(linked, 'second.json');
    writeFileSync(second, JSON.stringify({ ...adultJob({ type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }), attributes: { occupation: 'sensitive' }, input: { path: 'inlink.csv' }, output: { dir: 'out', formats: ['csv'], report: ['json'] } }));
    const r4 = custos(['run', second]);
    expect(r4.code, r4.stderr).toBe(2);
    expect(r4.stderr).toMatch(/the folder of the input .*inlink\.csv \(a link to a file in .*out\)/);
    expect(existsSync(join(linked, 'out', 'release.csv'))).toBe(true);
  });

  it('a column named __proto__ marked identifier is dropped, and constructor/toString are ordinary columns', () => {
    const dir = workdir();
    writeFileSync(join(dir, 'people.csv'), ['__proto__,constructor,toString,occupation', ...Array.from({ length: 40 }, (_, i) => `SSN-${100 + i},${i % 3},${i % 2 ? 'a' : 'b'},${['x', 'y', 'z'][i % 3]}`)].join('\n') + '\n');
    writeFileSync(
      join(dir, 'job.json'),
      '{"version": 1, "input": {"path": "people.csv"}, "attributes": {"__proto__": "identifier", "constructor": "quasi", "toString": "insensitive", "occupation": "sensitive"}, "method": {"type": "uniform-perturbation", "retention": 0.5, "domains": {"occupation": "from-data"}}, "output": {"dir": "out", "formats": ["csv"]}}',
    );
    const r = custos(['run', join(dir, 'job.json'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const release = readFileSync(join(dir, 'out', 'release.csv'), 'utf8');
    expect(release).not.toContain('SSN-');
    expect(release.split('\r\n')[0]).toBe('constructor,toString,occupation');
    // The internal job keeps the job-file form, `__proto__` as an ordinary key; the published job names
    // released columns only (an identifier's name is a fact of the input), and verify agrees.
    const internalJob = JSON.parse(readFileSync(join(dir, 'out-internal', 'job.json'), 'utf8')) as { attributes: object };
    expect(Object.entries(internalJob.attributes)).toContainEqual(['__proto__', 'identifier']);
    const published = JSON.parse(readFileSync(join(dir, 'out', 'job.json'), 'utf8')) as { attributes: object };
    expect(Object.entries(published.attributes)).toEqual([['constructor', 'quasi'], ['toString', 'insensitive'], ['occupation', 'sensitive']]);
    const verified = custos(['verify', join(dir, 'out')]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });

  it('replaces its own earlier release, but not once a user added a note to it', () => {
    const dir = workdir();
    const job = writeJob(dir, adultJob({ type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, { output: { formats: ['csv'] } }));
    expect(custos(['run', job, '--test-seed', '1'], TEST_ENV).code).toBe(0);
    const first = readFileSync(join(dir, 'out', 'manifest.json'), 'utf8');
    expect(custos(['run', job, '--test-seed', '2'], TEST_ENV).code).toBe(0);
    expect(readFileSync(join(dir, 'out', 'manifest.json'), 'utf8')).not.toBe(first);
    writeFileSync(join(dir, 'out', 'notes.txt'), 'reviewed by J.');
    const r = custos(['run', job, '--test-seed', '3'], TEST_ENV);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/notes\.txt/);
    expect(readFileSync(join(dir, 'out', 'notes.txt'), 'utf8')).toBe('reviewed by J.');
    expect(readdirSync(dir).sort()).toEqual(['job.json', 'out', 'out-internal']);
  });

  it.each(['SIGINT', 'SIGHUP'] as const)('%s during a run (Ctrl-C, or a closed terminal) leaves no partial output', async (signal) => {
    const dir = workdir();
    const data = join(dir, 'census.csv');
    const fd = openSync(data, 'w');
    writeCensus(fd, { rows: 600_000, seed: 3, jitter: 2, regions: 50, seedFile: ADULT });
    closeSync(fd);
    const job = writeJob(dir, {
      version: 1, input: { path: 'census.csv' }, attributes: { occupation: 'sensitive' },
      method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { occupation: 'from-data' } }, output: { dir: 'out' }, review: ACCEPT_REVIEW,
    });
    const child = spawn(process.execPath, [CLI, 'run', job], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    // Interrupt while the outputs are being written: the staging folder exists and must vanish.
    const deadline = Date.now() + 30_000;
    while (!readdirSync(dir).some((name) => name.includes('custos-tmp')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(readdirSync(dir).some((name) => name.includes('custos-tmp'))).toBe(true);
    child.kill(signal);
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).toBe(130);
    expect(stderr).toMatch(/cancel/);
    expect(readdirSync(dir).sort()).toEqual(['census.csv', 'job.json']);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});
