import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { FOLDER_KIND_WORDS, MANIFEST, notARegularFile, readManifest, replaceRefusal, servesAnotherRelease, type FolderKind } from './manifest.js';

export class OutputDirError extends Error {
  /** The folder the refusal is about, when it is one of the two outputs. */
  constructor(message: string, readonly kind?: FolderKind) {
    super(message);
  }
}

const KIND_WORD: Record<FolderKind, string> = { release: 'output folder', internal: 'internal report folder', comparison: 'comparison folder' };

/**
 * Refuses, before any work, to replace a folder that Custos did not write, to write inside a folder
 * Custos wrote, and (`servesRelease`, for an internal folder) to replace the internal report of
 * another release than the one at that path.
 */
export function checkOutputDir(finalDir: string, kind: FolderKind, servesRelease?: string): void {
  // The finished folder is renamed onto this path, and a rename cannot land on a link (dangling or not): refuse before the work.
  const link = linkTarget(finalDir);
  if (link !== null) throw new OutputDirError(`the ${KIND_WORD[kind]} ${finalDir} is a symbolic link to ${link}${existsSync(finalDir) ? '' : ', which does not exist'}; name the folder itself`, kind);
  checkNotInsideCustosFolder(finalDir, `the ${KIND_WORD[kind]} ${finalDir}`, kind);
  if (!existsSync(finalDir)) {
    let ancestor = dirname(resolve(finalDir));
    while (!existsSync(ancestor) && dirname(ancestor) !== ancestor) ancestor = dirname(ancestor);
    if (!statSync(ancestor).isDirectory()) throw new OutputDirError(`the ${KIND_WORD[kind]} ${finalDir} cannot be made: ${ancestor} is a file, not a folder`, kind);
    return;
  }
  if (!statSync(finalDir).isDirectory()) throw new OutputDirError(`the ${KIND_WORD[kind]} ${finalDir} exists and is not a folder`, kind);
  const refusal = replaceRefusal(finalDir, kind);
  if (refusal !== null) {
    // Replacing a folder around one Custos wrote would take that folder with it: named, so the person sees what is at stake.
    const inner = custosFolderInside(finalDir);
    if (inner) throw new OutputDirError(`the ${KIND_WORD[kind]} ${finalDir} holds ${inner.dir}, ${FOLDER_KIND_WORDS[inner.kind]} folder Custos wrote; an output never replaces a folder around one. Choose a new folder of its own`, kind);
    throw new OutputDirError(`the ${KIND_WORD[kind]} ${finalDir} exists and ${refusal}; Custos replaces only a folder it wrote, unchanged. Choose another folder or empty this one yourself`, kind);
  }
  if (kind === 'internal' && servesRelease !== undefined) {
    const other = servesAnotherRelease(finalDir, servesRelease);
    if (other !== null) throw new OutputDirError(`the ${KIND_WORD[kind]} ${finalDir} exists and ${other}; an internal folder belongs to one release, and Custos does not replace another release's internal report. Choose another internal folder, or remove this one yourself if its release is gone`, kind);
  }
}

/** The kind of folder Custos wrote at `dir` (a manifest it could have written), or undefined. */
function custosFolderKind(dir: string): FolderKind | undefined {
  if (notARegularFile(join(dir, MANIFEST)) !== undefined) return undefined;
  const manifest = readManifest(dir);
  return typeof manifest === 'string' ? undefined : manifest.kind;
}

/**
 * Refuses a path (an output folder or file) inside a folder Custos wrote: a release folder is
 * published whole, so anything written inside it would be published with it (and break its
 * manifest); an internal or comparison folder would mix another output into a confidential folder
 * that is then no longer Custos's to replace. The path's links are resolved first.
 */
export function checkNotInsideCustosFolder(path: string, subject: string, kind?: FolderKind): void {
  for (let dir = dirname(canonical(path)); ; dir = dirname(dir)) {
    const found = custosFolderKind(dir);
    if (found) {
      const why = found === 'release' ? 'whatever is written there would be published with that release and break its manifest' : 'it would be mixed into that confidential folder and break its manifest';
      throw new OutputDirError(`${subject} is inside ${dir}, ${FOLDER_KIND_WORDS[found]} folder Custos wrote (${MANIFEST} says so): ${why}. Choose a place outside it`, kind);
    }
    if (dirname(dir) === dir) return;
  }
}

/** How far below an output folder Custos looks for a folder it wrote, to name it: a refusal's words, not its reason. */
const INSIDE_SEARCH = { depth: 4, folders: 2000 };

/** A folder Custos wrote somewhere below `dir` (links not followed, a bounded search), or undefined. */
function custosFolderInside(dir: string): { dir: string; kind: FolderKind } | undefined {
  const queue: [string, number][] = [[dir, 0]];
  let looked = 0;
  while (queue.length > 0) {
    const [folder, depth] = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      if (++looked > INSIDE_SEARCH.folders) return undefined;
      const sub = join(folder, entry.name);
      const kind = custosFolderKind(sub);
      if (kind) return { dir: sub, kind };
      if (depth + 1 < INSIDE_SEARCH.depth) queue.push([sub, depth + 1]);
    }
  }
  return undefined;
}

function linkTarget(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
  } catch {
    return null;
  }
}

/** The path with symbolic links resolved as far as the path exists, so `..` tricks and links compare equal. */
function canonical(path: string): string {
  const absolute = resolve(path);
  let existing = absolute;
  const rest: string[] = [];
  while (!existsSync(existing) && dirname(existing) !== existing) {
    rest.unshift(basename(existing));
    existing = dirname(existing);
  }
  return join(realpathSync(existing), ...rest);
}

