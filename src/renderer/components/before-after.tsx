import { useEffect, useId, useState } from 'react';
import type { CustosApi, OpenedFile, Report } from '../../common/ipc/api.js';
import { formatNumber } from '../../common/format/numbers.js';
import { crossTable, distributionOf, type CrossTable, type Share } from './before-after-tables.js';
import { RiskiestRecords, type Riskiest } from './riskiest-records.js';

/** Records read page by page for a contingency table (each side). */
const MAX_ROWS = 200_000;
const PAGE = 2000;

async function allRows(rows: CustosApi['rows'], file: OpenedFile): Promise<string[][] | string> {
  if (file.rows > MAX_ROWS) return `${file.name} holds ${formatNumber(file.rows)} records: the contingency table is drawn for files of up to ${formatNumber(MAX_ROWS)}`;
  const out: string[][] = [];
  for (let offset = 0; offset < file.rows; offset += PAGE) {
    const page = await rows({ fileId: file.fileId, offset, count: Math.min(PAGE, file.rows - offset) });
    if (!page.ok) return page.failure.message;
    for (const row of page.value) out.push([...row]);
  }
  return out;
}

function percent(x: number): string {
  return `${formatNumber(x * 100, 1)}%`;
}

function Distribution(props: { title: string; shares: readonly Share[]; others: number; records: number }) {
  return (
    <table className="grid before-after-dist">
      <caption>{props.title}</caption>
      <thead>
        <tr>
          <th scope="col">Value</th>
          <th scope="col" className="n">
            Records
          </th>
          <th scope="col">Share</th>
        </tr>
      </thead>
      <tbody>
        {props.shares.map((s) => (
          <tr key={s.value}>
            <th scope="row">{s.value}</th>
            <td className="n">{formatNumber(s.count)}</td>
            <td>
              <span className="share-bar" style={{ width: `${Math.round(s.share * 120)}px` }} aria-hidden="true" /> {percent(s.share)}
            </td>
          </tr>
        ))}
        {props.others > 0 && (
          <tr>
            <th scope="row" className="muted">
              other values
            </th>
            <td className="n">{formatNumber(props.others)}</td>
            <td>{percent(props.others / Math.max(1, props.records))}</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

function Contingency(props: { title: string; table: CrossTable; a: string; b: string }) {
  const { table } = props;
  return (
    <table className="grid before-after-cross">
      <caption>{props.title}</caption>
      <thead>
        <tr>
          <th scope="col">
            {props.a} \ {props.b}
          </th>
          {table.columns.map((c) => (
            <th key={c} scope="col" className="n">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((r, i) => (
          <tr key={r}>
            <th scope="row">{r}</th>
            {table.columns.map((c, j) => (
              <td key={c} className="n">
                {formatNumber(table.counts[i]![j]!)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function riskiestOf(report: Report | undefined): { quasi: readonly string[]; records: Riskiest } | undefined {
  const profile = report?.risk.profile;
  if (!profile || 'skipped' in profile.individual) return undefined;
  return { quasi: profile.quasiIdentifiers, records: profile.individual.riskiest };
}

/**
 * Before and after, in the app only: each column's distribution in the input and in the release,
 * the contingency table of two chosen columns on both sides, and the riskiest records of each side.
 * The input side is confidential: it is read from the table the app holds and shown here, never
 * written (the release folder holds what the release shows, and nothing of this view).
 */
export function BeforeAfter(props: { api: Pick<CustosApi, 'inspect' | 'rows' | 'assess'>; input: OpenedFile; report: Report; job: Record<string, unknown> }) {
  const { api, input, report } = props;
  const id = useId();
  const releaseFile = report.output?.files.find((f) => f.name === 'release.csv');
  const [release, setRelease] = useState<OpenedFile | string | undefined>(undefined);
  useEffect(() => {
    if (!releaseFile || !report.output) return;
    let live = true;
    const dir = report.output.dir;
    const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
    void api.inspect({ path: `${dir}${dir.endsWith(sep) ? '' : sep}release.csv`, options: { recent: false } }).then((r) => live && setRelease(r.ok ? r.value : r.failure.message));
    return () => {
      live = false;
    };
  }, [api, report.output, releaseFile]);
  const shared = typeof release === 'object' ? input.columns.filter((c) => release.columns.some((r) => r.name === c.name)).map((c) => c.name) : [];
  const [column, setColumn] = useState('');
  const [pair, setPair] = useState<[string, string]>(['', '']);
  const [cross, setCross] = useState<{ before: CrossTable; after: CrossTable; a: string; b: string } | string | 'loading' | undefined>(undefined);
  const [inputRisk, setInputRisk] = useState<Report | string | 'loading' | undefined>(undefined);
  if (!releaseFile) return null;
  if (release === undefined) return <p className="muted">Reading the release for the before/after view…</p>;
  if (typeof release === 'string') return <p className="error-text">The before/after view cannot read the release: {release}</p>;
  const chosen = shared.includes(column) ? column : (shared[0] ?? '');
  const [a, b] = [shared.includes(pair[0]) ? pair[0] : (shared[0] ?? ''), shared.includes(pair[1]) ? pair[1] : (shared[1] ?? shared[0] ?? '')];
  const before = input.columns.find((c) => c.name === chosen);
  const after = release.columns.find((c) => c.name === chosen);
  const releasedRisk = riskiestOf(report);
  const drawCross = () => {
    setCross('loading');
    void Promise.all([allRows(api.rows, input), allRows(api.rows, release)]).then(([inRows, outRows]) => {
      if (typeof inRows === 'string') return setCross(inRows);
      if (typeof outRows === 'string') return setCross(outRows);
      const ia = input.columns.findIndex((c) => c.name === a);
      const ib = input.columns.findIndex((c) => c.name === b);
      const ra = release.columns.findIndex((c) => c.name === a);
      const rb = release.columns.findIndex((c) => c.name === b);
      setCross({ before: crossTable(inRows, ia, ib), after: crossTable(outRows, ra, rb), a, b });
    });
  };
  return (
    <section className="card before-after" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Before and after</h3>
      <p className="muted">The input side is confidential: it is shown here only, and written nowhere. The release side is what the release folder holds.</p>
      <div className="field">
        <label htmlFor={`${id}-column`}>Distribution of</label>
        <select id={`${id}-column`} value={chosen} onChange={(e) => setColumn(e.target.value)}>
          {shared.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      {before && after && (
        <div className="side-by-side">
          <Distribution title={`Input (internal): ${formatNumber(input.rows)} records`} records={input.rows} {...distributionOf(before, input.rows)} />
          <Distribution title={`Release: ${formatNumber(release.rows)} records`} records={release.rows} {...distributionOf(after, release.rows)} />
        </div>
      )}
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-a`}>Contingency table: rows</label>
          <select id={`${id}-a`} value={a} onChange={(e) => setPair([e.target.value, b])}>
            {shared.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-b`}>columns</label>
          <select id={`${id}-b`} value={b} onChange={(e) => setPair([a, e.target.value])}>
            {shared.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <button type="button" disabled={cross === 'loading' || a === '' || b === ''} onClick={drawCross}>
          Draw the contingency table
        </button>
      </div>
      {cross === 'loading' && <p className="muted" role="status">Counting the records…</p>}
      {typeof cross === 'string' && cross !== 'loading' && <p className="error-text">{cross}</p>}
      {typeof cross === 'object' && (
        <div className="side-by-side">
          <Contingency title={`Input (internal): ${cross.a} by ${cross.b}`} table={cross.before} a={cross.a} b={cross.b} />
          <Contingency title={`Release: ${cross.a} by ${cross.b}`} table={cross.after} a={cross.a} b={cross.b} />
        </div>
      )}
      {releasedRisk && (
        <>
          <h4>The riskiest records</h4>
          <p className="muted">The release puts its records in an order of its own, so a released record does not lead back to its input row here either: each side lists its own riskiest records.</p>
          {inputRisk === undefined && (
            <button
              type="button"
              onClick={() => {
                setInputRisk('loading');
                void api.assess({ job: props.job }).then((r) => setInputRisk(r.ok ? r.value : r.failure.message));
              }}
            >
              Show the input&apos;s riskiest records
            </button>
          )}
          {inputRisk === 'loading' && <p className="muted" role="status">Assessing the input…</p>}
          {typeof inputRisk === 'string' && inputRisk !== 'loading' && <p className="error-text">{inputRisk}</p>}
          <div className="side-by-side">
            {typeof inputRisk === 'object' && riskiestOf(inputRisk) && <RiskiestRecords caption="Input (internal)" {...riskiestOf(inputRisk)!} recordColumn={false} riskHeading="Risk" className="before-after-risk" />}
            <RiskiestRecords caption="Release" quasi={releasedRisk.quasi} records={releasedRisk.records} recordColumn={false} riskHeading="Risk" className="before-after-risk" />
          </div>
        </>
      )}
    </section>
  );
}
