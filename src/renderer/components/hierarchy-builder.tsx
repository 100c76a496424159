import { useEffect, useId, useMemo, useState } from 'react';
import type { ColumnInfo, CustosApi, OpenedFile } from '../../common/ipc/api.js';
import { own, type Named } from '../../common/job/names.js';
import { ageRows, assign, categoryRows, codedRecords, dateRows, levelName, levelsOfRows, proposedHierarchyPath, readMapping, removeGroup, treeOf, wholeNumbers, type GroupLevels, type TreeNode } from '../../common/recoding/hierarchy-builder.js';
import { formatNumber } from '../../common/format/numbers.js';
import { loadColumnValues, summaryValues, type ColumnValues } from './column-values.js';
import type { HierarchyChoice } from './recoding.js';

type Kind = 'groups' | 'date' | 'age' | 'coding';

const KINDS: readonly { value: Kind; label: string }[] = [
  { value: 'groups', label: 'groups of categories (municipality → region → country)' },
  { value: 'date', label: 'dates: day → month → year → decade' },
  { value: 'age', label: 'age from a birth date' },
  { value: 'coding', label: 'top and bottom coding (whole numbers)' },
];

/** The kind a column suggests: dates for a date column, coding for whole numbers, groups otherwise. */
function suggestedKind(info: ColumnInfo): Kind {
  if (info.type === 'date' || info.date) return 'date';
  return info.type === 'integer' ? 'coding' : 'groups';
}

export interface BuilderProps {
  readonly file: OpenedFile;
  /** The columns the hierarchy table lists. */
  readonly columns: readonly ColumnInfo[];
  readonly choices: Named<HierarchyChoice>;
  readonly rows?: CustosApi['rows'] | undefined;
  readonly saveHierarchy?: CustosApi['saveHierarchy'] | undefined;
  /** Reads back a hierarchy file the table names, so its groups can be edited again (after a reload too). */
  readonly readHierarchy?: CustosApi['readHierarchy'] | undefined;
  /** Puts the built hierarchy into the table's row of the column. */
  readonly onUse: (column: string, patch: Partial<HierarchyChoice>) => void;
}

/**
 * The hierarchy builder under the table: for one column at a time, named groups of its values level
 * by level (typed, assigned by multi-select or read from a pasted mapping), the date hierarchy, age
 * from a birth date, or top and bottom coding by slider; each with a tree preview or the records it
 * changes. Groups and ages are saved as an ARX CSV file beside the data, which the table then names:
 * the job the command line reads is the one built here.
 */