/** True when `inner` is `outer` or lies inside it. */
export function isWithin(inner: string, outer: string): boolean {
  const rel = relative(canonical(outer), canonical(inner));
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
}

/**
 * An output folder that equals or contains a folder holding one of the job's
 * input files would, when replaced, take the confidential data with it.
 */
export function checkNotAroundInputs(folder: string, kind: FolderKind, inputs: readonly string[]): void {
  for (const input of inputs) {
    // The folder the path names, and the folder of the file itself when the path is a link to it.
    for (const inputFolder of new Set([dirname(input), dirname(canonical(input))])) {
      if (isWithin(inputFolder, folder)) {
        throw new OutputDirError(`the ${KIND_WORD[kind]} ${folder} ${canonical(folder) === canonical(inputFolder) ? 'is' : 'contains'} the folder of the input ${input}${inputFolder === dirname(input) ? '' : ` (a link to a file in ${inputFolder})`}; write the release into a new folder of its own`, kind);
      }
    }
  }
}

/** The release and internal folders must be apart: the internal report must never be published with the release. */
export function checkApart(releaseDir: string, internalDir: string): void {
  if (isWithin(internalDir, releaseDir) || isWithin(releaseDir, internalDir)) {
    throw new OutputDirError(`the internal report folder ${internalDir} and the release folder ${releaseDir} must not be the same or inside each other: the internal report is confidential`);
  }
}

const STAGING_TAG = '.custos-tmp-';
const OWNER_FILE = '.custos-staging.json';

interface StagingOwner {
  readonly pid: number;
  readonly host: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A staging folder with no owner file is stale only once it is old: a live run writes its owner file right after mkdir. */
const OWNERLESS_STALE_MS = 60 * 60 * 1000;

/**
 * Removes staging folders of the same output left by a run that was killed
 * (kill -9, power loss): they hold partial confidential files. Only folders
 * with Custos's staging name whose owner process is gone on this host are
 * removed. Returns their names so the run can say so.
 */
export function removeStaleStaging(finalDir: string): string[] {
  const parent = dirname(finalDir);
  const prefix = `.${basename(finalDir)}${STAGING_TAG}`;
  let names: string[];
  try {
    names = readdirSync(parent).filter((name) => name.startsWith(prefix) && /^[0-9a-f]{12}(-old)?$/.test(name.slice(prefix.length)));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const path = join(parent, name);
    try {
      if (!lstatSync(path).isDirectory()) continue;
      let stale: boolean;
      try {
        const owner = JSON.parse(readFileSync(join(path, OWNER_FILE), 'utf8')) as StagingOwner;
        stale = owner.host === hostname() && typeof owner.pid === 'number' && !alive(owner.pid);
      } catch {
        stale = Date.now() - lstatSync(path).mtimeMs > OWNERLESS_STALE_MS;
      }
      if (stale) {
        rmSync(path, { recursive: true, force: true });
        removed.push(name);
      }
    } catch {
      // A folder another process removes meanwhile is no longer our concern.
    }
  }
  return removed;
}

/**
 * Outputs are written into a hidden sibling folder and renamed into place
 * only when complete, so a failure or a cancel never leaves a partial release.
 */
export class StagingDir {
  readonly path: string;
  readonly removedStale: readonly string[];
  /** onPath hears the path before the folder exists, so a host that kills the run knows every folder it may have made. */
  constructor(
    readonly finalDir: string,
    readonly kind: FolderKind,
    onPath?: (path: string) => void,
    /** For an internal folder: the release folder it serves (an existing internal folder of another release is not replaced). */
    readonly servesRelease?: string,
  ) {
    checkOutputDir(finalDir, kind, servesRelease);
    mkdirSync(dirname(finalDir), { recursive: true });
    this.removedStale = removeStaleStaging(finalDir);
    this.path = join(dirname(finalDir), `.${basename(finalDir)}${STAGING_TAG}${randomBytes(6).toString('hex')}`);
    onPath?.(this.path);
    mkdirSync(this.path);
    const owner: StagingOwner = { pid: process.pid, host: hostname() };
    writeFileSync(join(this.path, OWNER_FILE), JSON.stringify(owner));
  }

  file(name: string): string {
    return join(this.path, name);
  }

  discard(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

/**
 * Moves every staged folder into place, in order; the last one is the last
 * step of a run, so put the release last: until it is renamed, no folder
 * looks like a complete release. An earlier folder is moved aside and removed
 * only after every rename succeeded; on a failure the earlier ones are put back.
 * Returns the problems met while removing the replaced folders (the new ones
 * are in place by then, so they are reported, not thrown).
 */
export function commitStaged(stagings: readonly StagingDir[]): string[] {
  for (const s of stagings) checkOutputDir(s.finalDir, s.kind, s.servesRelease);
  const done: { staging: StagingDir; old: string | null }[] = [];
  try {
    for (const staging of stagings) {
      rmSync(join(staging.path, OWNER_FILE), { force: true });
      let old: string | null = null;
      if (existsSync(staging.finalDir)) {
        old = `${staging.path}-old`;
        renameSync(staging.finalDir, old);
      }
      try {
        renameSync(staging.path, staging.finalDir);
      } catch (error) {
        if (old) renameSync(old, staging.finalDir);
        throw error;
      }
      done.push({ staging, old });
    }
  } catch (error) {
    for (const { staging, old } of done.reverse()) {
      renameSync(staging.finalDir, staging.path);
      if (old) renameSync(old, staging.finalDir);
    }
    throw error;
  }
  const problems: string[] = [];
  for (const { old } of done) {
    if (!old) continue;
    try {
      rmSync(old, { recursive: true, force: true });
    } catch (error) {
      problems.push(`the replaced folder ${old} could not be removed (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  return problems;
}
