/**
 * Where outputs may go: never inside or around a folder Custos wrote (a release
 * would publish whatever lands in it), and an internal folder belongs to the one
 * release whose identifier its manifest names. Each refusal exits 2 naming both
 * paths, writes nothing and leaves the other folder as it was.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = resolve('dist/cli/custos.mjs');
const TEST_ENV = { CUSTOS_TEST_RANDOMNESS: '1' };

function custos(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd, env: { ...process.env, ...TEST_ENV }, timeout: 60_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A folder with a small input and a job releasing it into `rel` (its internal report in `rel-internal`). */
function setUp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-placement-'));
  made.push(dir);
  writeFileSync(join(dir, 'in.csv'), ['age,sex,diagnosis', ...Array.from({ length: 150 }, (_, i) => `${20 + (i % 30)},${i % 2 ? 'F' : 'M'},d${i % 4}`)].join('\n') + '\n');
  writeJob(dir, 'job.json', 'rel');
  return dir;
}

function writeJob(dir: string, name: string, out: string, internalDir?: string): string {
  const job = { version: 1, input: { path: 'in.csv' }, attributes: { diagnosis: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { diagnosis: 'from-data' } }, output: { dir: out, formats: ['csv'], report: ['json', 'html'], ...(internalDir ? { internalDir } : {}) } };
  writeFileSync(join(dir, name), JSON.stringify(job));
  return join(dir, name);
}

/** Every file and folder under a folder, so a refusal can be seen to write nothing. */
function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).sort();
}

function verify(dir: string, release: string): { code: number; stdout: string } {
  return custos(['verify', release, '--accept-test-randomness'], dir);
}

function expectRefused(r: { code: number; stderr: string }, ...paths: string[]): void {
  expect(r.code, r.stderr).toBe(2);
  for (const p of paths) expect(r.stderr).toContain(p);
  expect(r.stderr).not.toMatch(/\n\s+at |Error:/);
}

describe('no output inside or around a folder Custos wrote', () => {
  it('refuses --out, output.internalDir, --internal and compare\'s --csv and --internal inside a release, naming both paths', () => {
    const dir = setUp();
    expect(custos(['run', 'job.json', '--test-seed', '1'], dir).code).toBe(0);
    const rel = join(dir, 'rel');
    const before = tree(dir);

    expectRefused(custos(['run', 'job.json', '--out', join(rel, 'sub'), '--test-seed', '1'], dir), join(rel, 'sub'), `inside ${rel}, a release folder`);
    writeJob(dir, 'inner.json', 'elsewhere', 'rel/inner');
    const inner = custos(['run', 'inner.json', '--test-seed', '1'], dir);
    expectRefused(inner, 'output.internalDir', join(rel, 'inner'), `inside ${rel}, a release folder`);
    expectRefused(custos(['run', 'job.json', '--out', join(dir, 'other'), '--internal', join(rel, 'deeper', 'still'), '--test-seed', '1'], dir), '--internal', join(rel, 'deeper', 'still'), rel);
    expectRefused(custos(['compare', 'job.json', '--csv', join(rel, 'table.csv'), '--test-seed', '1'], dir), '--csv', join(rel, 'table.csv'), rel);
    expectRefused(custos(['compare', 'job.json', '--internal', join(rel, 'cmp'), '--test-seed', '1'], dir), '--internal', join(rel, 'cmp'), rel);
    // The internal folder is no place for a release either, nor a link that leads into a release.
    expectRefused(custos(['run', 'job.json', '--out', join(dir, 'rel-internal', 'pub'), '--internal', join(dir, 'x-internal'), '--test-seed', '1'], dir), join(dir, 'rel-internal', 'pub'), `inside ${join(dir, 'rel-internal')}, an internal report folder`);
    symlinkSync(rel, join(dir, 'shortcut'));
    expectRefused(custos(['run', 'job.json', '--out', join(dir, 'shortcut', 'sub'), '--internal', join(dir, 'y-internal'), '--test-seed', '1'], dir), join(dir, 'shortcut', 'sub'), rel);
    rmSync(join(dir, 'shortcut'));

    // Nothing was written anywhere, and the release still verifies.
    expect(tree(dir)).toEqual([...before, 'inner.json'].sort());
    expect(verify(dir, rel).code).toBe(0);
    // Replacing the release itself remains allowed.
    expect(custos(['run', 'job.json', '--test-seed', '2'], dir).code).toBe(0);
    expect(verify(dir, rel).code).toBe(0);
  }, 120_000);

  it('refuses an output folder around a release, naming the release inside it', () => {
    const dir = setUp();
    mkdirSync(join(dir, 'outer'));
    expect(custos(['run', 'job.json', '--out', join(dir, 'outer', 'rel'), '--test-seed', '1'], dir).code).toBe(0);
    const before = tree(dir);
    const r = custos(['run', 'job.json', '--out', join(dir, 'outer'), '--internal', join(dir, 'outer2-internal'), '--test-seed', '1'], dir);
    expectRefused(r, join(dir, 'outer'), join(dir, 'outer', 'rel'));
    expect(r.stderr).toMatch(/a release folder Custos wrote/);
    expect(tree(dir)).toEqual(before);
  }, 60_000);
});

