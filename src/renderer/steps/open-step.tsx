import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import type { AppInfo, CustosApi, HostFailure, OpenedFile, RecentJob } from '../../common/ipc/api.js';
import { metadataOf } from '../../mechanisms/definitions.js';
import { Callout, SelectField, TextField } from '../components/fields.js';
import { PreviewTable } from '../components/preview-table.js';
import { formatBytes, formatNumber } from '../../common/format/numbers.js';
import { recentLabels } from '../recent-labels.js';
import type { Action, WizardState } from '../state/wizard-state.js';
import { INPUT_FORMATS, INPUT_FORMATS_IN_WORDS, selfDescribingFormatOfPath, type InputFormatInfo } from '../../common/input-formats.js';

const ENCODINGS = [
  { value: '', label: 'Detect automatically' },
  { value: 'utf-8', label: 'UTF-8' },
  { value: 'utf-16le', label: 'UTF-16 LE' },
  { value: 'utf-16be', label: 'UTF-16 BE' },
  { value: 'windows-1252', label: 'Windows-1252' },
] as const;
/** Files of statistical packages and workbooks, whose reading needs no encoding or delimiter. */
type FileFormat = OpenedFile['format'];

/** The format a path's extension names, for a file not read yet (or that could not be found): what the host reads by content is said in its answer. */
const formatOfPath = selfDescribingFormatOfPath;

/** What may fix a problem, as the reader judged its cause; nothing where no reading option can. */
const ADVICE: Record<NonNullable<HostFailure['advice']>, string> = {
  'reading-options': 'The delimiter or the encoding may not be the file’s: choose them under “How to read the file” (or let Custos detect them), or fix the file.',
  sheet: 'The table may be on another sheet: choose it under “Sheet”.',
  path: 'Check the path: the file may have been moved, renamed or deleted.',
};

/** A failure as one or two clean sentences: the host's message (the location once) and the advice that fits its cause. */
function failureText(failure: HostFailure): string {
  const message = failure.message.trim();
  const sentence = /[.!?…]$/.test(message) ? message : `${message}.`;
  return failure.advice ? `${sentence} ${ADVICE[failure.advice]}` : sentence;
}
const DELIMITERS = [
  { value: '', label: 'Detect automatically' },
  { value: ',', label: 'Comma ,' },
  { value: ';', label: 'Semicolon ;' },
  { value: 'tab', label: 'Tab' },
  { value: '|', label: 'Pipe |' },
] as const;

function recentJobLabel(r: RecentJob, inputLabel: string): string {
  const when = new Date(r.ranAt).toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  return `${inputLabel} · ${r.methodType.split(',').map((t) => metadataOf(t)?.cardTitle ?? t).join(', then ')} · ${when}`;
}

/** The input a recent job read, as its job names it (its name where the job does not say). */
function jobInput(r: RecentJob): string {
  const input = r.job['input'];
  const path = typeof input === 'object' && input !== null ? (input as { path?: unknown }).path : undefined;
  return typeof path === 'string' && path ? path : r.inputName;
}

/** How many recent files and jobs are shown before "More…": the path field and the outcome of Open stay in view. */
const RECENT_SHOWN = 3;

/**
 * Scrolls the outcome of an Open into view unless it is shown already (the sticky footer covers the
 * pane's bottom). A summary goes to the top, with the preview below it; a failure to the bottom,
 * so the reading options above it, where it is fixed, stay in view.
 */
function reveal(element: HTMLElement | null, block: 'start' | 'nearest'): void {
  if (!element) return;
  const pane = (element.closest('.content') ?? document.documentElement).getBoundingClientRect();
  const box = element.getBoundingClientRect();
  const visibleBottom = Math.min(pane.bottom, window.innerHeight) - FOOTER_PX;
  if (box.top >= pane.top && (box.bottom <= visibleBottom || box.top <= pane.top + (visibleBottom - pane.top) / 2)) return;
  element.scrollIntoView?.({ block });
}
/** The sticky Back/Next footer's height, with a margin (styles.css: .wizard-nav; .open-outcome's scroll margin). */
const FOOTER_PX = 96;

