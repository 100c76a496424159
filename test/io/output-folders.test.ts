import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MANIFEST, manifestJson, newReleaseId, readManifest, replaceRefusal } from '../../src/io/output/manifest.js';
import { sha256OfFile } from '../../src/io/file-checksum.js';
import { checkApart, checkNotAroundInputs, checkOutputDir, commitStaged, OutputDirError, removeStaleStaging, StagingDir } from '../../src/io/output/staging-dir.js';

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'custos-folders-'));
}

/** A folder as Custos writes it: files plus a manifest listing each. */
function writeOwned(dir: string, kind: 'release' | 'internal', files: Record<string, string>, release = RELEASE_ID): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const entries = Object.keys(files).map((name) => ({ name, sha256: sha256OfFile(join(dir, name)), bytes: readFileSync(join(dir, name)).length }));
  writeFileSync(join(dir, MANIFEST), manifestJson(kind, entries, release));
}

function stage(finalDir: string, kind: 'release' | 'internal', files: Record<string, string>, release = RELEASE_ID): StagingDir {
  const staging = new StagingDir(finalDir, kind);
  for (const [name, text] of Object.entries(files)) writeFileSync(staging.file(name), text);
  writeFileSync(staging.file(MANIFEST), manifestJson(kind, Object.keys(files).map((name) => ({ name, sha256: sha256OfFile(staging.file(name)), bytes: text(files, name).length })), release));
  return staging;
}

/** The identifier both manifests of one release carry. */
const RELEASE_ID = 'a'.repeat(32);

const text = (files: Record<string, string>, name: string): string => files[name]!;

describe('which folders Custos may replace', () => {
  it('a folder it wrote, unchanged, may be replaced; a missing or empty one too', () => {
    const dir = join(workdir(), 'release');
    expect(() => checkOutputDir(dir, 'release')).not.toThrow();
    mkdirSync(dir);
    expect(() => checkOutputDir(dir, 'release')).not.toThrow();
    writeOwned(dir, 'release', { 'release.csv': 'a,b\n1,2\n', 'report.json': '{}' });
    expect(replaceRefusal(dir, 'release')).toBeNull();
  });

  it('refuses a user’s note, a changed file, a subfolder, another kind, and a folder without a manifest', () => {
    const base = workdir();
    const notes = join(base, 'notes');
    writeOwned(notes, 'release', { 'release.csv': 'x\n' });
    writeFileSync(join(notes, 'my-notes.txt'), 'do not lose me');
    expect(replaceRefusal(notes, 'release')).toMatch(/Custos did not write \(my-notes\.txt\)/);

    const changed = join(base, 'changed');
    writeOwned(changed, 'release', { 'release.csv': 'x\n' });
    writeFileSync(join(changed, 'release.csv'), 'y\n');
    expect(replaceRefusal(changed, 'release')).toMatch(/“release\.csv” was changed/);

    const nested = join(base, 'nested');
    writeOwned(nested, 'release', { 'release.csv': 'x\n' });
    mkdirSync(join(nested, 'release.csv2'));
    expect(replaceRefusal(nested, 'release')).toMatch(/did not write/);

    const other = join(base, 'other');
    writeOwned(other, 'internal', { 'internal-report.json': '{}' });
    expect(replaceRefusal(other, 'release')).toMatch(/internal report folder, not a release/);

    // An old-style release marked only by report.json (the rule that deleted folders whole).
    const legacy = join(base, 'legacy');
    mkdirSync(legacy);
    writeFileSync(join(legacy, 'report.json'), '{}');
    writeFileSync(join(legacy, 'patients.csv'), 'confidential');
    expect(replaceRefusal(legacy, 'release')).toMatch(/no manifest\.json/);
    expect(() => checkOutputDir(legacy, 'release')).toThrow(OutputDirError);
  });

  it('refuses an output folder that is or contains the folder of an input, and internal and release folders inside each other', () => {
    const base = workdir();
    const input = join(base, 'data', 'patients.csv');
    mkdirSync(join(base, 'data'));
    writeFileSync(input, 'a\n1\n');
    expect(() => checkNotAroundInputs(join(base, 'data'), 'release', [input])).toThrow(/is the folder of the input/);
    expect(() => checkNotAroundInputs(base, 'release', [input])).toThrow(/contains the folder of the input/);
    expect(() => checkNotAroundInputs(join(base, 'data', '..', 'data', '.'), 'release', [input])).toThrow(OutputDirError);
    expect(() => checkNotAroundInputs(join(base, 'data', 'release'), 'release', [input])).not.toThrow();
    expect(() => checkApart(join(base, 'r'), join(base, 'r', 'internal'))).toThrow(/must not be the same or inside each other/);
    expect(() => checkApart(join(base, 'r'), join(base, 'r'))).toThrow(OutputDirError);
    expect(() => checkApart(join(base, 'r'), join(base, 'r-internal'))).not.toThrow();
  });
});

