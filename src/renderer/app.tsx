import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { AppInfo, CustosApi, HostFailure } from '../common/ipc/api.js';
import { Callout } from './components/fields.js';
import { HelpPanel } from './components/glossary.js';
import { plainFailure } from './components/plain-messages.js';
import { own, type Named } from '../common/job/names.js';
import type { LevelEntry } from './components/recoding-lattice.js';
import { buildJob, changedOnSave, stateFromJob, type JobFile } from './state/job.js';
import { draftOf, readDraft, writeDraft } from './state/autosave.js';
import { parameterProblems } from './state/validation.js';
import { nextStepAfter, previousStepBefore, stepNumber, STEPS, type Action, type StepId, type WizardState } from './state/wizard-state.js';
import { browserMechanismOf } from '../mechanisms/browser-registry.js';
import { historyReducer, initialHistory } from './state/history.js';
import { ResetStepButton, UndoBar, useUndoKeys } from './undo-bar.js';
import { CompareStep, defaultCsvPath, type CompareView } from './steps/compare-step.js';
import { initialFamilies } from './state/compare-candidates.js';
import { ColumnsStep } from './steps/columns-step.js';
import { ExportStep } from './steps/export-step.js';
import { MethodStep } from './steps/method-step.js';
import { OpenStep } from './steps/open-step.js';
import { ProjectsPanel } from './projects-panel.js';
import { ParametersStep } from './steps/parameters-step.js';
import { ResultsStep } from './steps/results-step.js';
import { BeforeAfter } from './components/before-after.js';
import { RiskStep } from './steps/risk-step.js';
import { RunStep, STEP_ACTIONS_ID } from './steps/run-step.js';

/** The last risk preview that failed, for the job it was run on. */
interface FailedPreview {
  readonly job: string;
  readonly message: string;
}

/**
 * Why a step cannot be visited yet, or undefined when it can. `assessedJob`: the job the risk preview
 * last finished assessing, given on the Risk step, where "Next: Run" waits for the preview of this job.
 */
export function blockedReason(state: WizardState, step: StepId, failedPreview?: FailedPreview, assessedJob?: string): string | undefined {
  if (step === 'open') return undefined;
  if (!state.file) return 'open a file first';
  const later = step !== 'columns' && step !== 'method' && step !== 'parameters';
  if (later && state.file.rejectedCount > 0 && state.fileOptions.onBadRow === 'error') {
    return 'some rows of the file cannot be read: skip them (Open step) or fix the file';
  }
  if (later && state.missingSensitive === 'error' && state.file.columns.some((c) => c.missing > 0 && own(state.roles, c.name) === 'sensitive')) {
    return 'a sensitive column has missing values: choose how to treat them (Columns step) or fill them in';
  }
  // A running job's results are not in yet; the report still held is the previous run's.
  if ((step === 'results' || step === 'export') && state.run?.status.state === 'running') return 'wait for the run to finish';
  if (step === 'results' || step === 'export') return state.report ? undefined : 'run the job first';
  if (step === 'risk' || step === 'run' || step === 'compare') {
    const problems = Object.values(parameterProblems(state, state.file));
    if (problems[0]) return problems[0];
    // The host refused this very job in the risk preview: the run would fail the same way.
    if (step === 'run' && failedPreview && failedPreview.job === JSON.stringify(buildJob(state))) return `this setting cannot run: ${failedPreview.message}`;
    if (step === 'run' && state.step === 'risk' && assessedJob !== JSON.stringify(buildJob(state))) return 'wait for the risk preview to finish';
  }
  return undefined;
}

