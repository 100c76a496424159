import { useEffect, useRef, useState } from 'react';
import { percent } from '../../common/compare/chart.js';
import { COMMON_POOL_ERROR_WORDS, DATA_DEPENDENT_CHOICE, TWO_ERRORS } from '../../common/compare/comparison.js';
import type { CustosApi } from '../../common/ipc/api.js';
import { MAX_CANDIDATES, type CompareStatus } from '../../common/ipc/compare-api.js';
import { browserMechanismOf, type Drafts } from '../../mechanisms/browser-registry.js';
import { definitionOf, type MechanismType, type MethodSpecs } from '../../mechanisms/definitions.js';
import { Callout, CheckField, TextField } from '../components/fields.js';
import { plainFailure } from '../components/plain-messages.js';
import { RiskErrorChart } from '../components/risk-error-chart.js';
import { axisOf, buildCandidates, cannotRunBefore, notComparedBecause, parseValues, shortTitle, targetChoices, type BuiltCandidate, type CandidateFamily } from '../state/compare-candidates.js';
import { utilityAxisOf, type UtilityAxis } from '../../common/compare/axes.js';
import { frontier } from '../../common/compare/frontier.js';
import { UtilityAxisFields } from '../components/utility-axis-fields.js';
import { defaultOutDir, type Action, type WizardState } from '../state/wizard-state.js';

/** What the step shows, kept by the app while the person visits other steps. */
export interface CompareView {
  readonly families: readonly CandidateFamily[];
  readonly includeCurrent: boolean;
  /** The candidates of the last comparison started, in its order (a result's id is its index + 1). */
  readonly candidates: readonly BuiltCandidate[];
  readonly status?: CompareStatus;
  readonly csvPath: string;
  readonly exported?: string;
  /** What the chart measures utility by (default: the common pool's query error), and the classifier's target. */
  readonly utilityAxis?: UtilityAxis['key'];
  readonly target?: string;
}

/**
 * The drafts with one method's form filled from a candidate's method object, parsed as the run parses it;
 * what the object does not state stays as the form had it (the mechanism's `carryOver`: per-value β).
 */
function draftsWith<T extends MechanismType>(drafts: Drafts, type: T, method: unknown): Drafts {
  const parsed = definitionOf(type).schema.parse(method) as MethodSpecs[T];
  const mechanism = browserMechanismOf(type);
  const next = mechanism.fromMethod(parsed);
  return { ...drafts, [type]: mechanism.carryOver ? mechanism.carryOver(drafts[type], next) : next };
}

type Compared = NonNullable<CompareStatus['comparison']>;

/** Every candidate in the order given: those compared and, in their place, those that could not run. */
function rowsOf(comparison: Compared): (Compared['candidates'][number] | Compared['skipped'][number])[] {
  return [...comparison.candidates, ...comparison.skipped].sort((a, b) => a.id - b.id);
}

/** A candidate that could not run, in the wizard's words: the field as its own method calls it, and why. */
export function skippedWords(s: Compared['skipped'][number]): string {
  return `cannot run${s.stage === 'check' ? ' (checked before the start)' : ''}: ${plainFailure({ message: s.reason, key: s.key }, s.method?.type)}`;
}

/** The ids of the candidates no other beats on both risk and the axis shown. */
function frontierOn(axis: UtilityAxis, candidates: Compared['candidates']): number[] {
  const placed = candidates.filter((c) => axis.value(c.utility) !== undefined);
  const flags = frontier(placed.map((c) => ({ risk: c.risk.share, error: axis.value(c.utility)! })));
  return placed.filter((_, i) => flags[i]).map((c) => c.id);
}

/** A candidate's figure on the utility axis shown, or n/a when it was not measured. */
function axisText(axis: UtilityAxis, utility: Compared['candidates'][number]['utility']): string {
  const value = axis.value(utility);
  return value === undefined ? 'n/a' : axis.text(value);
}

export function defaultCsvPath(inputPath: string): string {
  return defaultOutDir(inputPath).replace(/-release$/, '-comparison.csv');
}

