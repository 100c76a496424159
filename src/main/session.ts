import { randomUUID } from 'node:crypto';
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { hierarchyCsv } from '../common/recoding/hierarchy-builder.js';
import { normalizeEncoding } from '../common/job/encoding.js';
import { readHierarchyRows } from '../io/input/hierarchy-reader.js';
import { InputError } from '../io/input/input-error.js';
import type { JobFailure, JobRequest } from '../jobs/job-request.js';
import { startJob, type RunningJob } from '../jobs/worker-host.js';
import { ServiceClient } from '../jobs/service/service-client.js';
import type { AppInfo, HostFailure, OpenedFile, RecentJob, Result, RunStatus } from '../common/ipc/api.js';
import { IPC_CONTRACT, MAX_EDITABLE_HIERARCHY_ROWS, METHOD_OF_CHANNEL, type Method, type ParsedRequestOf, type ResponseOf } from '../common/ipc/ipc-contract.js';
import type { Report } from '../common/report/report-model.js';
import { pathsReadBy, type PathAccess } from './path-access.js';
import { outputFoldersBesideInput } from './output-folders.js';
import { ComparisonRuns } from './compare-session.js';

/** What differs between the desktop shell and the loopback dev host. */
export interface HostEnvironment {
  readonly info: AppInfo;
  readonly workerUrl: URL;
  readonly baseDir: string;
  /** Which paths the page may have opened and written (desktop: only what the user granted). */
  readonly access: PathAccess;
  chooseFile(): Promise<string | null>;
  /** Files opened before, newest first, kept across sessions where the shell can (the desktop's preferences). */
  readonly recent?: RecentList<string>;
  /** Jobs that ran to completion, newest first, kept where the shell can. */
  readonly recentJobs?: RecentList<RecentJob>;
  chooseFolder(): Promise<string | null>;
  revealFolder(path: string): Promise<void>;
}

/** A short list kept across sessions (the desktop's preferences file). */
export interface RecentList<T> {
  list(): readonly T[];
  add(entry: T): void;
}

export class InvalidRequest extends Error {}


const MAX_RECENT = 10;

/** Whether a regular file is there now (a recent entry is offered only then). */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function failureOf(failure: JobFailure): HostFailure {
  const f = failure;
  return {
    kind: f.kind,
    message: f.reason !== undefined && f.file !== undefined ? `${inputLocation(f)}: ${f.reason}` : f.message,
    ...(f.key ? { key: f.key } : {}),
    ...(f.line !== undefined ? { line: f.line } : {}),
    ...(f.format ? { format: f.format } : {}),
    ...(f.sheet !== undefined ? { sheet: f.sheet } : {}),
    ...(f.sheets ? { sheets: [...f.sheets] } : {}),
    ...(f.advice ? { advice: f.advice } : {}),
  };
}

/** Where an input problem is, in words, once: "survey.xlsx, sheet “Notes”, line 2, column 4". */
export function inputLocation(f: Pick<JobFailure, 'file' | 'sheet' | 'line' | 'column'>): string {
  return [f.file, f.sheet !== undefined ? `sheet “${f.sheet}”` : '', f.line !== undefined ? `line ${f.line}` : '', f.column !== undefined ? `column ${f.column}` : ''].filter(Boolean).join(', ');
}

/**
 * The host side of the app as plain functions: opened tables, assessments and
 * runs in worker threads. Electron registers dispatch on ipcMain; the dev host
 * serves the same dispatch over loopback.
 */
export class AppSession {
  /** The long-lived worker that holds the open tables and assesses jobs on them. */
  private readonly service: ServiceClient;
  private readonly runs = new Map<string, { job: RunningJob; status: RunStatus }>();
  /** Files opened in this session, newest first: the recent list where the shell keeps none. */
  private openedThisSession: string[] = [];
  private ranThisSession: RecentJob[] = [];
  /** Hierarchy files the builder wrote in this session: the only existing files it may write again. */
  private readonly hierarchiesWritten = new Set<string>();

  /** The Compare step's comparisons, kept so a run can carry the one its setting was chosen from. */
  private readonly comparisons: ComparisonRuns;