export function HierarchyBuilder(props: BuilderProps) {
  const { file, columns } = props;
  const [column, setColumn] = useState(columns[0]?.name ?? '');
  const info = columns.find((c) => c.name === column) ?? columns[0];
  const [kind, setKind] = useState<Kind>(info ? suggestedKind(info) : 'groups');
  // The values are kept with the column they are of: in the render right after another column is
  // chosen the state still holds the last column's, which a panel must not take for this one's.
  const [read, setValues] = useState<{ readonly column: ColumnInfo; readonly values: ColumnValues } | 'loading'>('loading');
  const id = useId();
  useEffect(() => {
    if (!info) return;
    let live = true;
    const summary = summaryValues(info);
    setValues(summary.complete ? { column: info, values: summary } : 'loading');
    if (!summary.complete) void loadColumnValues(props.rows, file, info).then((v) => live && setValues({ column: info, values: v }));
    return () => {
      live = false;
    };
  }, [info, file, props.rows]);
  if (!info) return null;
  const values = read !== 'loading' && read.column === info ? read.values : 'loading';
  const current = own(props.choices, info.name);
  const use = (patch: Partial<HierarchyChoice>) => props.onUse(info.name, { ...patch, level: Math.max(1, current?.level ?? 0) });
  return (
    <section className="card builder" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Build a hierarchy</h3>
      <p className="muted">Make the levels a column is generalized through; the table above then uses what you build here.</p>
      <div className="field-row builder-choice">
        <div className="field">
          <label htmlFor={`${id}-column`}>Column</label>
          <select
            id={`${id}-column`}
            value={info.name}
            onChange={(e) => {
              const next = columns.find((c) => c.name === e.target.value);
              setColumn(e.target.value);
              if (next) setKind(suggestedKind(next));
            }}
          >
            {columns.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-kind`}>Kind of hierarchy</label>
          <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {values === 'loading' ? (
        <p className="muted" role="status">
          Reading the values of “{info.name}”…
        </p>
      ) : (
        <>
          {!values.complete && (
            <p className="warn-text">
              “{info.name}” has {formatNumber(info.distinct)} values in {formatNumber(file.rows)} records; the {formatNumber(values.counts.size)} most frequent are listed here. Paste a mapping for the others: values left out are named when the file is checked.
            </p>
          )}
          {kind === 'groups' && <GroupsPanel key={info.name} file={file} info={info} values={values} save={props.saveHierarchy} read={props.readHierarchy} savedFile={current?.kind === 'file' && current.file.trim() !== '' ? current.file.trim() : undefined} use={use} />}
          {kind === 'date' && <DatePanel info={info} values={values} use={use} />}
          {kind === 'age' && <AgePanel key={info.name} file={file} info={info} values={values} save={props.saveHierarchy} use={use} />}
          {kind === 'coding' && <CodingPanel key={info.name} info={info} values={values} current={current} use={use} />}
        </>
      )}
    </section>
  );
}

interface PanelProps {
  readonly info: ColumnInfo;
  readonly values: ColumnValues;
  readonly use: (patch: Partial<HierarchyChoice>) => void;
}

function Problems(props: { problems: readonly string[] }) {
  if (props.problems.length === 0) return null;
  return (
    <ul className="error-text builder-problems" aria-live="polite">
      {props.problems.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  );
}

const MAX_CHILDREN = 40;

function TreeItem(props: { node: TreeNode; depth: number }) {
  const { node, depth } = props;
  const label = (
    <>
      <span className="tree-label">{node.label}</span>
      {node.records > 0 && <span className="muted"> · {formatNumber(node.records)}</span>}
    </>
  );
  if (node.children.length === 0) return <li>{label}</li>;
  // In reading order (numbers as numbers: 2 before 10), whatever order the values came in.
  const shown = [...node.children].sort((a, b) => a.label.localeCompare(b.label, undefined, { numeric: true })).slice(0, MAX_CHILDREN);
  return (
    <li>
      <details open={depth < 2}>
        <summary>
          {label}
          <span className="muted"> ({node.children.length})</span>
        </summary>
        <ul>
          {shown.map((c, i) => (
            <TreeItem key={`${c.label}\u0000${i}`} node={c} depth={depth + 1} />
          ))}
          {node.children.length > shown.length && <li className="muted">and {formatNumber(node.children.length - shown.length)} more</li>}
        </ul>
      </details>
    </li>
  );
}

/** The hierarchy as a tree, the top first, each node with its records. */
export function TreePreview(props: { rows: readonly (readonly string[])[]; counts: ReadonlyMap<string, number>; title: string }) {
  const tree = useMemo(() => treeOf(props.rows, props.counts), [props.rows, props.counts]);
  return (
    <figure className="tree-preview">
      <figcaption>{props.title}</figcaption>
      <ul className="tree" role="tree">
        <TreeItem node={tree} depth={0} />
      </ul>
    </figure>
  );
}

/** The file's path field and the button that writes it and puts it in the table. */
function SaveFile(props: { file: OpenedFile; column: string; suffix: string; rows: string[][] | undefined; save?: CustosApi['saveHierarchy'] | undefined; use: (patch: Partial<HierarchyChoice>) => void; path?: string | undefined }) {
  const id = useId();
  // The file the groups were read from is saved again in place; a new hierarchy goes beside the data.
  const [path, setPath] = useState(() => props.path ?? proposedHierarchyPath(props.file.path, props.suffix));
  const [state, setState] = useState<{ saved?: string; failure?: string; saving?: boolean }>({});
  if (!props.save) return <p className="muted">This host cannot write files: export the hierarchy from a spreadsheet and name it in the table.</p>;
  const save = props.save;
  return (
    <div className="builder-save">
      <div className="field wide">
        <label htmlFor={id}>Hierarchy file (ARX CSV, written beside the data)</label>
        <input id={id} type="text" spellCheck={false} value={path} onChange={(e) => setPath(e.target.value)} />
      </div>
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={!props.rows || state.saving || path.trim() === ''}
          onClick={() => {
            if (!props.rows) return;
            setState({ saving: true });
            void save({ path: path.trim(), rows: props.rows }).then((result) => {
              if (!result.ok) return setState({ failure: result.failure.message });
              setState({ saved: result.value.path });
              props.use({ kind: 'file', file: result.value.path });
            });
          }}
        >
          Save the file and use it for “{props.column}”
        </button>
      </div>
      {state.failure && <p className="error-text" role="alert">{state.failure}</p>}
      {state.saved && (
        <p className="ok-text" role="status">
          Saved {state.saved}; the table above uses it for “{props.column}”. Change the groups and save again to replace it.
        </p>
      )}
    </div>
  );
}

/** Reading back the groups of the file the table names: while read, what was read, or why they cannot be edited here. */
type Reread = { readonly state: 'reading' } | { readonly state: 'read'; readonly path: string } | { readonly state: 'failed'; readonly path: string; readonly problems: readonly string[] };

function GroupsPanel(props: PanelProps & { file: OpenedFile; save?: CustosApi['saveHierarchy'] | undefined; read?: CustosApi['readHierarchy'] | undefined; savedFile?: string | undefined }) {
  const { info, values } = props;
  const id = useId();
  const all = useMemo(() => [...values.counts.keys()], [values]);
  const [levels, setLevels] = useState<GroupLevels>([]);
  // The groups live in this panel only; after a reload (or on coming back to the column) they are read
  // back from the file the table names, once, so the custodian edits them instead of starting again.
  const { read, savedFile } = props;
  const [reread, setReread] = useState<Reread | undefined>(() => (read && savedFile ? { state: 'reading' } : undefined));
  useEffect(() => {
    if (!read || !savedFile) return;
    let live = true;
    void read({ path: savedFile }).then((result) => {
      if (!live) return;
      if (!result.ok) return setReread({ state: 'failed', path: savedFile, problems: [result.failure.message] });
      const groups = levelsOfRows(info.name, result.value, values.complete ? all : undefined);
      if (!groups.ok) return setReread({ state: 'failed', path: savedFile, problems: groups.problems });
      setLevels(groups.levels);
      setReread({ state: 'read', path: savedFile });
    });
    return () => {
      live = false;
    };
    // Once per panel (a column's panel is keyed by the column): later saves come from these groups.
  }, []);
  const [level, setLevel] = useState(0);
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [mapping, setMapping] = useState('');
  const [mappingProblems, setMappingProblems] = useState<string[]>([]);
  const items = level === 0 ? all : (levels[level - 1] ?? []).map((g) => g.name);
  const groupOf = new Map<string, string>();
  for (const g of levels[level] ?? []) for (const m of g.members) groupOf.set(m, g.name);
  const built = categoryRows(info.name, all, levels);
  const assignSelected = () => {
    if (name.trim() === '' || selected.length === 0) return;
    setLevels(assign(levels, level, name, selected));
    setSelected([]);
  };
  return (
    <div className="builder-panel">
      {reread?.state === 'reading' && (
        <p className="muted" role="status">
          Reading the groups of {savedFile}…
        </p>
      )}
      {reread?.state === 'read' && (
        <p className="ok-text" role="status">
          The groups of {reread.path}, which the table uses for “{info.name}”: change them and save again to replace it.
        </p>
      )}
      {reread?.state === 'failed' && (
        <div role="status">
          <p className="warn-text">The table names {reread.path} for “{info.name}”, but its groups cannot be edited here:</p>
          <Problems problems={reread.problems} />
        </div>
      )}
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-level`}>Level</label>
          <select id={`${id}-level`} value={level} onChange={(e) => setLevel(Number(e.target.value))}>
            {Array.from({ length: Math.max(1, levels.length, level + 1) }, (_, l) => (
              <option key={l} value={l}>
                {levelName(l)}: groups of {l === 0 ? 'the values' : `the groups of ${levelName(l - 1)}`}
              </option>
            ))}
          </select>
        </div>
        <button type="button" disabled={(levels[levels.length - 1]?.length ?? 0) === 0} onClick={() => setLevel(levels.length)}>
          Add a level above
        </button>
      </div>
      <div className="builder-assign">
        <div className="field">
          <label htmlFor={`${id}-group`}>Group name</label>
          <input
            id={`${id}-group`}
            type="text"
            list={`${id}-groups`}
            value={name}
            spellCheck={false}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') assignSelected();
            }}
          />
          <datalist id={`${id}-groups`}>
            {(levels[level] ?? []).map((g) => (
              <option key={g.name} value={g.name} />
            ))}
          </datalist>
          <p className="help">Type a new group's name or an existing one, select {level === 0 ? 'values' : 'groups'} (Shift or Ctrl with the arrow keys selects several), then assign.</p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-items`}>{level === 0 ? `Values of “${info.name}”` : `Groups of ${levelName(level - 1)}`}</label>
          <select id={`${id}-items`} multiple size={Math.min(10, Math.max(4, items.length))} value={selected} onChange={(e) => setSelected(Array.from(e.target.selectedOptions, (o) => o.value))}>
            {items.map((v) => (
              <option key={v} value={v}>
                {groupOf.has(v) ? `${v} → ${groupOf.get(v)}` : v}
              </option>
            ))}
          </select>
          <p className="help">
            {formatNumber(items.filter((v) => !groupOf.has(v)).length)} of {formatNumber(items.length)} not in a group yet
          </p>
        </div>
        <div className="actions">
          <button type="button" disabled={name.trim() === '' || selected.length === 0} onClick={assignSelected}>
            Assign to the group
          </button>
        </div>
      </div>
      {(levels[level] ?? []).length > 0 && (
        <ul className="builder-groups">
          {levels[level]!.map((g) => (
            <li key={g.name}>
              <strong>{g.name}</strong>: {g.members.slice(0, 12).join(', ')}
              {g.members.length > 12 ? ` and ${g.members.length - 12} more` : ''}{' '}
              <button type="button" className="link" onClick={() => setLevels(removeGroup(levels, level, g.name))}>
                Remove<span className="visually-hidden"> the group {g.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <details className="builder-mapping">
        <summary>Paste a mapping</summary>
        <div className="field wide">
          <label htmlFor={`${id}-mapping`}>One line per value: the value, then its group at each level (copied from a spreadsheet, or separated by “;” or “,”)</label>
          <textarea id={`${id}-mapping`} rows={6} spellCheck={false} value={mapping} placeholder={'Oslo;Østlandet;Norway\nBergen;Vestlandet;Norway'} onChange={(e) => setMapping(e.target.value)} />
        </div>
        <div className="actions">
          <button
            type="button"
            onClick={() => {
              const read = readMapping(info.name, mapping, values.complete ? all : undefined);
              setMappingProblems(read.ok ? [] : read.problems);
              if (read.ok) {
                setLevels(read.levels);
                setLevel(0);
              }
            }}
          >
            Read the mapping
          </button>
        </div>
        <Problems problems={mappingProblems} />
      </details>
      {built.ok ? <TreePreview rows={built.rows} counts={values.counts} title={`Preview: “${info.name}” from the top (records per node)`} /> : levels.length > 0 && <Problems problems={built.problems} />}
      <SaveFile key={reread?.state === 'read' ? reread.path : ''} file={props.file} column={info.name} suffix={info.name} rows={built.ok ? built.rows : undefined} save={props.save} use={props.use} path={reread?.state === 'read' ? reread.path : undefined} />
    </div>
  );
}

function DatePanel(props: PanelProps) {
  const { info, values } = props;
  const { rows, notDates } = useMemo(() => dateRows([...values.counts.keys()]), [values]);
  if (info.date?.reading === 'ambiguous') return <p className="error-text">The dates of “{info.name}” read both day first and month first: choose their order on the Columns step, then build the date hierarchy.</p>;
  const problems =
    notDates.length > 0
      ? [
          `${notDates.length === 1 ? '1 value' : `${formatNumber(notDates.length)} values`} of “${info.name}” cannot be read as dates: ${notDates
            .slice(0, 8)
            .map((v) => `“${v}”`)
            .join(', ')}${notDates.length > 8 ? ` and ${notDates.length - 8} more` : ''}; state the column's date format on the Columns step, or add them to the missing-value codes`,
        ]
      : [];
  return (
    <div className="builder-panel">
      <p>Level 1 keeps the year and month (2021-03), level 2 the year, level 3 the decade (2020-2029), level 4 “*”. The job names it as <code>{'{ "type": "date" }'}</code>.</p>
      <Problems problems={problems} />
      {rows.length > 0 && <TreePreview rows={rows} counts={values.counts} title={`Preview: “${info.name}” by decade, year, month and day`} />}
      <div className="actions">
        <button type="button" className="primary" disabled={problems.length > 0 || rows.length === 0} onClick={() => props.use({ kind: 'date' })}>
          Use the date hierarchy for “{info.name}”
        </button>
      </div>
    </div>
  );
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function AgePanel(props: PanelProps & { file: OpenedFile; save?: CustosApi['saveHierarchy'] | undefined }) {
  const { info, values } = props;
  const id = useId();
  const [reference, setReference] = useState(today);
  const [bands, setBands] = useState('5, 10, 20');
  // Keyed by the typed text: the widths are read from it.
  const built = useMemo(() => ageRows(info.name, [...values.counts.keys()], reference.trim(), bands.split(',').map((w) => w.trim()).filter(Boolean).map(Number)), [info.name, values, reference, bands]);
  return (
    <div className="builder-panel">
      <p>Custos has no derived columns: the age is a level of a hierarchy on “{info.name}” itself (each birth date → its age in full years at the reference date → age bands → “*”), saved as a hierarchy file.</p>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-ref`}>Reference date (yyyy-mm-dd)</label>
          <input id={`${id}-ref`} type="text" spellCheck={false} value={reference} onChange={(e) => setReference(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-bands`}>Age bands (years, each a multiple of the one before)</label>
          <input id={`${id}-bands`} type="text" spellCheck={false} value={bands} onChange={(e) => setBands(e.target.value)} />
        </div>
      </div>
      {built.ok ? <TreePreview rows={built.rows} counts={values.counts} title={`Preview: age at ${reference} from “${info.name}”`} /> : <Problems problems={built.problems} />}
      <SaveFile file={props.file} column={info.name} suffix={`${info.name}-age`} rows={built.ok ? built.rows : undefined} save={props.save} use={props.use} />
    </div>
  );
}

function CodingPanel(props: PanelProps & { current: HierarchyChoice | undefined }) {
  const { info, values, current } = props;
  const id = useId();
  const { numbers, others } = useMemo(() => wholeNumbers([...values.counts.keys()]), [values]);
  const min = numbers.length > 0 ? Math.min(...numbers) : 0;
  const max = numbers.length > 0 ? Math.max(...numbers) : 0;
  const fromTable = current?.kind === 'interval';
  const [bottomOn, setBottomOn] = useState(fromTable && current.bottom.trim() !== '');
  const [topOn, setTopOn] = useState(fromTable ? current.top.trim() !== '' : true);
  const [bottom, setBottom] = useState(fromTable && current.bottom.trim() !== '' ? Number(current.bottom) : min + Math.round((max - min) / 10));
  const [top, setTop] = useState(fromTable && current.top.trim() !== '' ? Number(current.top) : max - Math.round((max - min) / 10));
  const [widths, setWidths] = useState(fromTable ? current.widths : '');
  if (numbers.length === 0) return <p className="error-text">“{info.name}” holds no whole numbers: top and bottom coding needs them.</p>;
  const { below, above } = codedRecords(values.counts, bottomOn ? bottom : undefined, topOn ? top : undefined);
  const problems = [
    ...(bottomOn && topOn && bottom >= top ? [`the bottom code ${bottom} must lie below the top code ${top}`] : []),
    ...(!bottomOn && !topOn && widths.trim() === '' ? ['choose a top or a bottom code, or give interval widths'] : []),
    ...(others.length > 0 ? [`${others.length === 1 ? '1 value' : `${formatNumber(others.length)} values`} of “${info.name}” ${others.length === 1 ? 'is' : 'are'} not whole numbers, which intervals need: ${others.slice(0, 8).map((v) => `“${v}”`).join(', ')}; correct them or add them to the missing-value codes`] : []),
  ];
  return (
    <div className="builder-panel">
      <p className="muted">
        Values of “{info.name}” run from {formatNumber(min)} to {formatNumber(max)}. Level 1 codes the extremes only; interval widths, if given, group the rest at the levels above.
      </p>
      <div className="coding-row">
        <input id={`${id}-bottom-on`} type="checkbox" checked={bottomOn} onChange={(e) => setBottomOn(e.target.checked)} />
        <label htmlFor={`${id}-bottom-on`}>Bottom coding: values below</label>
        <input type="range" aria-label={`Bottom code of ${info.name}`} min={min} max={max} step={1} value={bottom} disabled={!bottomOn} onChange={(e) => setBottom(Number(e.target.value))} />
        <output>{formatNumber(bottom)}</output>
        <span className="muted">read “&lt;{bottom}” ({formatNumber(bottomOn ? below : 0)} records)</span>
      </div>
      <div className="coding-row">
        <input id={`${id}-top-on`} type="checkbox" checked={topOn} onChange={(e) => setTopOn(e.target.checked)} />
        <label htmlFor={`${id}-top-on`}>Top coding: values from</label>
        <input type="range" aria-label={`Top code of ${info.name}`} min={min} max={max} step={1} value={top} disabled={!topOn} onChange={(e) => setTop(Number(e.target.value))} />
        <output>{formatNumber(top)}</output>
        <span className="muted">read “{top}+” ({formatNumber(topOn ? above : 0)} records)</span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-widths`}>Interval widths above (optional, e.g. 5, 10)</label>
        <input id={`${id}-widths`} type="text" spellCheck={false} value={widths} onChange={(e) => setWidths(e.target.value)} />
      </div>
      <Problems problems={problems} />
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={problems.length > 0}
          onClick={() => props.use({ kind: 'interval', widths, top: topOn ? String(top) : '', bottom: bottomOn ? String(bottom) : '' })}
        >
          Use this coding for “{info.name}”
        </button>
      </div>
    </div>
  );
}