describe('an internal folder belongs to one release', () => {
  it('both manifests name the release by one random identifier, which verify checks', () => {
    const dir = setUp();
    expect(custos(['run', 'job.json', '--test-seed', '1'], dir).code).toBe(0);
    const release = JSON.parse(readFileSync(join(dir, 'rel', 'manifest.json'), 'utf8')) as { schema: string; release: string };
    const internal = JSON.parse(readFileSync(join(dir, 'rel-internal', 'manifest.json'), 'utf8')) as { release: string };
    expect(release.schema).toBe('custos.manifest/2');
    expect(release.release).toMatch(/^[0-9a-f]{32}$/);
    expect(internal.release).toBe(release.release);
    // Random per run, even with the same seed: it names the run, and says nothing of the input.
    expect(custos(['run', 'job.json', '--test-seed', '1'], dir).code).toBe(0);
    const again = JSON.parse(readFileSync(join(dir, 'rel', 'manifest.json'), 'utf8')) as { release: string };
    expect(again.release).not.toBe(release.release);
    expect(verify(dir, join(dir, 'rel')).stdout).toMatch(new RegExp(`ok +internal report is of this release: .*both manifests name release ${again.release}`));
    // An internal manifest naming another release fails verify, though its files are unchanged.
    const path = join(dir, 'rel-internal', 'manifest.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace(again.release, 'f'.repeat(32)));
    const v = verify(dir, join(dir, 'rel'));
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/FAIL +internal report is of this release: its manifest\.json names release f{32}/);
  }, 60_000);

  it('refuses output.internalDir naming another release\'s internal folder, naming both; that release keeps its report and verifies', () => {
    const dir = setUp();
    expect(custos(['run', 'job.json', '--test-seed', '1'], dir).code).toBe(0);
    const internalBefore = tree(join(dir, 'rel-internal')).map((f) => [f, readFileSync(join(dir, 'rel-internal', f), 'utf8')]);
    writeJob(dir, 'second.json', 'rel2', 'rel-internal');
    const r = custos(['run', 'second.json', '--test-seed', '1'], dir);
    expectRefused(r, 'output.internalDir', join(dir, 'rel-internal'), join(dir, 'rel2'), `written to ${join(dir, 'rel')}`);
    expect(existsSync(join(dir, 'rel2'))).toBe(false);
    expect(tree(join(dir, 'rel-internal')).map((f) => [f, readFileSync(join(dir, 'rel-internal', f), 'utf8')])).toEqual(internalBefore);
    expect(verify(dir, join(dir, 'rel')).code).toBe(0);
    // The same with --internal; and a run of the first job still replaces both of its folders.
    expectRefused(custos(['run', 'job.json', '--out', join(dir, 'rel3'), '--internal', join(dir, 'rel-internal'), '--test-seed', '1'], dir), '--internal', join(dir, 'rel-internal'), join(dir, 'rel3'));
    expect(custos(['run', 'job.json', '--test-seed', '3'], dir).code).toBe(0);
    expect(verify(dir, join(dir, 'rel')).code).toBe(0);
    // A release removed by hand leaves its internal folder to the person: not replaced by a new release there.
    rmSync(join(dir, 'rel'), { recursive: true });
    const orphan = custos(['run', 'job.json', '--test-seed', '3'], dir);
    expectRefused(orphan, join(dir, 'rel-internal'), `the release once written to ${join(dir, 'rel')}, which is no longer there`);
  }, 120_000);

  it('folders written before identifiers (manifest schema 1) still verify, are replaced together, and their internal folder is not another release\'s', () => {
    const dir = setUp();
    expect(custos(['run', 'job.json', '--test-seed', '1'], dir).code).toBe(0);
    for (const folder of ['rel', 'rel-internal']) {
      const path = join(dir, folder, 'manifest.json');
      const { release: _id, ...rest } = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      writeFileSync(path, JSON.stringify({ ...rest, schema: 'custos.manifest/1' }, null, 2) + '\n');
    }
    expect(verify(dir, join(dir, 'rel')).code).toBe(0);
    writeJob(dir, 'second.json', 'rel2', 'rel-internal');
    expectRefused(custos(['run', 'second.json', '--test-seed', '1'], dir), join(dir, 'rel-internal'), join(dir, 'rel2'));
    expect(custos(['run', 'job.json', '--test-seed', '2'], dir).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'rel', 'manifest.json'), 'utf8')).schema).toBe('custos.manifest/2');
    expect(verify(dir, join(dir, 'rel')).code).toBe(0);
  }, 120_000);
});