/** A list of recent chips: the newest few, the rest behind "More…". */
function RecentList<T>(props: { label: string; title: string; items: readonly T[]; chip: (item: T, index: number) => ReactNode }) {
  const [all, setAll] = useState(false);
  const { items } = props;
  const shown = all ? items : items.slice(0, RECENT_SHOWN);
  return (
    <nav className="recent" aria-label={props.label}>
      <span className="muted">{props.title}</span>
      {shown.map((item, i) => props.chip(item, i))}
      {items.length > RECENT_SHOWN && (
        <button type="button" className="link" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? 'Fewer' : `More… (${items.length - RECENT_SHOWN})`}
        </button>
      )}
    </nav>
  );
}

export function OpenStep(props: {
  api: CustosApi;
  info: AppInfo;
  state: WizardState;
  dispatch: (a: Action) => void;
  open: (path: string) => Promise<HostFailure | undefined>;
  restoreJob: (job: RecentJob) => Promise<void>;
  /** The named projects (projects-panel.tsx), shown below the recent runs. */
  projects?: ReactNode;
}) {
  const { api, info, state, dispatch, open, restoreJob } = props;
  const [failure, setFailure] = useState<HostFailure>();
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [recent, setRecent] = useState<readonly string[]>([]);
  const [recentJobs, setRecentJobs] = useState<readonly RecentJob[]>([]);
  useEffect(() => {
    void api.recentFiles({}).then(setRecent);
    void api.recentJobs({}).then(setRecentJobs);
  }, [api, state.file?.path]);
  // Chips name files by their names, with as many parent folders as tell same-named files apart.
  const fileLabels = recentLabels(recent);
  const jobLabels = recentLabels(recentJobs.map(jobInput));
  const file = state.file;
  // The file's format as last read (a failed read says what it was read as), else as its name says.
  const format: FileFormat | undefined = failure ? (failure.format ?? formatOfPath(state.inputPath)) : (file?.format ?? formatOfPath(state.inputPath));
  const ownEncoding = format !== undefined ? (INPUT_FORMATS[format] as InputFormatInfo).selfDescribing : null;
  // A workbook's sheets are known even when the sheet read could not be: another one can be chosen.
  const sheets = failure ? failure.sheets : file?.sheets;
  const sheet = state.fileOptions.sheet || (failure ? failure.sheet : file?.sheet) || '';
  // A pending re-read (after a reading option changed) must not land after a file opened since.
  const reread = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The outcome of each Open (summary, warnings, or why it failed) is scrolled into view once shown.
  const outcome = useRef<HTMLDivElement>(null);
  const [opened, setOpened] = useState(0);
  const failed = failure !== undefined;
  useEffect(() => {
    if (opened > 0) reveal(outcome.current, failed ? 'nearest' : 'start');
  }, [opened]);
  const load = async (path: string): Promise<void> => {
    clearTimeout(reread.current);
    if (!path.trim()) return;
    setBusy(true);
    setFailure(await open(path.trim()));
    setBusy(false);
    setOpened((n) => n + 1);
  };
  // Changing how the file is read re-reads it, so the preview always shows what will be protected.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!state.inputPath) return;
    const path = state.inputPath;
    reread.current = setTimeout(() => void load(path), 350);
    return () => clearTimeout(reread.current);
  }, [state.fileOptions]);
  const onDrop = (event: DragEvent): void => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (!dropped) return;
    const path = api.pathForFile(dropped);
    if (path) void load(path);
    else setFailure({ kind: 'input', message: `The browser does not reveal where “${dropped.name}” is stored. Type its path below, or use the desktop app.` });
  };
  return (
    <>
      <p className="lead">Open the confidential table you want to protect. Nothing leaves this computer: Custos makes no network request.</p>
      <div
        className={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>Drop a table here ({INPUT_FORMATS_IN_WORDS}){info.host === 'electron' ? ', or' : '.'}</p>
        <div className="actions">
          {info.host === 'electron' && (
            <button
              type="button"
              className="primary"
              onClick={() => void api.chooseFile({}).then((path) => (path ? load(path) : undefined))}
            >
              Choose file…
            </button>
          )}
          {/* Not disabled while a file is read: a disabled button drops the keyboard focus to the page; a click then waits its turn (the newest open wins). */}
          <button type="button" onClick={() => void load(info.samplePath)} aria-busy={busy || undefined}>
            Use the sample data: {info.sampleName}
          </button>
        </div>
      </div>
      {recent.length > 0 && (
        <RecentList
          label="Recent files"
          title="Files opened before:"
          items={recent}
          chip={(path, i) => (
            <button key={path} type="button" className="chip" title={path} onClick={() => void load(path)} aria-busy={busy || undefined}>
              {fileLabels[i]}
            </button>
          )}
        />
      )}
      {recentJobs.length > 0 && (
        <RecentList
          label="Recent jobs"
          title="Jobs run before:"
          items={recentJobs}
          chip={(r, i) => (
            <button key={r.ranAt} type="button" className="chip" title={`Restore this job's settings and open ${jobInput(r)}`} onClick={() => void restoreJob(r)} aria-busy={busy || undefined}>
              {recentJobLabel(r, jobLabels[i]!)}
            </button>
          )}
        />
      )}
      <form
        className="path-form"
        onSubmit={(e) => {
          e.preventDefault();
          void load(state.inputPath);
        }}
      >
        <TextField
          label="File path"
          wide
          value={state.inputPath}
          placeholder="/data/census-2025.csv"
          onChange={(path) => {
            // Typing another path means the open file's pending re-read is no longer wanted.
            clearTimeout(reread.current);
            dispatch({ type: 'setInputPath', path });
          }}
        />
        {/* Never disabled while a file is read: a click must not be lost to a read that started a moment before; the newest open wins. */}
        <button type="submit" disabled={!state.inputPath.trim()}>
          Open
        </button>
        {busy && (
          <span className="muted" role="status">
            Reading…
          </span>
        )}
      </form>
      {props.projects}
      <fieldset className="options">
        <legend>How to read the file</legend>
        {ownEncoding ? (
          <p className="muted">{format === 'xlsx' ? `${ownEncoding} carry their own encoding and cells: only the sheet and the missing-value codes below apply.` : `${ownEncoding} carry their own encoding, types and labels: only the missing-value codes below apply.`}</p>
        ) : (
          <>
            <SelectField label="Encoding" value={state.fileOptions.encoding} options={ENCODINGS} onChange={(encoding) => dispatch({ type: 'setFileOptions', options: { encoding } })} help="Detected from the byte-order mark and the bytes." />
            <SelectField label="Delimiter" value={state.fileOptions.delimiter} options={DELIMITERS} onChange={(delimiter) => dispatch({ type: 'setFileOptions', options: { delimiter } })} help="Sniffed from the first lines." />
          </>
        )}
        <TextField label="Missing-value codes" value={state.fileOptions.missing} onChange={(missing) => dispatch({ type: 'setFileOptions', options: { missing } })} help="Comma-separated, e.g. “, ?, NA, -9”. An empty entry means empty cells." />
        {sheets && sheets.length > 1 && (
          <SelectField label="Sheet" value={sheet} options={sheets.map((s) => ({ value: s, label: s }))} onChange={(sheet) => dispatch({ type: 'setFileOptions', options: { sheet } })} help={`${sheets.length} sheets in the workbook.`} />
        )}
      </fieldset>
      <div ref={outcome} className="open-outcome">
        {failure && (
          <Callout tone="error" title="This file cannot be read.">
            {failureText(failure)}
          </Callout>
        )}
        {file && !failure && (
          <>
            {file.columns.length === 1 && file.format === 'csv' && (
              <Callout tone="warn" title="Only one column was found.">
                Every line was read as a single value, which usually means the delimiter is not the one the file uses. Choose it under “How to read the file” (or let Custos detect it); a table with one column cannot be protected column by column.
              </Callout>
            )}
            {(() => {
              // Codes the file seems to use for "no value", not yet among the missing-value codes: proposed with one click.
              const listed = new Set(state.fileOptions.missing.split(',').map((t) => t.trim()));
              const proposed = (file.missingCandidates ?? []).filter((c) => !listed.has(c.code.trim()));
              if (proposed.length === 0) return null;
              const shown = (code: string): string => (code.trim() === '' ? 'empty cells' : `“${code}”`);
              return (
                <Callout tone="info" title="These values look like missing-value codes:">
                  {proposed
                    .slice(0, 8)
                    .map((c) => `${shown(c.code)} (${formatNumber(c.count)} in ${c.columns.slice(0, 3).map((n) => `“${n}”`).join(', ')}${c.columns.length > 3 ? ', …' : ''})`)
                    .join('; ')}
                  . Read as values until you add them.{' '}
                  <button
                    type="button"
                    className="link"
                    onClick={() => dispatch({ type: 'setFileOptions', options: { missing: [...new Set([...state.fileOptions.missing.split(',').map((t) => t.trim()), ...proposed.slice(0, 8).map((c) => c.code.trim())])].join(', ') } })}
                  >
                    Add them to the missing-value codes
                  </button>
                </Callout>
              );
            })()}
            {state.switched && (
              <Callout tone="info" title={`Settings of “${state.switched.from}” that this file has no place for were dropped:`}>
                {state.switched.dropped.join('; ')}. Everything else is kept.
              </Callout>
            )}
            {file.renamedWarning && (
              <Callout tone="warn" title="Some columns had no name of their own.">
                {file.renamedWarning} The internal report records this; rename the columns in the file if these names should differ.
              </Callout>
            )}
            <Callout tone={file.columns.length === 1 ? 'info' : 'ok'}>
              <strong>{file.name}</strong>: {formatNumber(file.rows)} records, {file.columns.length === 1 ? '1 column' : `${file.columns.length} columns`}, {formatBytes(file.bytes)}
              {file.encoding && `, ${file.encoding}`}
              {file.delimiter !== undefined && `, delimiter “${file.delimiter === '\t' ? 'tab' : file.delimiter}”`}
              {file.sheet && `, sheet “${file.sheet}”`}.
            </Callout>
            {file.rejectedCount > 0 && (
              <Callout
                tone={state.fileOptions.onBadRow === 'skip' ? 'warn' : 'error'}
                title={
                  state.fileOptions.onBadRow === 'skip'
                    ? `${formatNumber(file.rejectedCount)} ${file.rejectedCount === 1 ? 'row cannot' : 'rows cannot'} be read: ${file.rejectedCount === 1 ? 'it is' : 'they are'} skipped, not released, and listed by line in the internal report.`
                    : `${formatNumber(file.rejectedCount)} ${file.rejectedCount === 1 ? 'row cannot' : 'rows cannot'} be read: the run will refuse the file until ${file.rejectedCount === 1 ? 'it is' : 'they are'} fixed.`
                }
              >
                <SelectField
                  label="Rows that cannot be read"
                  value={state.fileOptions.onBadRow}
                  options={[
                    { value: 'skip', label: 'skip them and list them in the internal report' },
                    { value: 'error', label: 'stop: I will fix the file' },
                  ]}
                  onChange={(onBadRow) => dispatch({ type: 'setFileOptions', options: { onBadRow } })}
                />
                <ul className="rejected">
                  {file.rejected.slice(0, 8).map((r) => (
                    <li key={r.line}>
                      Line {formatNumber(r.line)}: {r.reason}
                    </li>
                  ))}
                </ul>
              </Callout>
            )}
          </>
        )}
      </div>
      {file && !failure && <PreviewTable api={api} file={file} />}
    </>
  );
}
