import { plainFailure } from '../components/plain-messages.js';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { CustosApi, HostFailure } from '../../common/ipc/api.js';
import { Callout, CheckField, SelectField, TextField } from '../components/fields.js';
import { buildJob } from '../state/job.js';
import { timeLeft } from '../../common/progress.js';
import { defaultOutDir, LARGE_RELEASE_ROWS, type Action, type WizardState } from '../state/wizard-state.js';
import { formatNumber } from '../../common/format/numbers.js';

/** The sticky footer's place for a step's own actions (the Run step's Run and Cancel). */
export const STEP_ACTIONS_ID = 'step-actions';

export function RunStep(props: { api: CustosApi; state: WizardState; dispatch: (a: Action) => void; blocked: string | undefined; desktop: boolean }) {
  const [actionSlot, setActionSlot] = useState<HTMLElement | null>(null);
  useEffect(() => setActionSlot(document.getElementById(STEP_ACTIONS_ID)), []);
  const { api, state, dispatch } = props;
  const o = state.output;
  const run = state.run;
  const running = run?.status.state === 'running';
  // Poll the host for progress: one mechanism for the desktop and the browser.
  useEffect(() => {
    if (!run || run.status.state !== 'running') return;
    const timer = setInterval(() => {
      void api.runStatus({ id: run.id }).then((status) => {
        dispatch({ type: 'runStatus', status });
        if (status.state === 'done') dispatch({ type: 'go', step: 'results' });
      });
    }, 150);
    return () => clearInterval(timer);
  }, [api, run, dispatch]);
  // A run the host refuses to start (a folder not chosen in the desktop app, a comparison no longer
  // held) is said where Run was clicked: a click must never look like nothing happened.
  const [refused, setRefused] = useState<HostFailure | undefined>(undefined);
  const start = async (replace = false): Promise<void> => {
    setRefused(undefined);
    const result = await api.startRun({ job: buildJob(state), outDir: o.dir, ...(state.comparison ? { comparisonId: state.comparison.id } : {}), ...(replace ? { replace } : {}) });
    if (result.ok) dispatch({ type: 'runStarted', id: result.value.id, at: Date.now() });
    else setRefused(result.failure);
  };
  // A folder the wizard names is one of its own per run: after the input and the method, with -2, -3… when taken (by an earlier run).
  const file = state.file;
  const finished = run?.status.state;
  useEffect(() => {
    if (!o.dirAuto || !file || running) return;
    let live = true;
    void api.freeFolder({ path: defaultOutDir(file.path, state.method) }).then((dir) => {
      if (live && dir !== o.dir) dispatch({ type: 'patchOutput', patch: { dir, dirAuto: true } });
    });
    return () => {
      live = false;
    };
  }, [api, file?.path, state.method, o.dirAuto, finished]);
  const newFolder = async (): Promise<void> => {
    setRefused(undefined);
    dispatch({ type: 'patchOutput', patch: { dir: await api.freeFolder({ path: o.dir.trim().replace(/[\\/]+$/, '') }), dirAuto: false } });
  };
  // The outcome is brought into view when the run starts and when it ends otherwise than in Results,
  // focus included for a failure, so a click on Run never looks like nothing happened.
  const outcome = useRef<HTMLDivElement>(null);
  const outcomeKey = run ? `${run.id}:${run.status.state}` : '';
  useEffect(() => {
    const block = outcome.current;
    if (!block || !run) return;
    block.scrollIntoView?.({ block: 'nearest' });
    if (run.status.state === 'failed' || run.status.state === 'cancelled') block.focus({ preventScroll: true });
    // Only a new run or a new state of it moves the view.
  }, [outcomeKey]);
  const fraction = run?.shown ?? 0;
  const left = run?.startedAt !== undefined && running ? timeLeft(Date.now() - run.startedAt, fraction) : undefined;
  const actions = (
    <>
        <button type="button" className="primary" disabled={running || !!props.blocked || (!o.csv && !o.xlsx && !o.parquet) || !o.dir.trim()} onClick={() => void start()}>
          Run
        </button>
        {running && (
          <button type="button" onClick={() => void api.cancelRun({ id: run.id }).then(() => api.runStatus({ id: run.id })).then((status) => dispatch({ type: 'runStatus', status }))}>
            Cancel
          </button>
        )}
    </>
  );
  return (
    <>
      <p className="lead">Where to write the protected release and its report. Files are written to a temporary folder and appear only when complete.</p>
      <TextField label="Release folder (to publish)" wide value={o.dir} onChange={(dir) => dispatch({ type: 'patchOutput', patch: { dir, dirAuto: false } })} help="A new folder (each run gets one of its own, named after the file and the method), or a previous Custos release to replace, which Custos asks about first; a name without a folder is made beside the data. It receives only what may be published: the released data, the external report and a manifest of checksums." />
      {props.desktop && (
        <div className="actions">
          <button type="button" onClick={() => void api.chooseFolder({}).then((dir) => dir && dispatch({ type: 'patchOutput', patch: { dir, dirAuto: false } }))}>
            Choose the release folder…
          </button>
        </div>
      )}
      <TextField
        label="Internal report folder (confidential)"
        wide
        value={o.internalDir}
        placeholder={o.dir.trim() ? `${o.dir.trim().replace(/[\\/]+$/, '')}-internal` : ''}
        onChange={(internalDir) => dispatch({ type: 'patchOutput', patch: { internalDir } })}
        help="The internal report shows true statistics of the confidential data and the input's checksum; keep it with the data, never publish it. Empty: beside the release folder, named after it with “-internal”; a name without a folder is made beside the data."
      />
      <fieldset className="options inline">
        <legend>Release formats</legend>
        <CheckField label="CSV" checked={o.csv} onChange={(csv) => dispatch({ type: 'patchOutput', patch: { csv } })} />
        <CheckField label="Excel workbook" checked={o.xlsx} onChange={(xlsx) => dispatch({ type: 'patchOutput', patch: { xlsx } })} />
        <CheckField label="Parquet" checked={o.parquet} onChange={(parquet) => dispatch({ type: 'patchOutput', patch: { parquet } })} />
        <CheckField label="SPSS file (.sav)" checked={o.csv && o.sav} disabled={!o.csv} onChange={(sav) => dispatch({ type: 'patchOutput', patch: { sav } })} />
        <CheckField label="Stata file (.dta)" checked={o.csv && o.dta} disabled={!o.csv} onChange={(dta) => dispatch({ type: 'patchOutput', patch: { dta } })} />
      </fieldset>
      {o.csv && (o.sav || o.dta) && (
        <p className="muted">
          The {o.sav && o.dta ? 'SPSS and Stata files hold' : o.sav ? 'SPSS file holds' : 'Stata file holds'} the CSV's table: codes with their value labels where every released value has one (labels of values the release does not hold are left out), dates as dates, names made valid for the package. They come with the CSV, which an auditor checks them against.
        </p>
      )}
      {state.file && state.file.rows > LARGE_RELEASE_ROWS && (
        <Callout tone="info">
          {formatNumber(state.file.rows)} records: an Excel workbook of this size takes most of the run's time and memory (a million rows spill over several sheets), so it is left out unless you tick it. CSV opens in Excel too.
        </Callout>
      )}
      {o.csv && (
        <fieldset className="options inline">
          <legend>CSV files</legend>
          <SelectField
            label="Delimiter"
            value={o.csvDelimiter}
            options={[
              { value: ',', label: 'comma ,' },
              { value: ';', label: 'semicolon ; (Excel in most of Europe)' },
              { value: '\t', label: 'tab' },
              { value: '|', label: 'pipe |' },
            ]}
            onChange={(csvDelimiter) => dispatch({ type: 'patchOutput', patch: { csvDelimiter } })}
          />
          <SelectField
            label="Encoding"
            value={o.csvEncoding}
            options={[
              { value: 'utf-8', label: 'UTF-8' },
              { value: 'utf-8-bom', label: 'UTF-8 with BOM (Excel opens accents right)' },
              { value: 'windows-1252', label: 'Windows-1252 (older Excel, Western Europe)' },
            ]}
            onChange={(csvEncoding) => dispatch({ type: 'patchOutput', patch: { csvEncoding } })}
            help={o.csvEncoding === 'windows-1252' ? 'A value with a character Windows-1252 cannot write stops the run, naming it; nothing is replaced.' : undefined}
          />
          <SelectField
            label="Line endings"
            value={o.csvLineEnding}
            options={[
              { value: 'crlf', label: 'Windows (CRLF, the CSV standard)' },
              { value: 'lf', label: 'Unix (LF)' },
            ]}
            onChange={(csvLineEnding) => dispatch({ type: 'patchOutput', patch: { csvLineEnding } })}
          />
        </fieldset>
      )}
      <fieldset className="options inline">
        <legend>Report</legend>
        <CheckField label="HTML" checked={o.html} onChange={(html) => dispatch({ type: 'patchOutput', patch: { html } })} />
        <CheckField label="PDF" checked={o.pdf} onChange={(pdf) => dispatch({ type: 'patchOutput', patch: { pdf } })} />
      </fieldset>
      {state.comparison && (
        <Callout tone="info" title="The comparison goes with the internal report.">
          You used a setting from the Compare step ({state.comparison.chosen}, among {state.comparison.candidates} candidates). The comparison is written into the internal report folder as its own confidential section (comparison.html, .json, .csv), never into the release folder.
        </Callout>
      )}
      {props.blocked && <Callout tone="error">Fix this first: {props.blocked}.</Callout>}
      {!o.csv && !o.xlsx && !o.parquet && <Callout tone="error">Choose at least one release format.</Callout>}
      {refused?.existingRelease && (
        <div role="alert">
          <Callout tone="warn" title={`“${o.dir}” already holds a release, from an earlier run.`}>
            Replacing it deletes that release. Run into a new folder to keep both.
            <div className="actions">
              <button type="button" onClick={() => void newFolder()}>
                Use a new folder
              </button>
              <button type="button" onClick={() => void start(true)}>
                Replace the earlier release
              </button>
            </div>
          </Callout>
        </div>
      )}
      {refused && !refused.existingRelease && (
        <div role="alert">
          <Callout tone="error" title="The run did not start; nothing was written.">{plainFailure(refused, props.state.method)}</Callout>
        </div>
      )}
      {/* Run and Cancel sit in the step's sticky footer, in view however far the options above are scrolled. */}
      {actionSlot && createPortal(actions, actionSlot)}
      {run && (
        <div className="progress-block" aria-live="polite" ref={outcome} tabIndex={-1}>
          <div className="progress" role="progressbar" aria-label="Run progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(fraction * 100)}>
            <div className="progress-fill" style={{ width: `${Math.round(fraction * 100)}%` }} />
          </div>
          <p>
            {run.status.state === 'running' && `${run.status.label ?? 'Starting'}… ${Math.round(fraction * 100)}%${left ? ` (${left})` : ''}`}
            {run.status.state === 'cancelled' && 'Cancelled: nothing was written.'}
            {run.status.state === 'done' && 'Done.'}
          </p>
          {run.status.state === 'failed' && run.status.failure && <Callout tone="error" title="The run failed; nothing was written.">{plainFailure(run.status.failure, props.state.method)}</Callout>}
        </div>
      )}
    </>
  );
}