  constructor(private readonly env: HostEnvironment) {
    this.service = new ServiceClient(env.workerUrl);
    this.comparisons = new ComparisonRuns(env.workerUrl, env.baseDir, env.access, (job) => this.refusal(job));
  }

  /** Starts the table worker before the first file is opened. */
  warmUp(): void {
    this.service.warmUp();
  }

  async close(): Promise<void> {
    await this.comparisons.close();
    await this.service.close();
  }

  /** One handler per channel of the contract; the compiler checks each against its request and response. */
  private readonly handlers: { readonly [M in Method]: (request: ParsedRequestOf<M>) => ResponseOf<M> | Promise<ResponseOf<M>> } = {
    appInfo: () => this.env.info,
    chooseFile: () => this.chooseFile(),
    chooseFolder: () => this.chooseFolder(),
    grantFile: (r) => this.env.access.grantFile(r.path),
    inspect: (r) => this.inspect(r.path, r.options),
    rows: (r) => this.rows(r.fileId, r.offset, r.count),
    checkHierarchy: (r) => this.checkHierarchy(r.path, r.fileId, r.column),
    saveHierarchy: (r) => this.saveHierarchy(r.path, r.rows),
    readHierarchy: (r) => this.readHierarchy(r.path),
    // A file deleted or moved since is left out (the stored list keeps it, should it come back): a chip must open what it names.
    recentFiles: () => [...(this.env.recent?.list() ?? this.openedThisSession)].filter((p) => this.env.access.mayRead(p) && isFile(p)).slice(0, MAX_RECENT),
    // The preferences file is the user's to edit: an entry that no longer reads as a job, or whose files are gone, is left out.
    recentJobs: () =>
      [...(this.env.recentJobs?.list() ?? this.ranThisSession)]
        .filter((r) => IPC_CONTRACT.recentJobs.response.element.safeParse(r).success && pathsReadBy(r.job, this.env.baseDir).every((p) => this.env.access.mayRead(p) && isFile(p)))
        .slice(0, MAX_RECENT),
    assess: (r) => this.assess(r.job),
    startRun: (r) => this.startRun(r.job, r.outDir, r.comparisonId, r.replace),
    freeFolder: (r) => this.freeFolder(r.path),
    runStatus: (r) => this.runStatus(r.id),
    cancelRun: (r) => this.cancelRun(r.id),
    startCompare: (r) => this.comparisons.start(r.candidates),
    compareStatus: (r) => this.comparisons.status(r.id),
    cancelCompare: (r) => this.comparisons.cancel(r.id),
    exportComparison: (r) => this.comparisons.exportCsv(r.id, r.path),
    revealFolder: (r) => {
      if (!this.env.access.mayWrite(r.path) && !this.env.access.mayRead(r.path)) throw new InvalidRequest('not a folder of this session');
      return this.env.revealFolder(r.path);
    },
  };

  /** Every message is validated against its channel's request schema before any handler runs (unknown keys are errors), every response against its response schema. */
  async dispatch(channel: string, payload: unknown): Promise<unknown> {
    const method = METHOD_OF_CHANNEL.get(channel);
    if (!method) throw new InvalidRequest(`unknown channel ${JSON.stringify(channel)}`);
    return this.call(method, payload);
  }

