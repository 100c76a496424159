import { spawnSync } from 'node:child_process';
import { rehashRelease } from './insider-rehash.js';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCEPT_REVIEW } from './accept-review.js';

const CLI = resolve('dist/cli/custos.mjs');
const ADULT = resolve('resources/adult/adult.csv');
const QUASI = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'salary-class'];

function custos(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function writeJob(method: Record<string, unknown>, input: Record<string, unknown> = { path: ADULT, delimiter: ';', missing: ['', '?'] }): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-ma-'));
  const attributes = Object.fromEntries([...QUASI.map((q) => [q, 'quasi']), ['occupation', 'insensitive']]);
  writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input, attributes, method, output: { dir: 'out', formats: ['csv'], report: ['json', 'html'] }, review: ACCEPT_REVIEW }));
  return dir;
}

/** The release's rows as cell arrays, and its header. */
function released(dir: string): { header: string[]; rows: string[][] } {
  const lines = readFileSync(join(dir, 'release.csv'), 'utf8').trim().split('\r\n');
  return { header: lines[0]!.split(','), rows: lines.slice(1).map((l) => l.split(',')) };
}

/** Edits a released file and fixes its checksums in report.json and the manifest, so only the content checks can tell. */
function tamperAndRehash(dir: string, file: string, edit: (text: string) => string): void {
  writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
  rehashRelease(dir, [file]);
}

function verify(dir: string): { code: number; failed: string[]; stdout: string } {
  const r = custos(['verify', dir, '--json', '--accept-test-randomness']);
  const result = JSON.parse(r.stdout);
  return { code: r.code, failed: result.checks.filter((c: { ok: boolean }) => !c.ok).map((c: { name: string }) => c.name), stdout: r.stdout };
}

describe('custos run: microaggregation (MDAV) of Adult', () => {
  let out = '';
  /** The fields of the internal report these tests read. */
  interface RunReport {
    readonly guarantee: { readonly holds: boolean; readonly statement: string };
    readonly method: { readonly derived: Readonly<Record<string, string | number>>; readonly internal: Readonly<Record<string, number>> };
    readonly warnings: readonly string[];
  }
  let report = {} as RunReport;
  let elapsed = 0;
  beforeAll(() => {
    const dir = writeJob({ type: 'microaggregation', columns: ['age'], k: 5 });
    const started = performance.now();
    const r = custos(['run', join(dir, 'job.json'), '--json', '--test-seed', '4']);
    elapsed = performance.now() - started;
    expect(r.code, r.stderr).toBe(0);
    report = JSON.parse(r.stdout) as RunReport;
    out = join(dir, 'out');
  });

  it('releases every record with age shared by at least k = 5, other columns as they were', () => {
    console.log(`custos run of MDAV on Adult's age, k = 5: ${elapsed.toFixed(0)} ms; internal ${JSON.stringify(report.method.internal)}`);
    expect(report.guarantee.holds).toBe(true);
    expect(report.guarantee.statement).toMatch(/no differential-privacy guarantee/);
    const { header, rows } = released(out);
    expect(rows.length).toBe(30162);
    const age = header.indexOf('age');
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row[age]!, (counts.get(row[age]!) ?? 0) + 1);
    expect(Math.min(...counts.values())).toBeGreaterThanOrEqual(5);
    expect(counts.size).toBe(report.method.derived['aggregatedClasses']);
    // The released ages keep the input's mean up to the rounding of each group's mean (2 places).
    const input = readFileSync(ADULT, 'utf8').trim().split('\n').slice(1).map((l) => Number(l.split(';')[1]));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(Math.abs(mean(rows.map((r) => Number(r[age]))) - mean(input))).toBeLessThan(0.005);
    // The other columns are the input's, record for record up to the order: their value counts agree.
    const sex = header.indexOf('sex');
    expect(rows.filter((r) => r[sex] === 'Female').length).toBe(readFileSync(ADULT, 'utf8').split('\n').filter((l) => l.startsWith('Female;')).length);
    expect(report.method.internal['sseOverSst']).toBeGreaterThanOrEqual(0);
    expect(report.method.internal['sseOverSst']).toBeLessThan(0.01);
    expect(report.method.internal['il1s']).toBeGreaterThan(0);
    expect(report.warnings.join(' ')).toMatch(/k-anonymous on "age" only/);
  });

  it('publishes no confidential figure: the information loss and the group count stay internal', () => {
    const external = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(external.method.internal).toBeUndefined();
    expect(external.risk.reidentification.original).toBeUndefined();
    // Counts of the release itself (its 30,162 records, its classes) may be published; the loss and MDAV's groups may not.
    expect(JSON.stringify(external)).not.toMatch(/sseOverSst|il1s|IL1s = |SSE\/SST = |"groups"/);
  });

  it('the reports have a microaggregation section: the loss in the internal one only', () => {
    const published = readFileSync(join(out, 'report.html'), 'utf8');
    expect(published).toMatch(/<h2>Microaggregation<\/h2>/);
    expect(published).toMatch(/Released combinations of the aggregated columns/);
    expect(published).not.toMatch(/Information loss \(internal\)/);
    const internal = readFileSync(join(`${out}-internal`, 'internal-report.html'), 'utf8');
    const shown = /Information loss \(internal\)<\/th><td>([^ <]+)/.exec(internal)?.[1];
    expect(Number(shown)).toBeCloseTo(report.method.internal['sseOverSst']!, 8);
  });

  it('verify re-checks k from the release, and fails a release with one age changed', () => {
    const ok = verify(out);
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toMatch(/k = 5 on the aggregated columns/);
    const target = mkdtempSync(join(tmpdir(), 'custos-ma-tamper-'));
    cpSync(out, target, { recursive: true });
    cpSync(`${out}-internal`, `${target}-internal`, { recursive: true });
    // One record's age set to a value no other record holds: a class of one.
    tamperAndRehash(target, 'release.csv', (text) => {
      const lines = text.split('\r\n');
      const header = lines[0]!.split(',');
      const cells = lines[1]!.split(',');
      cells[header.indexOf('age')] = '123.45';
      lines[1] = cells.join(',');
      return lines.join('\r\n');
    });
    const bad = verify(target);
    expect(bad.code).not.toBe(0);
    // The internal report's checksums tell the edit too, and report.html (which lists the files'
    // checksums) is no longer the rendering of the re-hashed report.json; without the internal
    // report, the content check and the rendering still do; so does the disclosure review, whose
    // published classes on the quasi-identifiers are no longer the released file's.
    expect(bad.failed).toEqual(['internal report is of this release', 'report.html written again', 'disclosure review', 'k = 5 on the aggregated columns']);
    rmSync(`${target}-internal`, { recursive: true });
    expect(verify(target).failed).toEqual(['report.html written again', 'disclosure review', 'k = 5 on the aggregated columns']);
  });

  it('refuses a non-numeric column, naming the column and the record', () => {
    const dir = writeJob({ type: 'microaggregation', columns: ['age', 'workclass'], k: 5 });
    const r = custos(['run', join(dir, 'job.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/column "workclass" holds "State-gov", not a number at record 1 \(line 2/);
  });

  it('refuses a missing value, naming the column and the record', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-ma-missing-'));
    writeFileSync(join(dir, 'in.csv'), 'x,y\n1,2\n2,\n3,4\n4,5\n');
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: join(dir, 'in.csv') }, attributes: {}, method: { type: 'microaggregation', columns: ['x', 'y'], k: 2 }, output: { dir: 'out', formats: ['csv'], report: ['json'] } }));
    const r = custos(['run', join(dir, 'job.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/column "y" holds a missing value at record 2 \(line 3/);
  });
});

