import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * Which paths the main process may open and write for the page. The page is
 * untrusted (any code in it can call the IPC handlers), so in the desktop app a
 * path counts only when the user granted it outside the page: a file chosen in
 * the open dialog or dropped on the window, a recent file, the bundled sample,
 * the paths inside a job file granted that way, a folder chosen in the folder
 * dialog.
 */
export interface PathAccess {
  mayRead(path: string): boolean;
  mayWrite(folder: string): boolean;
  /** A file the user chose (dialog, drop, recent list); a job file grants the files it names. */
  grantFile(path: string): void;
  /** A folder the user chose for a release. */
  grantFolder(path: string): void;
}

/** The loopback dev host is a local tool like the CLI: the person at the keyboard types any path. */
export class OpenAccess implements PathAccess {
  mayRead(): boolean {
    return true;
  }
  mayWrite(): boolean {
    return true;
  }
  grantFile(): void {}
  grantFolder(): void {}
}

function canonical(path: string): string {
  const absolute = resolve(path);
  let existing = absolute;
  const rest: string[] = [];
  while (!existsSync(existing) && dirname(existing) !== existing) {
    rest.unshift(basename(existing));
    existing = dirname(existing);
  }
  try {
    return join(realpathSync(existing), ...rest);
  } catch {
    return absolute;
  }
}

function within(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/** The files a job reads: its input and any hierarchy files, resolved against the folder its paths are relative to. */
export function pathsReadBy(job: unknown, baseDir: string): string[] {
  if (typeof job !== 'object' || job === null) return [];
  const j = job as { input?: { path?: unknown }; method?: { hierarchies?: unknown } };
  const paths: string[] = [];
  if (typeof j.input?.path === 'string') paths.push(resolve(baseDir, j.input.path));
  const hierarchies = j.method?.hierarchies;
  if (typeof hierarchies === 'object' && hierarchies !== null) {
    for (const spec of Object.values(hierarchies)) if (typeof spec === 'string') paths.push(resolve(baseDir, spec));
  }
  return paths;
}

/**
 * The release folder a recent job wrote. The host records a job only after a run it allowed to
 * write there, with the folder it wrote (never the page's word for it), so the grant outlives
 * the session: restoring the job can release into the same folder again.
 */
export function folderWrittenBy(job: unknown): string | undefined {
  if (typeof job !== 'object' || job === null) return undefined;
  const dir = (job as { output?: { dir?: unknown } }).output?.dir;
  return typeof dir === 'string' && isAbsolute(dir) ? dir : undefined;
}

/** The paths a job file reads, relative to the job's folder. */
function pathsInJob(jobPath: string): string[] {
  try {
    if (statSync(jobPath).size > 4 * 1024 * 1024) return [];
    return pathsReadBy(JSON.parse(readFileSync(jobPath, 'utf8')), dirname(jobPath));
  } catch {
    return [];
  }
}

/** The desktop app's grants: every path compared after resolving links, so a link cannot widen a grant. */
export class GrantedAccess implements PathAccess {
  private readonly files = new Set<string>();
  private readonly folders = new Set<string>();

  constructor(initial: readonly string[] = []) {
    for (const path of initial) this.grantFile(path);
  }

  grantFile(path: string): void {
    const file = canonical(path);
    this.files.add(file);
    if (file.toLowerCase().endsWith('.json')) for (const inner of pathsInJob(file)) this.files.add(canonical(inner));
  }

  grantFolder(path: string): void {
    this.folders.add(canonical(path));
  }

  mayRead(path: string): boolean {
    return this.files.has(canonical(path));
  }

  /**
   * A chosen folder and anything inside it; or a new folder beside a file the
   * user opened (the default release folder next to the data). Replacing an
   * existing folder is a separate check: only a release Custos wrote, unchanged.
   */
  mayWrite(folder: string): boolean {
    const target = canonical(folder);
    for (const granted of this.folders) if (within(target, granted)) return true;
    for (const file of this.files) if (dirname(target) === dirname(file) && target !== dirname(file)) return true;
    return false;
  }
}
