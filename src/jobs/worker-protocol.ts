import type { CsvChunkRequest } from '../io/input/csv-chunk.js';
import type { CompareMessage, CompareRequest } from './compare/compare-request.js';
import type { CompareHelperData } from './compare/compare-worker.js';
import type { JobRequest, WorkerMessage } from './job-request.js';
import type { HelperData } from './method-kit/utility-helper.js';
import type { RiskProfileHelperData } from './review/risk-profile-helper.js';
import type { WorkbookSheetsData } from './workbook-sheets-helper.js';
import type { ServiceCall, ServiceReply } from './service/table-service.js';
import type { WarmStart } from '../io/worker-script.js';

/**
 * The job worker's protocol, in one place: every way the worker script starts (its `workerData`,
 * told apart by `command`) and what each entry posts back to whoever started it.
 *
 * The helpers that talk over a `MessagePort` of their own (`utility-helper`, `compare-helper`,
 * `csv-chunk`, `risk-profile-helper`, `workbook-sheets-helper`) keep that port's messages private to their module: only their start is listed here.
 * A run's helpers (HelperEntries) are started from the helpers' own script (`helper-worker.ts`),
 * which loads a fraction of the job worker's code; the job worker serves them too, because the
 * single-file executable has one script for every thread (`thisBundle`, `helperWorkerBeside`).
 */
export interface HelperEntries {
  readonly 'utility-helper': { readonly data: HelperData; readonly posts: never };
  readonly 'csv-chunk': { readonly data: CsvChunkRequest; readonly posts: never };
  readonly 'risk-profile-helper': { readonly data: RiskProfileHelperData; readonly posts: never };
  readonly 'workbook-sheets-helper': { readonly data: WorkbookSheetsData; readonly posts: never };
  /** A thread started ahead of its work (`prestartWorker`): its first message is one of its script's other entries. */
  readonly warm: { readonly data: WarmStart; readonly posts: never };
}

export interface JobWorkerEntries extends HelperEntries {
  /** A run or an assessment (`startJob`): progress, then done or failed. */
  readonly assess: { readonly data: JobRequest; readonly posts: WorkerMessage };
  readonly run: { readonly data: JobRequest; readonly posts: WorkerMessage };
  /** A comparison of candidate jobs (`startComparison`): progress, then compared or failed. */
  readonly compare: { readonly data: CompareRequest; readonly posts: CompareMessage };
  /** The app's long-lived table worker (`ServiceClient`): one reply per call, in order, with its id. */
  readonly serve: { readonly data: ServeRequest; readonly posts: ServiceReplyEnvelope };
  /** Half of a comparison's candidates: it runs mechanisms, so only the job worker's script serves it. */
  readonly 'compare-helper': { readonly data: CompareHelperData; readonly posts: never };
}

/** What the helpers' script may be started with. */
export type HelperWorkerData = HelperEntries[keyof HelperEntries]['data'];

export type JobWorkerCommand = keyof JobWorkerEntries;

/** What the worker script may be started with: exactly one entry's data. */
export type JobWorkerData = JobWorkerEntries[JobWorkerCommand]['data'];

/** The table worker starts with no data of its own: its work arrives as calls. */
export interface ServeRequest {
  readonly command: 'serve';
}

/** A call to the table worker, with the id its reply carries back. */
export interface ServiceCallEnvelope {
  readonly id: number;
  readonly request: ServiceCall;
}

export interface ServiceReplyEnvelope {
  readonly id: number;
  readonly reply: ServiceReply<ServiceCall['call']>;
}

/** What a job worker started ahead of its task is named by (prestartWorker, startWorkerTask). */
export const JOB_TASK = 'job-task';

/** The entries a host starts as a task with progress and cancel (the helpers are started by the worker itself). */
export type TaskCommand = 'run' | 'assess' | 'compare';

/** A compile-time check that a dispatch over `command` handled every entry. */
export function unhandledEntry(entry: never): never {
  throw new Error(`the job worker has no entry ${JSON.stringify((entry as { command?: unknown }).command)}`);
}
