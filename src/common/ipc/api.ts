/**
 * The types the renderer and its host (the Electron main process or the
 * loopback dev host) exchange. The channels, their request schemas and response
 * types are in ipc-contract.ts, from which both ends are derived.
 */
import type { Report } from '../report/report-model.js';
import type { HostCalls } from './ipc-contract.js';

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

/**
 * The page's API: one call per channel of the contract (grantFile excepted: only the preload may
 * grant, from a File the user supplied), plus what each host provides locally.
 */
export type CustosApi = Omit<HostCalls, 'grantFile'> & {
  /** A URL the renderer can open or download for a file of a finished run (web host), or null. */
  fileUrl(id: string, name: string): string | null;
  /** The path of a dropped or picked file (desktop), which grants it to the app; '' in the browser, which never sees paths. */
  pathForFile(file: File): string;
  /** Menu commands of the desktop shell (Open, Save job, Export, Help). */
  onMenuCommand(handler: (command: MenuCommand) => void): void;
};

export type MenuCommand = 'open' | 'save-job' | 'export' | 'help';
export const MENU_CHANNEL = 'custos:menu';

export { IPC_CHANNELS, type Channel } from './ipc-contract.js';
