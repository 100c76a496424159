import { randomUUID } from 'node:crypto';
import { basename, resolve } from 'node:path';
import type { Comparison } from '../common/compare/comparison.js';
import type { HostFailure, Result } from '../common/ipc/api.js';
import type { CandidateJobMessage, CompareStatus } from '../common/ipc/compare-api.js';
import { startComparison, type RunningComparison } from '../jobs/compare/compare-host.js';
import { writeComparisonCsv } from '../jobs/compare/comparison-files.js';
import type { CompareRequest } from '../jobs/compare/compare-request.js';
import { describeFailure } from '../jobs/execute-request.js';
import type { JobFailure } from '../jobs/job-request.js';
import type { WorkerScript } from '../io/worker-script.js';
import type { PathAccess } from './path-access.js';

function failureOf(f: JobFailure): HostFailure {
  return { kind: f.kind, message: f.message, ...(f.key ? { key: f.key } : {}), ...(f.line !== undefined ? { line: f.line } : {}) };
}

/**
 * The Compare step's host side: comparisons run in the job worker as
 * `custos compare` runs them (same machinery, nothing written), polled for
 * progress, cancelled, exported as CSV, and kept so a run can carry the one its
 * setting was chosen from into its internal folder.
 */
export class ComparisonRuns {
  private readonly runs = new Map<string, { running: RunningComparison; status: CompareStatus; comparison?: Comparison }>();

  constructor(
    private readonly workerScript: WorkerScript,
    private readonly baseDir: string,
    private readonly access: PathAccess,
    /** Why a job may not be read here (a file the user did not open), as the run refuses it. */
    private readonly refusal: (job: unknown) => HostFailure | undefined,
  ) {}

  start(candidates: readonly CandidateJobMessage[]): Result<{ id: string }> {
    for (const c of candidates) {
      const refused = this.refusal(c.job);
      if (refused) return { ok: false, failure: { ...refused, message: `candidate ${c.label}: ${refused.message}` } };
    }
    const id = randomUUID();
    const request: CompareRequest = { command: 'compare', jobs: candidates.map((c) => ({ label: c.label, job: c.job, grid: c.grid ?? [] })), baseDir: this.baseDir };
    const entry: { running: RunningComparison; status: CompareStatus; comparison?: Comparison } = {
      running: startComparison(this.workerScript, request, (p) => {
        if (entry.status.state === 'running') entry.status = { id, state: 'running', label: p.label, fraction: Math.min(1, Math.max(0, p.fraction)) };
      }),
      status: { id, state: 'running', fraction: 0 },
    };
    this.runs.set(id, entry);
    void entry.running.result.then((outcome) => {
      if (entry.status.state === 'cancelled') return;
      if (outcome.ok) entry.comparison = outcome.comparison;
      entry.status = outcome.ok
        ? { id, state: 'done', fraction: 1, comparison: outcome.comparison }
        : { id, state: outcome.failure.kind === 'cancelled' ? 'cancelled' : 'failed', fraction: 0, failure: failureOf(outcome.failure) };
    });
    return { ok: true, value: { id } };
  }

  status(id: string): CompareStatus {
    return this.runs.get(id)?.status ?? { id, state: 'failed', fraction: 0, failure: { kind: 'internal', message: 'no such comparison' } };
  }

  async cancel(id: string): Promise<void> {
    const entry = this.runs.get(id);
    if (!entry || entry.status.state !== 'running') return;
    entry.status = { id, state: 'cancelled', fraction: 0, failure: { kind: 'cancelled', message: 'cancelled; nothing was written' } };
    await entry.running.cancel();
  }

  /** Stops every comparison still running (the app is closing): their workers must not outlive it. */
  async close(): Promise<void> {
    await Promise.all([...this.runs.keys()].map((id) => this.cancel(id)));
  }

  /** A finished comparison, for the run whose setting was chosen from it. */
  finished(id: string): Comparison | undefined {
    return this.runs.get(id)?.comparison;
  }

  /** Writes the table as CSV where the page may write; an earlier export is replaced, anything else is refused. */
  exportCsv(id: string, path: string): Result<{ path: string }> {
    const comparison = this.finished(id);
    if (!comparison) return { ok: false, failure: { kind: 'job', message: 'run the comparison first' } };
    const full = resolve(this.baseDir, path);
    // As a release folder is checked: inside a folder the person chose, or a new name beside a file they opened.
    if (!this.access.mayWrite(full)) return { ok: false, failure: { kind: 'job', message: `Custos writes only into a folder you chose: choose the folder for ${basename(full)}` } };
    try {
      writeComparisonCsv(full, comparison, [comparison.input.path]);
    } catch (error) {
      return { ok: false, failure: failureOf(describeFailure(error)) };
    }
    return { ok: true, value: { path: full } };
  }
}