describe('manifests name the release they serve', () => {
  it('schema 2 names it in release and internal manifests only, schema 1 names none; anything else is no Custos manifest', () => {
    const dir = join(workdir(), 'm');
    mkdirSync(dir);
    const write = (value: object) => writeFileSync(join(dir, MANIFEST), JSON.stringify(value));
    const files: never[] = [];
    write({ schema: 'custos.manifest/2', kind: 'release', release: RELEASE_ID, files });
    expect(readManifest(dir)).toMatchObject({ kind: 'release', release: RELEASE_ID });
    write({ schema: 'custos.manifest/1', kind: 'internal', files });
    expect(readManifest(dir)).toMatchObject({ kind: 'internal' });
    write({ schema: 'custos.manifest/2', kind: 'comparison', files });
    expect(readManifest(dir)).toMatchObject({ kind: 'comparison' });
    for (const bad of [
      { schema: 'custos.manifest/2', kind: 'release', files },
      { schema: 'custos.manifest/2', kind: 'internal', release: 'not-hex', files },
      { schema: 'custos.manifest/2', kind: 'release', release: RELEASE_ID.toUpperCase(), files },
      { schema: 'custos.manifest/2', kind: 'comparison', release: RELEASE_ID, files },
      { schema: 'custos.manifest/1', kind: 'release', release: RELEASE_ID, files },
      { schema: 'custos.manifest/3', kind: 'release', release: RELEASE_ID, files },
    ]) {
      write(bad);
      expect(readManifest(dir), JSON.stringify(bad)).toMatch(/not a Custos manifest/);
    }
    expect(() => manifestJson('release', [], 'x')).toThrow();
    expect(newReleaseId()).toMatch(/^[0-9a-f]{32}$/);
    expect(newReleaseId()).not.toBe(newReleaseId());
  });

  it('an internal folder is replaced only with the release it serves', () => {
    const base = workdir();
    const release = join(base, 'release');
    const internal = join(base, 'release-internal');
    writeOwned(release, 'release', { 'release.csv': 'x\n' });
    writeOwned(internal, 'internal', { 'internal-report.json': '{}' });
    expect(() => checkOutputDir(internal, 'internal', release)).not.toThrow();
    expect(() => checkOutputDir(internal, 'internal', join(base, 'other'))).toThrow(/holds the internal report of another release, not of the release folder .*other/);
    writeOwned(join(base, 'second'), 'release', { 'release.csv': 'y\n' }, 'b'.repeat(32));
    expect(() => checkOutputDir(internal, 'internal', join(base, 'second'))).toThrow(OutputDirError);
    // Without a release to serve, nothing is checked but ownership (as before).
    expect(() => checkOutputDir(internal, 'internal')).not.toThrow();
  });
});

describe('committing staged folders', () => {
  it('replaces both folders, the release last, and removes the replaced ones', () => {
    const base = workdir();
    const release = join(base, 'release');
    const internal = join(base, 'release-internal');
    writeOwned(release, 'release', { 'old.csv': 'old\n' });
    writeOwned(internal, 'internal', { 'old.json': '{}' });
    const problems = commitStaged([stage(internal, 'internal', { 'internal-report.json': '{"n":1}' }), stage(release, 'release', { 'release.csv': 'new\n' })]);
    expect(problems).toEqual([]);
    expect(readdirSync(release).sort()).toEqual(['manifest.json', 'release.csv']);
    expect(readdirSync(internal).sort()).toEqual(['internal-report.json', 'manifest.json']);
    expect(readdirSync(base).sort()).toEqual(['release', 'release-internal']);
  });

  it('a folder changed by someone during the run stops the commit and nothing is replaced', () => {
    const base = workdir();
    const release = join(base, 'release');
    const internal = join(base, 'release-internal');
    writeOwned(release, 'release', { 'old.csv': 'old\n' });
    const stagings = [stage(internal, 'internal', { 'internal-report.json': '{}' }), stage(release, 'release', { 'release.csv': 'new\n' })];
    // The user adds a note to the previous release while the run is writing.
    writeFileSync(join(release, 'note.txt'), 'mine');
    expect(() => commitStaged(stagings)).toThrow(/note\.txt/);
    expect(readFileSync(join(release, 'note.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(release, 'old.csv'), 'utf8')).toBe('old\n');
    expect(existsSync(internal)).toBe(false);
  });
});

describe('staging folders left by a killed run', () => {
  it('are removed at the next run of the same output when their process is gone; a live run’s are kept', async () => {
    const base = workdir();
    const release = join(base, 'release');
    // A process that has exited: its pid is free (or reused by an unrelated process, which would keep the folder: safe).
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = await new Promise<number>((resolve) => child.on('exit', () => resolve(child.pid!)));
    const dead = join(base, '.release.custos-tmp-0123456789ab');
    mkdirSync(dead);
    writeFileSync(join(dead, '.custos-staging.json'), JSON.stringify({ pid: deadPid, host: hostname() }));
    writeFileSync(join(dead, 'release.csv'), 'partial confidential rows');
    const live = join(base, '.release.custos-tmp-ba9876543210');
    mkdirSync(live);
    writeFileSync(join(live, '.custos-staging.json'), JSON.stringify({ pid: process.pid, host: hostname() }));
    const unrelated = join(base, '.release.custos-tmp-not-ours');
    mkdirSync(unrelated);
    expect(removeStaleStaging(release)).toEqual(['.release.custos-tmp-0123456789ab']);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);
  });
});
