import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { formatCount } from '../../common/format/numbers.js';
import { sha256OfFile } from '../file-checksum.js';

/** The file that lists every other file of a folder Custos wrote, with its checksum. */
export const MANIFEST = 'manifest.json';
/** Release and internal manifests name their release (`release`); a comparison's has no such key. */
export const MANIFEST_SCHEMA = 'custos.manifest/2';
/** Written before folders named their release: still read, so folders written then verify and are replaced as before. */
export const MANIFEST_SCHEMA_1 = 'custos.manifest/1';

/**
 * A release folder is published; an internal folder holds a run's confidential report; a comparison
 * folder holds a comparison of candidates (`custos compare --internal`). Each replaces only its own kind.
 */
export type FolderKind = 'release' | 'internal' | 'comparison';

/** Each kind of folder in words, with its article. */
export const FOLDER_KIND_WORDS: Record<FolderKind, string> = { release: 'a release', internal: 'an internal report', comparison: 'a comparison' };

export interface ManifestEntry {
  readonly name: string;
  readonly sha256: string;
  readonly bytes: number;
}

export interface Manifest {
  readonly schema: typeof MANIFEST_SCHEMA | typeof MANIFEST_SCHEMA_1;
  readonly kind: FolderKind;
  /**
   * The release's identifier: in a release's manifest its own, in an internal folder's the one of
   * the release it serves. Random, drawn per run, so it states nothing of the input and may be
   * published. Absent from a comparison's manifest and from manifests written before (schema 1).
   */
  readonly release?: string;
  readonly files: readonly ManifestEntry[];
}

/** A release's identifier: 128 random bits from the operating system's CSPRNG, nothing of the data. */
export function newReleaseId(): string {
  return randomBytes(16).toString('hex');
}

const RELEASE_ID = /^[0-9a-f]{32}$/;

export function manifestJson(kind: 'comparison', files: readonly ManifestEntry[]): string;
export function manifestJson(kind: 'release' | 'internal', files: readonly ManifestEntry[], release: string): string;
export function manifestJson(kind: FolderKind, files: readonly ManifestEntry[], release?: string): string {
  if ((kind === 'comparison') !== (release === undefined) || (release !== undefined && !RELEASE_ID.test(release))) throw new Error(`a ${kind} manifest ${kind === 'comparison' ? 'names no release' : 'names its release by an identifier of 32 hexadecimal digits'}`);
  const manifest: Manifest = { schema: MANIFEST_SCHEMA, kind, ...(release !== undefined ? { release } : {}), files: files.map(({ name, sha256, bytes }) => ({ name, sha256, bytes })) };
  return JSON.stringify(manifest, null, 2) + '\n';
}

/** Whether an object has exactly these keys: a manifest holds nothing but what manifestJson writes, so no other key can carry data out of a release. */
function hasExactly(value: object, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(value, k));
}

function isEntry(value: unknown): value is ManifestEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !hasExactly(value, ['name', 'sha256', 'bytes'])) return false;
  const e = value as Record<string, unknown>;
  return typeof e['name'] === 'string' && typeof e['sha256'] === 'string' && /^[0-9a-f]{64}$/.test(e['sha256']) && Number.isSafeInteger(e['bytes']) && (e['bytes'] as number) >= 0;
}

/** The manifest of a folder, or why there is none that can be trusted. */
/** The largest JSON file (manifest, report, job) Custos reads back: far above any it writes, far below what would exhaust memory. */
export const MAX_JSON_BYTES = 256 * 1024 * 1024;

/**
 * Why a path in a folder Custos reads back is not a plain file it could have written (a link, a FIFO
 * or device that would block or never end, a folder), or undefined when it is one. Checked with lstat,
 * before any read.
 */
export function notARegularFile(path: string): string | undefined {
  let stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `cannot be examined (${(error as Error).message})`;
  }
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isDirectory()) return 'a folder';
  if (!stats.isFile()) return 'a FIFO, socket or device';
  return undefined;
}

/** A JSON file Custos wrote, read only if it is a regular file of a sane size. */
export function readJsonFile(path: string): unknown {
  const problem = notARegularFile(path);
  if (problem) throw new Error(`${basename(path)} is ${problem}, not a file Custos wrote`);
  const size = statSync(path).size;
  if (size > MAX_JSON_BYTES) throw new Error(`${basename(path)} has ${formatCount(size)} bytes, more than any Custos writes`);
  return JSON.parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, '')) as unknown;
}