export function CompareStep(props: { api: CustosApi; state: WizardState; dispatch: (a: Action) => void; desktop: boolean; view: CompareView; setView: (update: (v: CompareView) => CompareView) => void }) {
  const { api, state, dispatch, view, setView } = props;
  const [shown, setShown] = useState<number>();
  const status = view.status;
  const running = status?.state === 'running';
  // Poll the host for progress, as the Run step does.
  useEffect(() => {
    if (!status || status.state !== 'running') return;
    const timer = setInterval(() => {
      void api.compareStatus({ id: status.id }).then((next) => setView((v) => (v.status?.id === next.id ? { ...v, status: next } : v)));
    }, 150);
    return () => clearInterval(timer);
  }, [api, status, setView]);

  const targets = targetChoices(state);
  const target = view.target !== undefined && targets.includes(view.target) ? view.target : targets[0];
  const axis = utilityAxisOf(view.utilityAxis ?? 'query-error');
  const candidates = buildCandidates(state, view.families, view.includeCurrent, { axis: axis.key, ...(target !== undefined ? { target } : {}) });
  // Candidates that cannot run as set are said before the start; they are sent all the same, and come back as "cannot run" in their place.
  const cannotRun = candidates.flatMap((c, i) => {
    const why = cannotRunBefore(c);
    return why ? [{ id: i + 1, label: c.label, why }] : [];
  });
  const runnable = candidates.length - cannotRun.length;
  const tooMany = candidates.length > MAX_CANDIDATES;
  // The outcome is shown where the person looks: scrolled into view, the focus moved to it.
  const outcome = useRef<HTMLDivElement>(null);
  const results = useRef<HTMLHeadingElement>(null);
  const statusKey = status ? `${status.id}:${status.state}` : '';
  useEffect(() => {
    if (!statusKey) return;
    const done = statusKey.endsWith(':done');
    const target = done ? results.current : outcome.current;
    // The results from their heading down; progress or a failure in the middle, clear of the sticky header and footer.
    target?.scrollIntoView?.({ block: done ? 'start' : 'center' });
    target?.focus({ preventScroll: true });
  }, [statusKey]);
  const start = async (): Promise<void> => {
    const result = await api.startCompare({ candidates: candidates.map((c) => ({ label: c.label, job: c.job, grid: [...c.grid] })) });
    setShown(undefined);
    setView((v) => {
      const { exported: _exported, ...rest } = v;
      return result.ok ? { ...rest, candidates, status: { id: result.value.id, state: 'running', fraction: 0 } } : { ...rest, status: { id: '', state: 'failed', fraction: 0, failure: result.failure } };
    });
  };
  const comparison = status?.state === 'done' ? status.comparison : undefined;
  const use = (id: number): void => {
    const chosen = view.candidates[id - 1];
    if (!chosen || !comparison || !status) return;
    // The current chain is used as it stands: its steps' drafts are the wizard's own.
    const drafts = chosen.chain ? state.drafts : draftsWith(state.drafts, chosen.method, chosen.job.method);
    dispatch({ type: 'useCandidate', method: chosen.method, ...(chosen.chain ? { chain: chosen.chain } : {}), drafts, comparison: { id: status.id, chosen: chosen.label, candidates: comparison.candidates.length } });
  };
  const exportCsv = async (): Promise<void> => {
    if (!status) return;
    const result = await api.exportComparison({ id: status.id, path: view.csvPath });
    setView((v) => ({ ...v, exported: result.ok ? `Written: ${result.value.path} (confidential: keep it with the data).` : `Not written: ${plainFailure(result.failure)}` }));
  };
  const detail = comparison?.candidates.find((c) => c.id === shown);
  // The frontier on the axis shown (the comparison's own flags are the query error's).
  const onFrontier = new Set(comparison ? frontierOn(axis, comparison.candidates) : []);
  const setFamily = (method: MechanismType, patch: Partial<CandidateFamily>): void => setView((v) => ({ ...v, families: v.families.map((f) => (f.method === method ? { ...f, ...patch } : f)) }));

  return (
    <>
      <p className="lead">
        Put the current setting beside other methods and settings on the same file: each candidate is run in memory (nothing is released or written), its own attack counts the records it exposes, and the same pool of count queries over every column measures its common-pool query error. Points on the frontier are those no other candidate beats on both.
      </p>
      <Callout tone="warn" title="Choosing by these figures uses the confidential data.">
        {DATA_DEPENDENT_CHOICE}
      </Callout>
      <table className="grid families">
        <caption>Candidates: the current setting, and each ticked method at every value listed</caption>
        <thead>
          <tr>
            <th scope="col">Compare</th>
            <th scope="col">Method</th>
            <th scope="col">Parameter</th>
            <th scope="col">Values (comma-separated)</th>
          </tr>
        </thead>
        <tbody>
          {view.families.map((f) => {
            const axis = axisOf(f.method)!;
            const parsed = parseValues(axis, f.values);
            const title = shortTitle(f.method);
            return (
              <tr key={f.method}>
                <td>
                  <input type="checkbox" checked={f.included} aria-label={`Compare ${title}`} onChange={(e) => setFamily(f.method, { included: e.target.checked })} />
                </td>
                <th scope="row">{title}</th>
                <td>{axis.words}</td>
                <td>
                  <input type="text" value={f.values} aria-label={`${title}: values of ${axis.words}`} disabled={!f.included} aria-invalid={'problem' in parsed} onChange={(e) => setFamily(f.method, { values: e.target.value })} />
                  {f.included && 'problem' in parsed && <div className="problem">{parsed.problem}</div>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {axisOf(state.method) ? (
        <CheckField label={`Include the current setting (${shortTitle(state.method)})`} checked={view.includeCurrent} onChange={(includeCurrent) => setView((v) => ({ ...v, includeCurrent }))} />
      ) : (
        <p className="muted">The current method ({shortTitle(state.method)}) {notComparedBecause(state.method)}: the count queries cannot be asked of it, so it is not among the candidates.</p>
      )}
      <UtilityAxisFields axis={axis.key} target={target ?? ''} targets={targets} onAxis={(utilityAxis) => setView((v) => ({ ...v, utilityAxis }))} onTarget={(t) => setView((v) => ({ ...v, target: t }))} />
      <div className="actions">
        <button type="button" className="primary" disabled={running || runnable === 0 || tooMany} aria-describedby={cannotRun.length ? 'compare-cannot-run' : undefined} onClick={() => void start()}>
          Compare {runnable} candidate{runnable === 1 ? '' : 's'}
          {cannotRun.length > 0 && ` (${cannotRun.length} skipped)`}
        </button>
        {tooMany && <span className="muted">At most {MAX_CANDIDATES} candidates at once: list fewer values.</span>}
        {running && status && (
          <button type="button" onClick={() => void api.cancelCompare({ id: status.id }).then(() => api.compareStatus({ id: status.id })).then((next) => setView((v) => ({ ...v, status: next })))}>
            Cancel
          </button>
        )}
      </div>
      {cannotRun.length > 0 && (
        <div className="cannot-run-summary" id="compare-cannot-run">
          <p>
            {runnable === 0 ? 'No candidate can run as set' : `${cannotRun.length} of ${candidates.length} candidates cannot run as set and will be skipped; the other ${runnable} are compared`}:
          </p>
          <ul>
            {cannotRun.map((c) => (
              <li key={c.id}>
                {c.id}. {c.label}: cannot run: {c.why}
              </li>
            ))}
          </ul>
        </div>
      )}
      {status && status.state !== 'done' && (
        <div className="progress-block" aria-live="polite" ref={outcome} tabIndex={-1}>
          {running && (
            <div className="progress" role="progressbar" aria-label="Comparison progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(status.fraction * 100)}>
              <div className="progress-fill" style={{ width: `${Math.round(status.fraction * 100)}%` }} />
            </div>
          )}
          <p>
            {running && `${status.label ? `Assessing ${status.label}` : 'Starting'}… ${Math.round(status.fraction * 100)}%`}
            {status.state === 'cancelled' && 'Cancelled: nothing was written.'}
          </p>
          {status.state === 'failed' && status.failure && <Callout tone="error" title="The comparison failed.">{plainFailure(status.failure)}</Callout>}
        </div>
      )}
      {comparison && (
        <section aria-labelledby="compare-results">
          <h3 id="compare-results" ref={results} tabIndex={-1}>
            {comparison.candidates.length} candidate{comparison.candidates.length === 1 ? '' : 's'} compared{comparison.skipped.length > 0 && `, ${comparison.skipped.length} could not run,`} on {comparison.input.rows.toLocaleString('en-US')} records, {comparison.pool.queries.toLocaleString('en-US')} count queries ({comparison.seconds.toFixed(1)} s)
          </h3>
          <div className="legend" aria-hidden="true">
            <span>
              <span className="dot on-frontier" />
              on the frontier
            </span>
            <span>
              <span className="dot" />
              dominated by another candidate
            </span>
          </div>
          <div className="compare-layout">
            <div>
              <RiskErrorChart candidates={comparison.candidates} shown={shown} onShow={setShown} onSelect={(id) => setShown(id)} axis={axis} />
              {comparison.skipped.length > 0 && (
                <div className="cannot-run-summary">
                  <p>Not on the chart: {comparison.skipped.length === 1 ? 'one candidate' : `${comparison.skipped.length} candidates`} could not run.</p>
                  <ul>
                    {comparison.skipped.map((s) => (
                      <li key={s.id}>
                        {s.id}. {s.label}: {skippedWords(s)}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
            <div className="point-detail" id="compare-point-detail" aria-live="polite">
              {detail ? (
                <>
                  <h3>
                    {detail.id}. {detail.label}
                  </h3>
                  <dl>
                    <dt>Parameters</dt>
                    <dd>{detail.parameters}</dd>
                    <dt>Guarantee</dt>
                    <dd>
                      {detail.guarantee.label}. {detail.guarantee.statement}
                    </dd>
                    <dt>Risk</dt>
                    <dd>
                      {percent(detail.risk.share)} of records: {detail.risk.measure}
                    </dd>
                    <dt>Common-pool query error</dt>
                    <dd>
                      {detail.utility.relativeError === undefined ? 'n/a' : detail.utility.relativeError.toFixed(4)} ({COMMON_POOL_ERROR_WORDS})
                    </dd>
                    {detail.utility.accuracy && (
                      <>
                        <dt>Classifier accuracy ({detail.utility.accuracy.target})</dt>
                        <dd>
                          {percent(detail.utility.accuracy.release)} trained on the release, {percent(detail.utility.accuracy.input)} trained on the input
                        </dd>
                      </>
                    )}
                    {detail.utility.tableDistance !== undefined && (
                      <>
                        <dt>Contingency tables&apos; total variation</dt>
                        <dd>{detail.utility.tableDistance.toFixed(4)} (mean over the tables, 0 = the input&apos;s shares)</dd>
                      </>
                    )}
                    <dt>Frontier</dt>
                    <dd>{onFrontier.has(detail.id) ? 'yes: no other candidate has both lower risk and lower error' : 'no: another candidate is better on one axis and no worse on the other'}</dd>
                  </dl>
                  <button type="button" className="primary" onClick={() => use(detail.id)}>
                    Use this setting
                  </button>
                </>
              ) : (
                <p className="muted">Point at a candidate or move to it with Tab to see its parameters and guarantee in words; Enter keeps it here.</p>
              )}
            </div>
          </div>
          <p className="muted" id="two-errors">{TWO_ERRORS}</p>
          <table className="grid">
            <caption>The comparison (confidential: measured on the input)</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Candidate</th>
                <th scope="col">Guarantee</th>
                <th scope="col" className="n">
                  Risk
                </th>
                <th scope="col" className="n">
                  Common-pool query error
                </th>
                {axis.key !== 'query-error' && (
                  <th scope="col" className="n">
                    {axis.words}
                  </th>
                )}
                <th scope="col">Frontier</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rowsOf(comparison).map((c) =>
                'reason' in c ? (
                  <tr key={c.id} className="cannot-run">
                    <td>{c.id}</td>
                    <td>
                      {c.label}
                      <div className="muted">{c.method?.title ?? ''}</div>
                    </td>
                    <td colSpan={axis.key !== 'query-error' ? 6 : 5}>{skippedWords(c)}</td>
                  </tr>
                ) : (
                <tr key={c.id} className={onFrontier.has(c.id) ? 'on-frontier' : undefined}>
                  <td>{c.id}</td>
                  <td>
                    {c.label}
                    <div className="muted">{c.parameters}</div>
                  </td>
                  <td>{c.guarantee.label}</td>
                  <td className="n">{percent(c.risk.share)}</td>
                  <td className="n">{c.utility.relativeError === undefined ? 'n/a' : c.utility.relativeError.toFixed(4)}</td>
                  {axis.key !== 'query-error' && <td className="n">{axisText(axis, c.utility)}</td>}
                  <td>{onFrontier.has(c.id) ? 'on the frontier' : ''}</td>
                  <td>
                    <button type="button" onClick={() => use(c.id)} aria-label={`Use this setting: ${c.label}`}>
                      Use this setting
                    </button>
                  </td>
                </tr>
                ),
              )}
            </tbody>
          </table>
          <TextField
            label="Export the table as CSV (confidential)"
            wide
            value={view.csvPath}
            onChange={(csvPath) => setView((v) => ({ ...v, csvPath }))}
            help="The table is measured on the confidential input: keep the file with the data, never publish it. Its first line says so. When you run the chosen setting, the comparison also goes into the run's internal report folder (never the release)."
          />
          <div className="actions">
            {props.desktop && (
              <button type="button" onClick={() => void api.chooseFolder({}).then((dir) => dir && setView((v) => ({ ...v, csvPath: `${dir.replace(/[\\/]+$/, '')}/comparison.csv` })))}>
                Choose the folder…
              </button>
            )}
            <button type="button" disabled={!view.csvPath.trim()} onClick={() => void exportCsv()}>
              Export CSV
            </button>
          </div>
          {view.exported && <p role="status">{view.exported}</p>}
          <h3>Notes</h3>
          <ul className="notes">
            {comparison.notes.slice(1).map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
