import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const CLI = resolve('dist/cli/custos.mjs');
const ADULT = resolve('resources/adult/adult.csv');

function custos(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function release(method: Record<string, unknown>, output: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-verify-'));
  writeFileSync(
    join(dir, 'job.json'),
    JSON.stringify({
      version: 1,
      input: { path: ADULT },
      attributes: { occupation: 'sensitive', 'salary-class': 'insensitive' },
      method,
      output: { dir: 'out', formats: ['csv', 'xlsx'], report: ['html', 'pdf', 'json'], ...output },
    }),
  );
  const r = custos(['run', join(dir, 'job.json'), '--test-seed', '6']);
  expect(r.code, r.stderr).toBe(0);
  return join(dir, 'out');
}

function copy(dir: string): string {
  const target = mkdtempSync(join(tmpdir(), 'custos-tamper-'));
  cpSync(dir, target, { recursive: true });
  cpSync(`${dir}-internal`, `${target}-internal`, { recursive: true });
  return target;
}

function rehash(dir: string, file: string, listing: { files: { name: string; sha256: string; bytes: number }[] }): void {
  const path = join(dir, file);
  const entry = listing.files.find((f) => f.name === file);
  if (!entry) return;
  entry.sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
  entry.bytes = readFileSync(path).length;
}

/** An attacker who edits a file and fixes its checksum in report.json and the manifest, so only the content checks can tell. */
function tamperAndRehash(dir: string, file: string, edit: (text: string) => string): void {
  const path = join(dir, file);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  const reportPath = join(dir, 'report.json');
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  rehash(dir, file, report.output);
  writeFileSync(reportPath, JSON.stringify(report, null, 2));
  const manifestPath = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  rehash(dir, file, manifest);
  rehash(dir, 'report.json', manifest);
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
}

function verify(dir: string, extra: string[] = []): { code: number; failed: string[] } {
  const r = custos(['verify', dir, '--json', '--accept-test-randomness', ...extra]);
  const result = JSON.parse(r.stdout);
  return { code: r.code, failed: result.checks.filter((c: { ok: boolean }) => !c.ok).map((c: { name: string }) => c.name) };
}

// verify writes every file of a 30,162-row release again (workbook, PDF): minutes on a loaded machine.
describe('custos verify on a β-privacy release', { timeout: 240_000 }, () => {
  let dir: string;
  beforeAll(() => {
    dir = release({ type: 'beta-privacy', beta: { default: 0.25, values: { 'Armed-Forces': 0.5, 'Prof-specialty': 0.3 } }, fakeValues: 1, domains: { occupation: 'from-data' } });
  }, 240_000);

  it('passes on the untouched release, with and without the original', () => {
    expect(verify(dir)).toEqual({ code: 0, failed: [] });
    expect(verify(dir, ['--original', ADULT])).toEqual({ code: 0, failed: [] });
  });

  it('fails when a file changes, disappears or appears', () => {
    const changed = copy(dir);
    writeFileSync(join(changed, 'qit.csv'), readFileSync(join(changed, 'qit.csv'), 'utf8').replace('Male', 'Mail'));
    expect(verify(changed).failed).toContain('checksum qit.csv');
    const missing = copy(dir);
    rmSync(join(missing, 'st.csv'));
    expect(verify(missing).failed).toContain('checksum st.csv');
    const extra = copy(dir);
    writeFileSync(join(extra, 'notes.txt'), 'added later');
    expect(verify(extra).failed).toEqual(['no unlisted files']);
    const job = copy(dir);
    tamperAndRehash(job, 'job.json', (t) => t.replace('"fakeValues": 1', '"fakeValues": 2'));
    expect(verify(job).failed).toContain('job.json');
  });

  it("fails when the internal report is another run's: its files' checksums are not this release's", () => {
    const paired = copy(dir);
    const other = release({ type: 'beta-privacy', beta: { default: 0.25 }, fakeValues: 1, domains: { occupation: 'from-data' } });
    rmSync(`${paired}-internal`, { recursive: true });
    cpSync(`${other}-internal`, `${paired}-internal`, { recursive: true });
    expect(verify(paired).failed).toContain('internal report is of this release');
    expect(verify(copy(dir)).failed).not.toContain('internal report is of this release');
  });

  it('reads nothing that is not a regular file: a FIFO, a link to /dev/zero, a linked manifest or a report of null fail in time, never hang or crash', () => {
    const fifo = copy(dir);
    expect(spawnSync('mkfifo', [join(fifo, 'unlisted.csv')]).status).toBe(0);
    const a = spawnSync(process.execPath, [CLI, 'verify', fifo, '--json'], { encoding: 'utf8', timeout: 30_000 });
    expect(a.status, a.stderr).toBe(1);
    expect(JSON.parse(a.stdout).checks.find((c: { name: string }) => c.name === 'regular files only').detail).toMatch(/unlisted\.csv is a FIFO, socket or device/);
    const zero = copy(dir);
    rmSync(join(zero, 'qit.csv'));
    symlinkSync('/dev/zero', join(zero, 'qit.csv'));
    const b = spawnSync(process.execPath, [CLI, 'verify', zero, '--json'], { encoding: 'utf8', timeout: 30_000 });
    expect(b.status, b.stderr).toBe(1);
    expect(b.stdout).toMatch(/qit\.csv is a symbolic link/);
    const manifest = copy(dir);
    rmSync(join(manifest, 'manifest.json'));
    symlinkSync('/dev/zero', join(manifest, 'manifest.json'));
    const c = spawnSync(process.execPath, [CLI, 'verify', manifest, '--json'], { encoding: 'utf8', timeout: 30_000 });
    expect(c.status, c.stderr).toBe(1);
    expect(c.stdout).toMatch(/manifest\.json is a symbolic link, not a file Custos wrote/);
    const empty = copy(dir);
    writeFileSync(join(empty, 'report.json'), 'null');
    const listing = JSON.parse(readFileSync(join(empty, 'manifest.json'), 'utf8'));
    rehash(empty, 'report.json', listing);
    writeFileSync(join(empty, 'manifest.json'), JSON.stringify(listing));
    const d = spawnSync(process.execPath, [CLI, 'verify', empty, '--json'], { encoding: 'utf8', timeout: 30_000 });
    expect(d.status, d.stderr).toBe(1);
    expect(d.stderr).toBe('');
    expect(d.stdout).toMatch(/"detail": "cannot be read: it is not a JSON object"/);
  });

  it('fails on a re-hashed ST whose counts break β or disagree with QIT', () => {
    const st = copy(dir);
    // Raise the first count above every β: the bucket now lists more records than it holds.
    tamperAndRehash(st, 'st.csv', (t) => {
      const lines = t.split('\r\n');
      const cells = lines[1]!.split(',');
      cells[cells.length - 1] = '40';
      lines[1] = cells.join(',');
      return lines.join('\r\n');
    });
    const failed = verify(st).failed;
    expect(failed).toContain('β bound of every bucket');
    expect(failed).toContain('QIT and ST agree');
  });

  it('fails on a re-hashed QIT that moves a record to another bucket', () => {
    const qit = copy(dir);
    tamperAndRehash(qit, 'qit.csv', (t) => {
      const lines = t.split('\r\n');
      const first = lines[1]!.split(',');
      const second = lines[2]!.split(',');
      first[first.length - 1] = second.at(-1)!;
      lines[1] = first.join(',');
      return lines.join('\r\n');
    });
    expect(verify(qit).failed).toContain('QIT and ST agree');
  });

  it('refuses test randomness unless told to accept it', () => {
    const r = custos(['verify', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL {2}randomness: made with seeded TEST randomness/);
  });
});

describe('custos verify on a reconstruction-privacy release', { timeout: 240_000 }, () => {
  let dir: string;
  beforeAll(() => {
    dir = release({ type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { occupation: 'from-data' } });
  }, 240_000);

  it('passes, and re-runs the (ε,δ) test of every micro group with the original', () => {
    expect(verify(dir, ['--original', ADULT])).toEqual({ code: 0, failed: [] });
  });

  it('fails on duplicated records and on a different original', () => {
    const dup = copy(dir);
    tamperAndRehash(dup, 'release.csv', (t) => {
      const lines = t.trimEnd().split('\r\n');
      return [...lines, ...lines.slice(1, 40)].join('\r\n') + '\r\n';
    });
    expect(verify(dup, ['--original', ADULT]).failed).toContain('occupation: Algorithm 1 footprint');
    const other = join(mkdtempSync(join(tmpdir(), 'custos-other-')), 'adult.csv');
    writeFileSync(other, readFileSync(ADULT, 'utf8').replace('Adm-clerical', 'Sales'));
    expect(verify(dir, ['--original', other]).failed).toContain('original file');
  });

  it('the external report leaves out the riskiest groups and every count taken before protection', () => {
    const internal = JSON.parse(readFileSync(join(`${dir}-internal`, 'internal-report.json'), 'utf8'));
    const external = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(external.variant).toBe('external');
    const risky = internal.risk.bySensitive[0].riskiestGroups as { values: Record<string, string>; trueFrequency: number; size: number }[];
    expect(risky.length).toBeGreaterThan(0);
    const html = readFileSync(join(dir, 'report.html'), 'utf8').replace(/<[^>]+>/g, ' ');
    for (const g of risky) {
      const descriptor = Object.entries(g.values).map(([k, v]) => `${k}=${v}`).join(', ');
      expect(html).not.toContain(descriptor);
      expect(html).not.toContain(`${g.trueFrequency.toFixed(3)}`);
    }
    // In either way the reports print it.
    expect(html).not.toContain(`${internal.risk.violatingBefore} of ${internal.risk.microGroups}`);
    expect(html).not.toContain(`${internal.risk.violatingBefore.toLocaleString('en-US')} of ${internal.risk.microGroups.toLocaleString('en-US')}`);
    expect(JSON.stringify(external)).not.toContain('riskiestGroups');
    expect(external.risk.reidentification.original).toBeUndefined();
    expect(external.utility.relativeError).toEqual({});
    expect(internal.output.files.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['report.json', 'report.html', 'report.pdf']));
  });
});