export function readManifest(dir: string): Manifest | string {
  let value: unknown;
  try {
    value = readJsonFile(join(dir, MANIFEST));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' || notARegularFile(join(dir, MANIFEST)) === 'missing' ? `it has no ${MANIFEST}` : `its ${MANIFEST} cannot be read (${(error as Error).message})`;
  }
  const m = value as Record<string, unknown> | null;
  if (typeof m !== 'object' || m === null || Array.isArray(m) || !(m['kind'] === 'release' || m['kind'] === 'internal' || m['kind'] === 'comparison') || !Array.isArray(m['files']) || !m['files'].every(isEntry)) {
    return `its ${MANIFEST} is not a Custos manifest`;
  }
  // Schema 1 has no identifier; schema 2 has one exactly where the kind serves a release.
  const names = m['schema'] === MANIFEST_SCHEMA && m['kind'] !== 'comparison';
  const keys = names ? ['schema', 'kind', 'release', 'files'] : ['schema', 'kind', 'files'];
  if (!(m['schema'] === MANIFEST_SCHEMA || m['schema'] === MANIFEST_SCHEMA_1) || !hasExactly(m, keys) || (names && !(typeof m['release'] === 'string' && RELEASE_ID.test(m['release'])))) {
    return `its ${MANIFEST} is not a Custos manifest`;
  }
  return value as Manifest;
}

/**
 * Why Custos may not replace this existing folder, or null if it may: only a
 * folder whose every entry is a regular file listed, unchanged, in the manifest
 * Custos wrote for it. Anything else (a user's notes, a changed file, a
 * subfolder, the confidential input) means the folder is not ours to delete.
 */
export function replaceRefusal(dir: string, kind: FolderKind): string | null {
  const entries = readdirSync(dir);
  if (entries.length === 0) return null;
  const manifest = readManifest(dir);
  if (typeof manifest === 'string') return `it is not empty and ${manifest}, so it is not a folder Custos wrote`;
  if (manifest.kind !== kind) return `its ${MANIFEST} describes ${FOLDER_KIND_WORDS[manifest.kind]} folder, not ${FOLDER_KIND_WORDS[kind]} folder`;
  const listed = new Map(manifest.files.map((f) => [f.name, f]));
  const unlisted = entries.filter((name) => name !== MANIFEST && !listed.has(name));
  if (unlisted.length > 0) return `it holds ${unlisted.length === 1 ? 'a file' : 'files'} Custos did not write (${unlisted.slice(0, 5).join(', ')}${unlisted.length > 5 ? ', …' : ''})`;
  for (const name of entries) {
    if (name === MANIFEST) continue;
    const stat = lstatSync(join(dir, name));
    if (!stat.isFile()) return `“${name}” is not a regular file Custos wrote`;
    const entry = listed.get(name)!;
    if (stat.size !== entry.bytes || sha256OfFile(join(dir, name)) !== entry.sha256) return `“${name}” was changed after Custos wrote it`;
  }
  return null;
}

/** The release folder an internal report was written for, as its internal report says (a path: it stays in the internal folder). */
function releaseDirOf(internalDir: string): string | undefined {
  try {
    const report = readJsonFile(join(internalDir, 'internal-report.json')) as { output?: { dir?: unknown } } | null;
    return typeof report?.output?.dir === 'string' ? report.output.dir : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the internal report of a folder written before identifiers lists exactly this release's files and checksums (as verify checks it). */
function listsReleaseFiles(internalDir: string, release: Manifest): boolean {
  try {
    const report = readJsonFile(join(internalDir, 'internal-report.json')) as { output?: { files?: unknown } } | null;
    const files = report?.output?.files;
    if (!Array.isArray(files) || files.length !== release.files.length) return false;
    const sums = new Map(release.files.map((f) => [f.name, f.sha256]));
    return files.every((f: unknown) => typeof f === 'object' && f !== null && sums.get(String((f as { name?: unknown }).name)) === (f as { sha256?: unknown }).sha256);
  } catch {
    return false;
  }
}

/**
 * Why the internal folder of the release at `releaseDir` may not replace the existing internal folder
 * `internalDir`, or null if it may. An internal folder belongs to one release: the one whose
 * identifier its manifest names (for a folder written before identifiers, the one whose files and
 * checksums its internal report lists). Replacing another release's internal report would lose it
 * and make that release fail verify; only the folder of the release being replaced goes with it.
 */
export function servesAnotherRelease(internalDir: string, releaseDir: string): string | null {
  if (!existsSync(internalDir) || readdirSync(internalDir).length === 0) return null;
  const internal = readManifest(internalDir);
  // Not Custos's internal folder at all: replaceRefusal says why.
  if (typeof internal === 'string' || internal.kind !== 'internal') return null;
  const release = existsSync(releaseDir) ? readManifest(releaseDir) : undefined;
  const isRelease = release !== undefined && typeof release !== 'string' && release.kind === 'release';
  if (isRelease && (internal.release !== undefined ? release.release === internal.release : release.release === undefined && listsReleaseFiles(internalDir, release))) return null;
  const served = releaseDirOf(internalDir);
  if (served !== undefined && resolve(served) === resolve(releaseDir)) return `it holds the internal report of the release once written to ${releaseDir}, which ${existsSync(releaseDir) ? 'now holds another release' : 'is no longer there'}`;
  return `it holds the internal report of another release${served !== undefined ? ` (written to ${served})` : ''}, not of the release folder ${releaseDir}`;
}
