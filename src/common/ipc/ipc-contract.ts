/**
 * The one description of every request the page may make of its host: the
 * channel name, the zod schema the host validates the request with, and the
 * response type. The preload bridge, the loopback client and the host's
 * dispatcher are all derived from it, so adding a channel is one edit here
 * plus its handler, and the compiler checks both ends.
 */
import { z } from 'zod';
import { anyReportSchema, type Frozen } from '../report/report-model.js';
import { appInfoSchema, openedFileSchema, recentJobSchema, resultSchema, runStatusSchema } from './api.js';
import { input } from '../job/job-parts.js';
import { candidateJobSchema, compareStatusSchema, MAX_CANDIDATES } from './compare-api.js';

/** A response the host sends; the dispatcher checks every response against it before it leaves. */
const nothing = z.void();
const pathOrNull = z.string().nullable();

const path = z.string().min(1).max(4096);
/** The most rows of a hierarchy file the builder reads back to edit (its multi-select lists values, not a census). */
export const MAX_EDITABLE_HIERARCHY_ROWS = 100_000;
const fileOptions = z
  .object({
    delimiter: z.string().min(1).max(3).optional(),
    encoding: z.string().optional(),
    missing: z.array(z.string().max(64)).max(50).optional(),
    sheet: z.union([z.string(), z.number().int().nonnegative(), z.null()]).optional(),
    dates: input.shape.dates,
    /** False: a file the app opens for its own view (the release beside the input), kept off the recent files. */
    recent: z.boolean().optional(),
  })
  .strict();
const job = z.record(z.string(), z.unknown());
const runId = z.object({ id: z.string().uuid() }).strict();
const empty = z.object({}).strict();