  private async call<M extends Method>(method: M, payload: unknown): Promise<ResponseOf<M>> {
    const parsed = IPC_CONTRACT[method].request.safeParse(payload ?? {});
    if (!parsed.success) throw new InvalidRequest(`invalid ${IPC_CONTRACT[method].channel} request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`).join('; ')}`);
    const handler = this.handlers[method] as (request: unknown) => ResponseOf<M> | Promise<ResponseOf<M>>;
    const response = await handler(parsed.data);
    // What leaves the host is what the contract names: a response that does not match it is a
    // defect of the host, reported as one, and fields the contract does not list never reach the page.
    const checked = IPC_CONTRACT[method].response.safeParse(response);
    if (!checked.success) throw new Error(`the host's ${IPC_CONTRACT[method].channel} response does not match the contract: ${checked.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return checked.data as ResponseOf<M>;
  }

  private remember(path: string): void {
    this.openedThisSession = [path, ...this.openedThisSession.filter((p) => p !== path)].slice(0, MAX_RECENT);
    this.env.recent?.add(path);
  }

  /** Records a job that ran, with the release folder it wrote in place of what the page named. */
  private rememberJob(ran: unknown, wroteTo: string): void {
    if (typeof ran !== 'object' || ran === null) return;
    const j = ran as { input?: { path?: unknown }; method?: unknown; output?: unknown };
    // One method's type, or a chain's two types in order ("global-recoding,beta-privacy", as custos init --method takes them).
    const types = (Array.isArray(j.method) ? j.method : [j.method]).map((m: unknown) => (typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : undefined));
    if (typeof j.input?.path !== 'string' || types.length === 0 || !types.every((t): t is string => typeof t === 'string')) return;
    const methodType = types.join(',');
    const job = { ...(ran as Record<string, unknown>), output: { ...(typeof j.output === 'object' && j.output !== null ? j.output : {}), dir: wroteTo } };
    const entry: RecentJob = { ranAt: new Date().toISOString(), inputName: basename(j.input.path), methodType, job };
    const same = JSON.stringify(job);
    this.ranThisSession = [entry, ...this.ranThisSession.filter((r) => JSON.stringify(r.job) !== same)].slice(0, MAX_RECENT);
    this.env.recentJobs?.add(entry);
  }

  async chooseFile(): Promise<string | null> {
    const path = await this.env.chooseFile();
    if (path) this.env.access.grantFile(path);
    return path;
  }

  async chooseFolder(): Promise<string | null> {
    const path = await this.env.chooseFolder();
    if (path) this.env.access.grantFolder(path);
    return path;
  }

  /** Why the job may not run here: a file the user did not grant, or a folder they did not choose. */
  private refusal(job: unknown, outDir?: string): HostFailure | undefined {
    const j = (job ?? {}) as { output?: { internalDir?: unknown } };
    const denied = pathsReadBy(job, this.env.baseDir).find((p) => !this.env.access.mayRead(p));
    if (denied) return { kind: 'input', message: `${basename(denied)} was not opened in Custos: open it with Open…, by dropping it on the window, or in a job file you opened` };
    if (outDir === undefined) return undefined;
    const release = resolve(this.env.baseDir, outDir);
    if (!this.env.access.mayWrite(release)) return { kind: 'job', message: `Custos writes only into a folder you chose: use Choose… for the release folder`, key: 'output.dir' };
    if (typeof j.output?.internalDir === 'string') {
      const internal = resolve(this.env.baseDir, j.output.internalDir);
      // The default internal folder is the release's sibling; another one must be chosen too.
      if (internal !== `${release}-internal` && !this.env.access.mayWrite(internal)) return { kind: 'job', message: 'Custos writes the internal report only into a folder you chose', key: 'output.internalDir' };
    }
    return undefined;
  }

  async inspect(path: string, options: ParsedRequestOf<'inspect'>['options']): Promise<Result<OpenedFile>> {
    if (!this.env.access.mayRead(path)) return { ok: false, failure: { kind: 'input', message: `${basename(path)} was not opened in Custos: open it with Open…, by dropping it on the window, or from a job file you opened` } };
    const encoding = options.encoding ? normalizeEncoding(options.encoding) : undefined;
    if (options.encoding && !encoding) return { ok: false, failure: { kind: 'job', message: `unsupported encoding "${options.encoding}"`, key: 'encoding' } };
    // Read in the long-lived worker, which keeps the table: the host's thread never scans the rows.
    const outcome = await this.service.call({
      call: 'inspect',
      path,
      options: {
        ...(options.delimiter ? { delimiter: options.delimiter === 'tab' ? '\t' : options.delimiter } : {}),
        ...(encoding ? { encoding } : {}),
        sheet: options.sheet ?? null,
        missing: options.missing ?? [''],
        onBadRow: 'skip',
      },
      ...(options.dates ? { dates: options.dates } : {}),
    });
    if (!outcome.ok) return { ok: false, failure: failureOf(outcome.failure) };
    if (options.recent !== false) this.remember(path);
    return { ok: true, value: outcome.value };
  }

  async rows(fileId: string, offset: number, count: number): Promise<Result<string[][]>> {
    const outcome = await this.service.call({ call: 'rows', fileId, offset, count });
    return outcome.ok ? outcome : { ok: false, failure: failureOf(outcome.failure) };
  }

  /** A hierarchy file against a column of an opened file: the wizard checks it where it is typed, not at the run. */
  async checkHierarchy(path: string, fileId: string, column: string): Promise<Result<{ levels: number; unmapped: string[]; unmappedCount: number }>> {
    const full = resolve(this.env.baseDir, path);
    if (!this.env.access.mayRead(full)) return { ok: false, failure: { kind: 'input', message: `${basename(full)} was not opened in Custos: choose it with Choose…` } };
    const outcome = await this.service.call({ call: 'checkHierarchy', fileId, column, path: full });
    return outcome.ok ? outcome : { ok: false, failure: failureOf(outcome.failure) };
  }

  /**
   * The rows of a hierarchy file the page may read (one the builder saved, or one the person chose),
   * so the builder can show its groups again after a reload. Small files only: the builder lists values.
   */
  readHierarchy(path: string): Result<string[][]> {
    const full = resolve(this.env.baseDir, path);
    if (!this.env.access.mayRead(full)) return { ok: false, failure: { kind: 'input', message: `${basename(full)} was not opened in Custos: choose it with Choose…` } };
    try {
      const rows = readHierarchyRows(full);
      if (rows.length > MAX_EDITABLE_HIERARCHY_ROWS) return { ok: false, failure: { kind: 'input', message: `${basename(full)} has ${rows.length.toLocaleString('en-US')} values, too many to edit in the builder: edit it in a spreadsheet` } };
      return { ok: true, value: rows };
    } catch (error) {
      if (error instanceof InputError) return { ok: false, failure: { kind: 'input', message: `${inputLocation(error)}: ${error.reason}` } };
      throw error;
    }
  }

  /**
   * A hierarchy the wizard built, written as an ARX CSV file beside the data (or where the person
   * typed): a new file, or one this session wrote before (the builder saving again); a file Custos
   * did not write is never replaced. Written whole to a temporary name and renamed, then granted
   * to the page, which names it in the job.
   */
  saveHierarchy(path: string, rows: readonly (readonly string[])[]): Result<{ path: string }> {
    const full = resolve(this.env.baseDir, path);
    if (!full.toLowerCase().endsWith('.csv')) return { ok: false, failure: { kind: 'job', key: 'hierarchy', message: `a hierarchy file is a .csv file: name it ${basename(full)}.csv` } };
    if (!this.env.access.mayWrite(full)) return { ok: false, failure: { kind: 'job', key: 'hierarchy', message: `Custos writes only into a folder you chose: choose the folder for ${basename(full)}` } };
    if (existsSync(full) && !this.hierarchiesWritten.has(full)) return { ok: false, failure: { kind: 'job', key: 'hierarchy', message: `${basename(full)} is there already and Custos did not write it in this session: choose another name` } };
    const temporary = join(dirname(full), `.${basename(full)}.${randomUUID()}.tmp`);
    try {
      writeFileSync(temporary, hierarchyCsv(rows), { flag: 'wx' });
      renameSync(temporary, full);
    } catch (error) {
      rmSync(temporary, { force: true });
      return { ok: false, failure: { kind: 'job', key: 'hierarchy', message: `cannot write ${basename(full)}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'its folder does not exist' : ((error as Error).message ?? 'unknown error')}` } };
    }
    this.hierarchiesWritten.add(full);
    this.env.access.grantFile(full);
    return { ok: true, value: { path: full } };
  }

  async assess(job: unknown): Promise<Result<Report>> {
    const refused = this.refusal(job);
    if (refused) return { ok: false, failure: refused };
    // In the long-lived worker: a table it already read for this file is not read again.
    const outcome = await this.service.call({ call: 'assess', job, baseDir: this.env.baseDir });
    return outcome.ok ? outcome : { ok: false, failure: failureOf(outcome.failure) };
  }

  /**
   * The first of `path`, `path-2`, `path-3`, … where neither the release nor its internal folder
   * exists, so each run gets a folder of its own. Only folders the page may write are looked at.
   */
  freeFolder(path: string): string {
    for (let n = 1; n <= 999; n++) {
      const candidate = n === 1 ? path : `${path}-${n}`;
      const full = resolve(this.env.baseDir, candidate);
      if (!this.env.access.mayWrite(full)) return path;
      if (!existsSync(full) && !existsSync(`${full}-internal`)) return candidate;
    }
    return path;
  }

  startRun(pageJob: unknown, pageOutDir: string, comparisonId?: string, replace = false): Result<{ id: string }> {
    // A folder typed as a bare name means one beside the data, not beside wherever the app was started.
    const { job, outDir } = outputFoldersBesideInput(pageJob, pageOutDir, this.env.baseDir);
    const refused = this.refusal(job, outDir);
    if (refused) return { ok: false, failure: refused };
    // A release is published work: replacing it is the person's decision, asked for by the page.
    const release = resolve(this.env.baseDir, outDir);
    if (!replace && existsSync(join(release, 'manifest.json'))) {
      return { ok: false, failure: { kind: 'job', key: 'output.dir', existingRelease: true, message: `${release} already holds a release: replace it, or run into a new folder` } };
    }
    // The comparison goes to the run's internal folder only; one this session did not finish is refused, not dropped silently.
    const comparison = comparisonId ? this.comparisons.finished(comparisonId) : undefined;
    if (comparisonId && !comparison) return { ok: false, failure: { kind: 'job', message: 'the comparison this setting was chosen from is no longer held: compare again or run without it' } };
    const id = randomUUID();
    const request: JobRequest = { command: 'run', job, baseDir: this.env.baseDir, outDir, ...(comparison ? { comparison } : {}) };
    const entry = { job: undefined as unknown as RunningJob, status: { id, state: 'running', fraction: 0 } as RunStatus };
    entry.job = startJob(this.env.workerUrl, request, (event) => {
      entry.status = { id, state: 'running', stage: event.stage, label: event.label, fraction: event.fraction };
    });
    this.runs.set(id, entry);
    void entry.job.result.then((outcome) => {
      if (entry.status.state === 'cancelled') return;
      if (outcome.ok) this.rememberJob(job, outcome.outDir ?? resolve(this.env.baseDir, outDir));
      // The release's files are Custos's own, in a folder the person chose: the Results step's before/after view reads them back.
      if (outcome.ok) for (const f of outcome.report.output?.files ?? []) this.env.access.grantFile(join(outcome.outDir ?? resolve(this.env.baseDir, outDir), f.name));
      entry.status = outcome.ok
        ? { id, state: 'done', fraction: 1, report: outcome.report, ...(outcome.outDir ? { outDir: outcome.outDir } : {}), ...(outcome.internalDir ? { internalDir: outcome.internalDir } : {}) }
        : { id, state: outcome.failure.kind === 'cancelled' ? 'cancelled' : 'failed', fraction: 0, failure: outcome.failure };
    });
    return { ok: true, value: { id } };
  }

  runStatus(id: string): RunStatus {
    return this.runs.get(id)?.status ?? { id, state: 'failed', fraction: 0, failure: { kind: 'internal', message: 'no such run' } };
  }

  async cancelRun(id: string): Promise<void> {
    const entry = this.runs.get(id);
    if (!entry || entry.status.state !== 'running') return;
    entry.status = { id, state: 'cancelled', fraction: 0, failure: { kind: 'cancelled', message: 'cancelled; nothing was written' } };
    await entry.job.cancel();
  }

  /** The output folder of a finished run, for serving its files. */
  outputOf(id: string): { dir: string; files: readonly string[] } | undefined {
    const status = this.runs.get(id)?.status;
    if (status?.state !== 'done' || !status.outDir || !status.report?.output) return undefined;
    // The release folder's files; the internal report (confidential) is not served to the page.
    return { dir: status.outDir, files: [...status.report.output.files.map((f) => f.name), 'manifest.json'] };
  }
}
