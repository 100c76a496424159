import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { AppInfo, CustosApi, HostFailure } from '../common/ipc/api.js';
import { Callout } from './components/fields.js';
import { own } from '../common/job/names.js';
import { buildJob, changedOnSave, stateFromJob } from './state/job.js';
import { parameterProblems } from './state/validation.js';
import { initialState, reducer, STEPS, type StepId, type WizardState } from './state/wizard-state.js';
import { ColumnsStep } from './steps/columns-step.js';
import { ExportStep } from './steps/export-step.js';
import { MethodStep } from './steps/method-step.js';
import { OpenStep } from './steps/open-step.js';
import { ParametersStep } from './steps/parameters-step.js';
import { ResultsStep } from './steps/results-step.js';
import { RiskStep } from './steps/risk-step.js';
import { RunStep } from './steps/run-step.js';

/** Why a step cannot be visited yet, or undefined when it can. */
function blockedReason(state: WizardState, step: StepId): string | undefined {
  if (step === 'open') return undefined;
  if (!state.file) return 'open a file first';
  const later = step !== 'columns' && step !== 'method' && step !== 'parameters';
  if (later && state.file.rejectedCount > 0 && state.fileOptions.onBadRow === 'error') {
    return 'some rows of the file cannot be read: skip them (Open step) or fix the file';
  }
  if (later && state.missingSensitive === 'error' && state.file.columns.some((c) => c.missing > 0 && own(state.roles, c.name) === 'sensitive')) {
    return 'a sensitive column has missing values: choose how to treat them (Columns step) or fill them in';
  }
  if (step === 'results' || step === 'export') return state.report ? undefined : 'run the job first';
  if (step === 'risk' || step === 'run') {
    const problems = Object.values(parameterProblems(state, state.file));
    return problems[0];
  }
  return undefined;
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function App({ api }: { api: CustosApi }) {
  const [state, dispatch] = useReducer(reducer, initialState);
  const [info, setInfo] = useState<AppInfo>();
  const [notice, setNotice] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);
  const jobInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    void api.appInfo({}).then(setInfo);
  }, [api]);
  // Moving to a step puts the keyboard focus on its heading, so screen readers announce it.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    heading.current?.focus();
  }, [state.step]);

  const open = useCallback(
    async (path: string, current: WizardState = state): Promise<HostFailure | undefined> => {
      const o = current.fileOptions;
      const result = await api.inspect({
        path,
        options: {
          ...(o.delimiter ? { delimiter: o.delimiter } : {}),
          ...(o.encoding ? { encoding: o.encoding } : {}),
          missing: o.missing.split(',').map((t) => t.trim()),
          ...(o.sheet ? { sheet: o.sheet } : {}),
        },
      });
      dispatch(result.ok ? { type: 'opened', file: result.value } : { type: 'openFailed', path });
      return result.ok ? undefined : result.failure;
    },
    [api, state],
  );
  const saveJob = useCallback(() => download('job.json', JSON.stringify(buildJob(state), null, 2) + '\n'), [state]);
  const loadJob = async (file: File): Promise<void> => {
    try {
      // On the desktop this grants the job file, and the files it names, to the app.
      api.pathForFile(file);
      const written = JSON.parse(await file.text()) as unknown;
      const restored = stateFromJob(written);
      dispatch({ type: 'load', state: restored });
      const changed = changedOnSave(written, restored);
      const failure = restored.inputPath ? await open(restored.inputPath, restored) : undefined;
      const caveat = changed.length > 0 ? ` The wizard cannot show ${changed.join(', ')}: saving the job from here writes them as the form shows them.` : '';
      setNotice((failure ? `Job loaded, but its input could not be read: ${failure.message}` : `Job “${file.name}” loaded.`) + caveat);
    } catch (error) {
      setNotice(`“${file.name}” is not a Custos job file: ${(error as Error).message}`);
    }
  };
  useEffect(() => {
    api.onMenuCommand((command) => {
      if (command === 'save-job') saveJob();
      if (command === 'open') dispatch({ type: 'go', step: 'open' });
      if (command === 'export') dispatch({ type: 'go', step: 'export' });
    });
  }, [api, saveJob]);

  const index = STEPS.findIndex((s) => s.id === state.step);
  const next = STEPS[index + 1];
  const previous = STEPS[index - 1];
  const nextBlocked = next ? blockedReason(state, next.id) : undefined;
  const onPreviewed = useCallback((path: string, levels: string): void => dispatch({ type: 'previewed', path, levels }), []);
  const fixKey = (key: string): void => dispatch({ type: 'go', step: key.startsWith('attributes') ? 'columns' : 'parameters' });
  if (!info) return <p className="loading">Starting Custos…</p>;
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Custos</span>
        <span className="file-name">{state.file ? state.file.name : 'No file open'}</span>
        <span className="spacer" />
        <button type="button" onClick={() => jobInput.current?.click()}>
          Open job…
        </button>
        <input ref={jobInput} type="file" accept=".json,application/json" className="visually-hidden" tabIndex={-1} aria-hidden="true" onChange={(e) => e.target.files?.[0] && void loadJob(e.target.files[0])} />
        <button type="button" onClick={saveJob} disabled={!state.inputPath}>
          Save job
        </button>
      </header>
      <nav className="steps" aria-label="Steps">
        <ol>
          {STEPS.map((s, i) => {
            const blocked = blockedReason(state, s.id);
            return (
              <li key={s.id}>
                <button type="button" aria-current={s.id === state.step ? 'step' : undefined} disabled={blocked !== undefined} title={blocked} onClick={() => dispatch({ type: 'go', step: s.id })}>
                  <span className="step-number">{i + 1}</span> {s.title}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>
      <main className="content">
        <h2 ref={heading} tabIndex={-1}>
          {index + 1}. {STEPS[index]!.title}
        </h2>
        {notice && (
          <Callout tone="info">
            {notice}{' '}
            <button type="button" className="link" onClick={() => setNotice(undefined)}>
              Dismiss
            </button>
          </Callout>
        )}
        {state.step === 'open' && <OpenStep api={api} info={info} state={state} dispatch={dispatch} open={(p) => open(p)} />}
        {state.step === 'columns' && state.file && <ColumnsStep file={state.file} state={state} dispatch={dispatch} />}
        {state.step === 'method' && <MethodStep state={state} dispatch={dispatch} />}
        {state.step === 'parameters' && state.file && <ParametersStep file={state.file} state={state} dispatch={dispatch} chooseFile={info.host === 'electron' ? () => api.chooseFile({}) : undefined} />}
        {state.step === 'risk' && <RiskStep api={api} state={state} onFix={fixKey} onPreviewed={onPreviewed} />}
        {state.step === 'run' && <RunStep api={api} state={state} dispatch={dispatch} blocked={blockedReason(state, 'run')} desktop={info.host === 'electron'} />}
        {state.step === 'results' && state.report && <ResultsStep report={state.report} />}
        {state.step === 'export' && state.report && state.run && <ExportStep api={api} report={state.report} runId={state.run.id} saveJob={saveJob} desktop={info.host === 'electron'} internalDir={state.run.status.internalDir} />}
        <footer className="wizard-nav">
          {previous && (
            <button type="button" onClick={() => dispatch({ type: 'go', step: previous.id })}>
              ← Back
            </button>
          )}
          <span className="spacer" />
          {next && nextBlocked && <span className="muted">{nextBlocked}</span>}
          {next && (
            <button type="button" className="primary" disabled={nextBlocked !== undefined} onClick={() => dispatch({ type: 'go', step: next.id })}>
              Next: {next.title} →
            </button>
          )}
        </footer>
      </main>
    </div>
  );
}