/** A saved draft's method in words: its type, or a chain's two types in order. */
function draftMethods(method: JobFile['method']): string {
  return Array.isArray(method) ? method.map((m) => m.type).join(', then ') : method.type;
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
  // The wizard's state with the undo history of its job (state/history.ts).
  const [history, dispatch] = useReducer(historyReducer, initialHistory);
  const state = history.present;
  useUndoKeys(dispatch);
  const [info, setInfo] = useState<AppInfo>();
  const [notice, setNotice] = useState<string>();
  const [failedPreview, setFailedPreview] = useState<FailedPreview>();
  const [helpOpen, setHelpOpen] = useState(false);
  // The Compare step's table and results, kept while the person visits other steps (never saved: they are confidential).
  const [compareView, setCompareView] = useState<CompareView>();
  const updateCompareView = useCallback((update: (v: CompareView) => CompareView) => setCompareView((v) => (v ? update(v) : v)), []);
  useEffect(() => {
    if (state.step === 'compare' && !compareView && state.file) setCompareView({ families: initialFamilies(state.method), includeCurrent: true, candidates: [], csvPath: defaultCsvPath(state.file.path) });
  }, [state.step, state.method, state.file, compareView]);
  // Results measured on another file are no evidence for this one.
  const comparedFile = useRef<string>(undefined);
  useEffect(() => {
    if (state.file?.path !== comparedFile.current) {
      comparedFile.current = state.file?.path;
      setCompareView(undefined);
    }
  }, [state.file?.path]);
  const closeHelp = useCallback(() => setHelpOpen(false), []);
  // The job the risk preview last finished assessing: "Next: Run" waits for the preview of the job as it stands.
  const [assessedJob, setAssessedJob] = useState<string>();
  const onAssessed = useCallback((job: string, failure: HostFailure | undefined): void => {
    setAssessedJob(job);
    setFailedPreview(failure ? { job, message: plainFailure(failure, (JSON.parse(job) as { method?: { type?: string } }).method?.type) } : undefined);
  }, []);
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

  // Only the newest open may change the wizard: an older one that answers later is dropped.
  const latestOpen = useRef(0);
  const open = useCallback(
    async (path: string, current: WizardState = state, fromJob = false): Promise<HostFailure | undefined> => {
      const ticket = ++latestOpen.current;
      const o = current.fileOptions;
      // Another file is read on its own terms: the sheet chosen for the one open before is not looked for in it.
      const another = current.file !== undefined && current.file.path !== path && !fromJob;
      const result = await api.inspect({
        path,
        options: {
          ...(o.delimiter ? { delimiter: o.delimiter } : {}),
          ...(o.encoding ? { encoding: o.encoding } : {}),
          missing: o.missing.split(',').map((t) => t.trim()),
          ...(o.sheet && !another ? { sheet: o.sheet } : {}),
          ...(Object.keys(o.dates).length > 0 ? { dates: { ...o.dates } } : {}),
        },
      });
      if (ticket !== latestOpen.current) return undefined;
      dispatch(result.ok ? { type: 'opened', file: result.value, fromJob } : { type: 'openFailed', path });
      return result.ok ? undefined : result.failure;
    },
    [api, state],
  );
  // A date format chosen on the Columns step reads the file again, so its summary and preview show the dates as the run reads them.
  const datesKey = JSON.stringify(Object.entries(state.fileOptions.dates));
  const datesSeen = useRef(datesKey);
  useEffect(() => {
    if (datesSeen.current === datesKey) return;
    datesSeen.current = datesKey;
    if (state.step === 'columns' && state.file) void open(state.file.path);
  }, [datesKey]);
  const saveJob = useCallback(() => download('job.json', JSON.stringify(buildJob(state), null, 2) + '\n'), [state]);
  /** Restores the wizard from a job (a file the person opened, or the autosaved draft) and re-opens its input. */
  const restoreJob = async (written: unknown, label: string, step?: WizardState['step']): Promise<void> => {
    const restored = stateFromJob(written);
    dispatch({ type: 'load', state: restored });
    const changed = changedOnSave(written, restored);
    const failure = restored.inputPath ? await open(restored.inputPath, restored, true) : undefined;
    if (!failure && step) dispatch({ type: 'go', step });
    const caveat = changed.length > 0 ? ` The wizard cannot show ${changed.join(', ')}: saving the job from here writes them as the form shows them.` : '';
    setNotice((failure ? `${label} loaded, but its input could not be read: ${failure.message.replace(/[^.!?…]$/, '$&.')}` : `${label} loaded.`) + caveat);
  };
  const loadJob = async (file: File): Promise<void> => {
    try {
      // On the desktop this grants the job file, and the files it names, to the app.
      api.pathForFile(file);
      await restoreJob(JSON.parse(await file.text()) as unknown, `Job “${file.name}”`);
    } catch (error) {
      setNotice(`“${file.name}” is not a Custos job file: ${(error as Error).message}`);
    }
  };
  // The job draft (never data) is kept in the browser's storage, so a reload or a crash loses nothing.
  const [savedDraft, setSavedDraft] = useState(() => readDraft(window.localStorage));
  useEffect(() => {
    if (savedDraft) return; // Until the person chooses, the earlier draft is not overwritten.
    const timer = setTimeout(() => writeDraft(window.localStorage, draftOf(state, new Date())), 300);
    return () => clearTimeout(timer);
  }, [state, savedDraft]);
  const restoreDraft = async (): Promise<void> => {
    const draft = savedDraft!;
    setSavedDraft(undefined);
    try {
      await restoreJob(draft.job, 'The job you were working on', draft.step === 'results' || draft.step === 'export' ? 'run' : draft.step);
    } catch (error) {
      setNotice(`The saved draft could not be restored: ${(error as Error).message}`);
    }
  };
  const discardDraft = (): void => {
    writeDraft(window.localStorage, undefined);
    setSavedDraft(undefined);
  };
  useEffect(() => {
    api.onMenuCommand((command) => {
      if (command === 'save-job') saveJob();
      if (command === 'open') dispatch({ type: 'go', step: 'open' });
      if (command === 'export') dispatch({ type: 'go', step: 'export' });
      if (command === 'help') setHelpOpen(true);
    });
  }, [api, saveJob]);

  const index = STEPS.findIndex((s) => s.id === state.step);
  const next = nextStepAfter(state.step);
  const previous = previousStepBefore(state.step);
  const nextBlocked = next ? blockedReason(state, next.id, failedPreview, assessedJob) : undefined;
  const onPreviewed = useCallback((path: string, levels: string): void => dispatch({ type: 'previewed', path, levels }), []);
  // The lattice the risk preview draws changes the draft of the method whose report draws it.
  const lattice = browserMechanismOf(state.method).latticeChoice;
  const chooseSuppressionLimit = (limit: number): void => {
    if (lattice) dispatch({ type: 'patchDraft', method: state.method, patch: lattice.suppressionLimit(limit) } as Action);
  };
  const chooseLevels = (levels: Named<LevelEntry>): void => {
    if (lattice) dispatch({ type: 'patchDraft', method: state.method, patch: lattice.levels(levels) } as Action);
  };
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
        <button type="button" onClick={() => setHelpOpen(true)}>
          Help
        </button>
      </header>
      <nav className="steps" aria-label="Steps">
        <ol>
          {STEPS.map((s) => {
            const blocked = blockedReason(state, s.id, failedPreview, assessedJob);
            return (
              <li key={s.id}>
                <button type="button" aria-current={s.id === state.step ? 'step' : undefined} disabled={blocked !== undefined} title={blocked} onClick={() => dispatch({ type: 'go', step: s.id })}>
                  <span className="step-number" aria-hidden={stepNumber(s.id) === undefined}>
                    {stepNumber(s.id) ?? '·'}
                  </span>{' '}
                  {s.title}
                  {stepNumber(s.id) === undefined && <span className="visually-hidden"> (optional)</span>}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>
      <main className="content">
        <h2 ref={heading} tabIndex={-1}>
          {stepNumber(state.step) !== undefined ? `${stepNumber(state.step)}. ${STEPS[index]!.title}` : `${STEPS[index]!.title} (optional)`}
        </h2>
        <div className="step-tools">
          <UndoBar history={history} dispatch={dispatch} />
          {(state.step === 'columns' || state.step === 'parameters') && <ResetStepButton step={state.step} dispatch={dispatch} />}
        </div>
        {savedDraft && (
          <Callout tone="info" title="You were working on a job when Custos closed.">
            {savedDraft.job.input.path.split(/[\\/]/).pop()}, {draftMethods(savedDraft.job.method)}, saved {new Date(savedDraft.savedAt).toLocaleString()}.{' '}
            <button type="button" onClick={() => void restoreDraft()}>
              Restore it
            </button>{' '}
            <button type="button" className="link" onClick={discardDraft}>
              Start afresh
            </button>
          </Callout>
        )}
        {notice && (
          <Callout tone="info">
            {notice}{' '}
            <button type="button" className="link" onClick={() => setNotice(undefined)}>
              Dismiss
            </button>
          </Callout>
        )}
        {state.step === 'open' && <OpenStep api={api} info={info} state={state} dispatch={dispatch} open={(p) => open(p)} restoreJob={(r) => restoreJob(r.job, `The job run on ${new Date(r.ranAt).toLocaleString()}`, 'parameters')} projects={<ProjectsPanel state={state} storage={window.localStorage} openProject={(p) => void restoreJob(p.job, `Project “${p.name}”`, 'parameters')} />} />}
        {state.step === 'columns' && state.file && <ColumnsStep file={state.file} state={state} dispatch={dispatch} />}
        {state.step === 'method' && <MethodStep state={state} dispatch={dispatch} onChooseChain={(chain) => dispatch({ type: 'chooseChain', chain })} />}
        {state.step === 'parameters' && state.file && <ParametersStep file={state.file} state={state} dispatch={dispatch} chooseFile={info.host === 'electron' ? () => api.chooseFile({}) : undefined} checkHierarchy={api.checkHierarchy} rows={api.rows} saveHierarchy={api.saveHierarchy} readHierarchy={api.readHierarchy} />}
        {state.step === 'compare' && state.file && compareView && <CompareStep api={api} state={state} dispatch={dispatch} desktop={info.host === 'electron'} view={compareView} setView={updateCompareView} />}
        {state.step === 'risk' && <RiskStep api={api} state={state} onFix={fixKey} onPreviewed={onPreviewed} onAssessed={onAssessed}  onUseSuppressionLimit={chooseSuppressionLimit} onSetLevels={chooseLevels} onAcceptReview={(acceptance) => dispatch(acceptance ? { type: 'acceptReview', acceptance } : { type: 'acceptReview' })} onSamplingFraction={(fraction) => dispatch(fraction === undefined ? { type: 'setSamplingFraction' } : { type: 'setSamplingFraction', fraction })} />}
        {state.step === 'run' && <RunStep api={api} state={state} dispatch={dispatch} blocked={blockedReason(state, 'run', failedPreview)} desktop={info.host === 'electron'} />}
        {state.step === 'results' && state.report && <ResultsStep report={state.report} chosenFromComparison={state.comparison !== undefined} beforeAfter={state.file && <BeforeAfter api={api} input={state.file} report={state.report} job={buildJob(state) as unknown as Record<string, unknown>} />} />}
        {state.step === 'export' && state.report && state.run && <ExportStep api={api} report={state.report} runId={state.run.id} saveJob={saveJob} desktop={info.host === 'electron'} internalDir={state.run.status.internalDir} />}
        <footer className="wizard-nav">
          {previous && (
            <button type="button" onClick={() => dispatch({ type: 'go', step: previous.id })}>
              ← Back
            </button>
          )}
          <span className="spacer" />
          {next && nextBlocked && state.step !== 'run' && <span className="muted">{nextBlocked}</span>}
          <span id={STEP_ACTIONS_ID} className="step-actions" />
          {state.step === 'parameters' && (
            <button type="button" disabled={blockedReason(state, 'compare', failedPreview) !== undefined} onClick={() => dispatch({ type: 'go', step: 'compare' })}>
              Compare settings (optional)
            </button>
          )}
          {next && (
            <button type="button" className="primary" disabled={nextBlocked !== undefined} onClick={() => dispatch({ type: 'go', step: next.id })}>
              Next: {next.title} →
            </button>
          )}
        </footer>
      </main>
      {helpOpen && <HelpPanel onClose={closeHelp} />}
    </div>
  );
}