describe('custos run: partitioned MDAV (MDAV within blocks) of Adult', () => {
  it('releases groups of at least k, and verify reruns it on the original and accepts the release, failing one with a value changed', () => {
    const dir = writeJob({ type: 'microaggregation', columns: ['age'], k: 5, algorithm: 'partitioned-mdav', blockSize: 1000 });
    const r = custos(['run', join(dir, 'job.json'), '--json', '--test-seed', '4']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { guarantee: { holds: boolean; statement: string }; method: { parameters: Record<string, unknown> } };
    expect(report.guarantee.holds).toBe(true);
    expect(report.guarantee.statement).toMatch(/partitioned MDAV \(MDAV within blocks of records\)/);
    expect(report.method.parameters).toMatchObject({ algorithm: 'partitioned-mdav', blockSize: 1000 });
    const out = join(dir, 'out');
    const withOriginal = (release: string) => {
      const v = custos(['verify', release, '--json', '--accept-test-randomness', '--original', ADULT]);
      return { code: v.code, checks: JSON.parse(v.stdout).checks as { name: string; ok: boolean; detail?: string }[] };
    };
    const ok = withOriginal(out);
    expect(ok.checks.filter((c) => !c.ok)).toEqual([]);
    expect(ok.code).toBe(0);
    expect(JSON.stringify(ok.checks.find((c) => c.name === 'release recomputed from the original'))).toMatch(/partitioned MDAV rerun on the original/);
    // Two records' ages swapped between groups: still k-anonymous, yet not the release partitioned MDAV gives.
    const target = mkdtempSync(join(tmpdir(), 'custos-pma-tamper-'));
    cpSync(out, target, { recursive: true });
    tamperAndRehash(target, 'release.csv', (text) => {
      const lines = text.split('\r\n');
      const age = lines[0]!.split(',').indexOf('age');
      const first = lines[1]!.split(',');
      const other = lines.findIndex((l, i) => i > 1 && l !== '' && l.split(',')[age] !== first[age]);
      const second = lines[other]!.split(',');
      [first[age], second[age]] = [second[age]!, first[age]!];
      lines[1] = first.join(',');
      lines[other] = second.join(',');
      return lines.join('\r\n');
    });
    expect(withOriginal(target).checks.filter((c) => !c.ok).map((c) => c.name)).toContain('release recomputed from the original');
  });
});

