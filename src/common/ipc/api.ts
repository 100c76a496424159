/**
 * What the renderer and its host (the Electron main process or the loopback
 * dev host) exchange, as zod schemas with the types inferred from them. The
 * channels with their request and response schemas are in ipc-contract.ts,
 * from which both ends are derived.
 */
import { z } from 'zod';
import { anyReportSchema, type Frozen, type Report } from '../report/report-model.js';
import type { HostCalls } from './ipc-contract.js';
import { INPUT_FORMAT_NAMES } from '../input-formats.js';

export type { Report };

export interface FileOptions {
  readonly delimiter?: string;
  readonly encoding?: string;
  readonly missing?: readonly string[];
  readonly sheet?: string | number | null;
  /** A date format chosen for a column (input.dates), or "text". */
  readonly dates?: Readonly<Record<string, string>>;
}

const count = z.number().int().nonnegative();

export const columnInfoSchema = z.object({
  name: z.string(),
  /** The variable label a statistical package's file gives the column ("Age in years"). */
  label: z.string().optional(),
  type: z.string(),
  distinct: count,
  missing: count,
  /** Values by frequency: all of them up to 200 distinct (the β table), else the 12 most frequent (the sparkline). */
  top: z.array(z.object({ value: z.string(), count })),
  /**
   * Dates typed as text: "read" (converted to ISO dates from `format`, stated in the job or found
   * in every value), "ambiguous" (every value reads day first and month first: `formats`, the
   * person chooses), "partial" (mostly dates in `format`; `unmatched` values are not, first few with
   * the line each is first on, 0 when the format has no lines; `count` in all).
   */
  date: z
    .object({
      reading: z.enum(['read', 'ambiguous', 'partial']),
      format: z.string().optional(),
      stated: z.boolean().optional(),
      formats: z.array(z.string()).max(8).optional(),
      unmatched: z.array(z.object({ value: z.string(), line: count })).max(8).optional(),
      count: count.optional(),
    })
    .optional(),
});
export type ColumnInfo = Frozen<z.output<typeof columnInfoSchema>>;

const openedFileFormat = z.enum(INPUT_FORMAT_NAMES);

export const openedFileSchema = z.object({
  fileId: z.string().uuid(),
  path: z.string(),
  name: z.string(),
  rows: count,
  bytes: count,
  sha256: z.string(),
  format: openedFileFormat,
  encoding: z.string().optional(),
  delimiter: z.string().optional(),
  sheet: z.string().optional(),
  sheets: z.array(z.string()).optional(),
  columns: z.array(columnInfoSchema),
  rejected: z.array(z.object({ line: count, reason: z.string() })),
  rejectedCount: count,
  /** Columns whose header name was empty or repeated, with the name they are read under; and the warning in words. */
  renamed: z.array(z.object({ column: count, from: z.string(), to: z.string() })).max(10_000).optional(),
  renamedWarning: z.string().optional(),
  /** Values that look like missing-value codes ("NA", "-9", 999 beside ages, "."), with the columns holding them: proposed, never applied unasked. */
  missingCandidates: z
    .array(z.object({ code: z.string(), columns: z.array(z.string()).max(10_000), count }))
    .max(50)
    .optional(),
});
export type OpenedFile = Frozen<z.output<typeof openedFileSchema>>;

export const hostFailureSchema = z.object({
  kind: z.enum(['job', 'input', 'review', 'cancelled', 'internal']),
  /** In words, the location once ("survey.xlsx, sheet “Notes”, line 2: …"), without a closing full stop. */
  message: z.string(),
  key: z.string().optional(),
  line: count.optional(),
  /** An input problem: the format the file was read as, the sheet read and every sheet of a workbook, and what may fix it. */
  format: openedFileFormat.optional(),
  sheet: z.string().optional(),
  sheets: z.array(z.string()).max(10_000).optional(),
  advice: z.enum(['reading-options', 'sheet', 'path']).optional(),
  /** A run refused because its release folder holds a release already: the page asks before replacing it. */
  existingRelease: z.boolean().optional(),
});
export type HostFailure = Frozen<z.output<typeof hostFailureSchema>>;

/** A host answer that can fail in a way the page shows: the value, or the failure in plain words. */
export function resultSchema<T extends z.ZodTypeAny>(value: T) {
  return z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), failure: hostFailureSchema })]);
}
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: HostFailure };

export const runStatusSchema = z.object({
  id: z.string(),
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  stage: z.string().optional(),
  label: z.string().optional(),
  fraction: z.number().min(0).max(1),
  report: anyReportSchema.optional(),
  outDir: z.string().optional(),
  /** The confidential internal report's folder (never served to the page). */
  internalDir: z.string().optional(),
  failure: hostFailureSchema.optional(),
});
export type RunStatus = Frozen<z.output<typeof runStatusSchema>>;

/** A job that ran to completion on this computer: offered again on the Open step. */
export const recentJobSchema = z.object({
  ranAt: z.string().datetime(),
  /** The input file's name (not its path), for the label. */
  inputName: z.string().max(1024),
  /** The method's type, or a chain's two types in order joined by a comma. */
  methodType: z.string().max(64),
  job: z.record(z.string(), z.unknown()),
});
export type RecentJob = Frozen<z.output<typeof recentJobSchema>>;

export const appInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['electron', 'web']),
  samplePath: z.string(),
  sampleName: z.string(),
});
export type AppInfo = Frozen<z.output<typeof appInfoSchema>>;

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

