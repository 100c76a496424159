import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The file that marks a folder as a Custos release, which a re-run may replace. */
export const RELEASE_MARKER = 'report.json';

export class OutputDirError extends Error {}

/** Refuses, before any work, to replace a folder that is not a previous release. */
export function checkOutputDir(finalDir: string): void {
  if (!existsSync(finalDir)) return;
  if (!statSync(finalDir).isDirectory()) throw new OutputDirError(`${finalDir} exists and is not a folder`);
  const entries = readdirSync(finalDir);
  if (entries.length > 0 && !entries.includes(RELEASE_MARKER)) {
    throw new OutputDirError(`${finalDir} exists, is not empty and is not a Custos release; choose another output folder`);
  }
}

/**
 * Outputs are written into a hidden sibling folder and renamed into place
 * only when complete, so a failure or a cancel never leaves a partial release.
 */
export class StagingDir {
  readonly path: string;
  constructor(readonly finalDir: string) {
    checkOutputDir(finalDir);
    mkdirSync(dirname(finalDir), { recursive: true });
    this.path = join(dirname(finalDir), `.${basename(finalDir)}.custos-tmp-${randomBytes(6).toString('hex')}`);
    mkdirSync(this.path);
  }

  file(name: string): string {
    return join(this.path, name);
  }

  commit(): void {
    checkOutputDir(this.finalDir);
    if (existsSync(this.finalDir)) {
      const old = `${this.path}-old`;
      renameSync(this.finalDir, old);
      renameSync(this.path, this.finalDir);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(this.path, this.finalDir);
    }
  }

  discard(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}