export const IPC_CONTRACT = {
  appInfo: { channel: 'custos:app-info', request: empty, response: appInfoSchema },
  /** Native open dialog; null when cancelled or when the host has none. The chosen file is granted to the app. */
  chooseFile: { channel: 'custos:choose-file', request: empty, response: pathOrNull },
  /** Native folder dialog for the release; null when cancelled or when the host has none. */
  chooseFolder: { channel: 'custos:choose-folder', request: empty, response: pathOrNull },
  /** A file the user dropped or picked (sent by the preload only, from a real File). */
  grantFile: { channel: 'custos:grant-file', request: z.object({ path }).strict(), response: nothing },
  inspect: { channel: 'custos:inspect', request: z.object({ path, options: fileOptions }).strict(), response: resultSchema(openedFileSchema) },
  rows: {
    channel: 'custos:rows',
    request: z.object({ fileId: z.string().uuid(), offset: z.number().int().nonnegative(), count: z.number().int().min(1).max(2000) }).strict(),
    response: resultSchema(z.array(z.array(z.string()))),
  },
  /** Files opened before (that the page may open again), newest first. */
  recentFiles: { channel: 'custos:recent-files', request: empty, response: z.array(z.string()).max(10) },
  /** Jobs that ran to completion before (whose input the page may open again), newest first. */
  recentJobs: { channel: 'custos:recent-jobs', request: empty, response: z.array(recentJobSchema).max(10) },
  /** A hierarchy file checked against a column of an opened file: its levels and the values it does not generalize. */
  checkHierarchy: {
    channel: 'custos:check-hierarchy',
    request: z.object({ path, fileId: z.string().uuid(), column: z.string().max(10_000) }).strict(),
    response: resultSchema(z.object({ levels: z.number().int().nonnegative(), unmapped: z.array(z.string()).max(8), unmappedCount: z.number().int().nonnegative() })),
  },
  /** A hierarchy file's rows (one per value, coarser to the right), for the builder to edit again what it saved. */
  readHierarchy: {
    channel: 'custos:read-hierarchy',
    request: z.object({ path }).strict(),
    response: resultSchema(z.array(z.array(z.string())).max(MAX_EDITABLE_HIERARCHY_ROWS)),
  },
  /**
   * A hierarchy built in the wizard, written as an ARX CSV file (the form `method.hierarchies`
   * already reads): a new file, or one this session wrote; never a file Custos did not write.
   */
  saveHierarchy: {
    channel: 'custos:save-hierarchy',
    request: z.object({ path, rows: z.array(z.array(z.string().max(10_000)).min(2).max(64)).min(1).max(1_000_000) }).strict(),
    response: resultSchema(z.object({ path: z.string() })),
  },
  /** `assess` on a job object (paths relative to the input's folder). */
  assess: { channel: 'custos:assess', request: z.object({ job }).strict(), response: resultSchema(anyReportSchema) },
  /** A run; with comparisonId, the comparison its setting was chosen from goes into the internal folder (never the release). */
  /**
   * A run. A release folder that holds a release already is replaced only with `replace` (the page
   * asks first): without it the run is refused with `existingRelease`.
   */
  startRun: {
    channel: 'custos:start-run',
    request: z.object({ job, outDir: path, comparisonId: z.string().uuid().optional(), replace: z.boolean().optional() }).strict(),
    response: resultSchema(z.object({ id: z.string().uuid() })),
  },
  /** The release folder a new run gets: `path` itself, or `path-2`, `path-3`, … the first that holds nothing yet (nor its internal folder). */
  freeFolder: { channel: 'custos:free-folder', request: z.object({ path }).strict(), response: z.string() },
  runStatus: { channel: 'custos:run-status', request: runId, response: runStatusSchema },
  cancelRun: { channel: 'custos:cancel-run', request: runId, response: nothing },
  /** Compares candidate jobs on the same input in the job worker; nothing is written. */
  startCompare: {
    channel: 'custos:start-compare',
    request: z.object({ candidates: z.array(candidateJobSchema).min(1).max(MAX_CANDIDATES) }).strict(),
    response: resultSchema(z.object({ id: z.string().uuid() })),
  },
  compareStatus: { channel: 'custos:compare-status', request: runId, response: compareStatusSchema },
  cancelCompare: { channel: 'custos:cancel-compare', request: runId, response: nothing },
  /** The comparison's table as CSV (confidential: its first line says so) at a path the page may write. */
  exportComparison: { channel: 'custos:export-comparison', request: z.object({ id: z.string().uuid(), path }).strict(), response: resultSchema(z.object({ path: z.string() })) },
  /** Reveal the output folder (desktop); a no-op in the browser. */
  revealFolder: { channel: 'custos:reveal-folder', request: z.object({ path }).strict(), response: nothing },
} as const;

export type Method = keyof typeof IPC_CONTRACT;
export type Channel = (typeof IPC_CONTRACT)[Method]['channel'];
export type RequestOf<M extends Method> = z.input<(typeof IPC_CONTRACT)[M]['request']>;
export type ParsedRequestOf<M extends Method> = z.output<(typeof IPC_CONTRACT)[M]['request']>;
export type ResponseOf<M extends Method> = Frozen<z.output<(typeof IPC_CONTRACT)[M]['response']>>;

/** What the page can ask its host, one function per channel, derived from the contract. */
export type HostCalls = { readonly [M in Method]: (request: RequestOf<M>) => Promise<ResponseOf<M>> };

export const METHODS = Object.keys(IPC_CONTRACT) as Method[];

/** The channel → method lookup the dispatcher needs (a Map: channel names come from the page). */
export const METHOD_OF_CHANNEL: ReadonlyMap<string, Method> = new Map(METHODS.map((m) => [IPC_CONTRACT[m].channel, m]));

/** Builds every host call from one transport (ipcRenderer.invoke, or a POST to the loopback host). */
export function hostCalls(send: (channel: Channel, request: unknown) => Promise<unknown>): HostCalls {
  return Object.fromEntries(METHODS.map((m) => [m, (request: unknown) => send(IPC_CONTRACT[m].channel, request)])) as unknown as HostCalls;
}

/** Channel names by method, for hosts and tests that address a channel directly. */
export const IPC_CHANNELS = Object.fromEntries(METHODS.map((m) => [m, IPC_CONTRACT[m].channel])) as { readonly [M in Method]: (typeof IPC_CONTRACT)[M]['channel'] };
