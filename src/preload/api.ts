/**
 * The contract between the renderer and its host (the Electron main process or
 * the loopback dev host). Types only: the renderer and preload import them, the
 * host validates every message against the zod schemas in src/main, so a
 * contract change breaks the build on both sides.
 */
import type { Report } from '../io/report/report-model.js';

export type { Report };

export interface FileOptions {
  readonly delimiter?: string;
  readonly encoding?: string;
  readonly missing?: readonly string[];
  readonly sheet?: string | number | null;
}

export interface ColumnInfo {
  readonly name: string;
  readonly type: string;
  readonly distinct: number;
  readonly missing: number;
  /** Values by frequency: all of them up to 200 distinct (the β table), else the 12 most frequent (the sparkline). */
  readonly top: readonly { readonly value: string; readonly count: number }[];
}

export interface OpenedFile {
  readonly fileId: string;
  readonly path: string;
  readonly name: string;
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
  readonly format: 'csv' | 'xlsx';
  readonly encoding?: string;
  readonly delimiter?: string;
  readonly sheet?: string;
  readonly sheets?: readonly string[];
  readonly columns: readonly ColumnInfo[];
  readonly rejected: readonly { readonly line: number; readonly reason: string }[];
  readonly rejectedCount: number;
}

export interface HostFailure {
  readonly kind: 'job' | 'input' | 'cancelled' | 'internal';
  readonly message: string;
  readonly key?: string;
  readonly line?: number;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: HostFailure };

export interface RunStatus {
  readonly id: string;
  readonly state: 'running' | 'done' | 'failed' | 'cancelled';
  readonly stage?: string;
  readonly label?: string;
  readonly fraction: number;
  readonly report?: Report;
  readonly outDir?: string;
  /** The confidential internal report's folder (never served to the page). */
  readonly internalDir?: string;
  readonly failure?: HostFailure;
}

export interface AppInfo {
  readonly version: string;
  readonly host: 'electron' | 'web';
  readonly samplePath: string;
  readonly sampleName: string;
}

export interface CustosApi {
  appInfo(): Promise<AppInfo>;
  /** Native open dialog; null when cancelled or when the host has none. The chosen file is granted to the app. */
  chooseFile(): Promise<string | null>;
  /** Native folder dialog for the release; null when cancelled or when the host has none. */
  chooseFolder(): Promise<string | null>;
  inspect(path: string, options: FileOptions): Promise<Result<OpenedFile>>;
  rows(fileId: string, offset: number, count: number): Promise<Result<readonly (readonly string[])[]>>;
  /** Runs `assess` on a job object (paths relative to the input's folder). */
  assess(job: unknown): Promise<Result<Report>>;
  startRun(job: unknown, outDir: string): Promise<Result<{ readonly id: string }>>;
  runStatus(id: string): Promise<RunStatus>;
  cancelRun(id: string): Promise<void>;
  /** A URL the renderer can open or download for a file of a finished run (web host), or null. */
  fileUrl(id: string, name: string): string | null;
  /** Reveal the output folder (desktop) — a no-op in the browser. */
  revealFolder(path: string): Promise<void>;
  /** The path of a dropped or picked file (desktop), which grants it to the app; '' in the browser, which never sees paths. */
  pathForFile(file: File): string;
  /** Menu commands of the desktop shell (Open, Save job, Export, Help). */
  onMenuCommand(handler: (command: MenuCommand) => void): void;
}

export type MenuCommand = 'open' | 'save-job' | 'export' | 'help';
export const MENU_CHANNEL = 'custos:menu';

export const IPC_CHANNELS = {
  appInfo: 'custos:app-info',
  chooseFile: 'custos:choose-file',
  chooseFolder: 'custos:choose-folder',
  grantFile: 'custos:grant-file',
  inspect: 'custos:inspect',
  rows: 'custos:rows',
  assess: 'custos:assess',
  startRun: 'custos:start-run',
  runStatus: 'custos:run-status',
  cancelRun: 'custos:cancel-run',
  revealFolder: 'custos:reveal-folder',
} as const;

export type Channel = (typeof IPC_CHANNELS)[keyof typeof IPC_CHANNELS];
