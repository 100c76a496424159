import { useEffect, useRef, useState } from 'react';
import { named, own, type Named } from '../../common/job/names.js';
import type { Report } from '../../common/ipc/api.js';
import { formatNumber } from '../../common/format/numbers.js';
import { BarChart } from './charts.js';

type FrontierPoint = NonNullable<Report['method']['frontier']>[number];
type Solution = NonNullable<Report['method']['solutions']>[number];
/** One column's entry of the job's method.levels: a pinned level or a range. */
export type LevelEntry = number | { readonly min?: number; readonly max?: number };

/** The job's method.levels as the preview ran it (names are data: read without a prototype). */
function jobLevels(report: Report): Named<LevelEntry> {
  const method = report.job['method'];
  const levels = method && typeof method === 'object' ? (method as { levels?: unknown }).levels : undefined;
  if (!levels || typeof levels !== 'object') return named();
  return named(Object.entries(levels as Record<string, LevelEntry>));
}

const entryText = (entry: LevelEntry): string => (typeof entry === 'number' ? `kept at ${entry}` : entry.min === entry.max && entry.min !== undefined ? `kept at ${entry.min}` : `${entry.min ?? 0} to ${entry.max ?? 'top'}`);

const percent = (share: number): string => `${Number((share * 100).toFixed(4))} %`;

/**
 * Global recoding's choice in the context of its lattice: the level of each quasi-identifier, how many
 * transformations meet the models, and the optimum at other suppression limits, any of which the
 * person can take instead (the search then finds exactly that transformation).
 */
export function RecodingLattice(props: { report: Report; onUseLimit?: (limit: number) => void; onSetLevels?: (levels: Named<LevelEntry>) => void }) {
  const { report, onUseLimit, onSetLevels } = props;
  const levels = report.method.levels ?? {};
  const kept = jobLevels(report);
  // Every quasi-identifier kept at one level: the job names one transformation.
  const pinsAll = Object.keys(levels).length > 0 && Object.keys(levels).every((name) => {
    const e = own(kept, name);
    return e !== undefined && (typeof e === 'number' || (e.min !== undefined && e.min === e.max));
  });
  // Only the quasi-identifiers have a place in the lattice; the other released columns stay as collected.
  const columns = (report.anonymity?.columns ?? []).filter((c) => Object.hasOwn(levels, c.name));
  const internal = report.method.internal ?? {};
  const nodes = report.method.derived['latticeNodes'];
  const satisfying = internal['satisfyingTransformations'] ?? internal['satisfyingTransformationsAtLeast'];
  const atLeast = internal['satisfyingTransformations'] === undefined;
  // The measure's short name; its definition is in the report's method section.
  const name = String(report.method.parameters['measure'] ?? 'measure');
  const measure = name.charAt(0).toUpperCase() + name.slice(1);
  const frontier = report.method.frontier ?? [];
  return (
    <section className="card" aria-labelledby="lattice-title">
      <h3 id="lattice-title">The transformation in its lattice</h3>
      {typeof nodes === 'number' && satisfying !== undefined && (
        <p>
          {atLeast ? 'At least ' : ''}
          {formatNumber(satisfying)} of the {formatNumber(nodes)} transformations meet the models within the suppression limit (
          {internal['evaluatedNodes'] !== undefined && internal['evaluatedNodes'] < nodes ? `${formatNumber(internal['evaluatedNodes'])} were evaluated; bounds ruled out the rest` : 'every one was evaluated'}).
          {satisfying === 0 && ' The table shows the most generalized transformation, which the run would not release.'}
        </p>
      )}
      {columns.length > 0 && (
        <table className="grid">
          <caption>{satisfying === 0 ? 'Most generalized level of each quasi-identifier' : 'Chosen level of each quasi-identifier'}</caption>
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Level</th>
              <th scope="col">Example</th>
              {onSetLevels && <th scope="col">Keep</th>}
            </tr>
          </thead>
          <tbody>
            {columns.map((c) => (
              <tr key={c.name}>
                <th scope="row">{c.name}</th>
                <td>
                  {c.level} of {c.depth - 1}
                  {c.level === 0 ? ' (as collected)' : c.level === c.depth - 1 ? ' (fully suppressed)' : ''}
                </td>
                <td>{c.example ?? ''}</td>
                {onSetLevels && (
                  <td>
                    {own(kept, c.name) !== undefined ? (
                      <>
                        {entryText(own(kept, c.name)!)}{' '}
                        <button type="button" aria-label={`Free the level of ${c.name}`} onClick={() => onSetLevels(named(Object.entries(kept).filter(([name]) => name !== c.name)))}>
                          Free
                        </button>
                      </>
                    ) : (
                      <button type="button" aria-label={`Keep level ${c.level} of ${c.name}`} onClick={() => onSetLevels(named(kept, [[c.name, c.level]]))}>
                        Keep level {c.level}
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted">
        The search minimizes the utility measure “{name}” (as ARX computes it), which also charges the deleted records; the generalization loss above averages the released cells only. The two figures measure different things and differ more the more records are deleted.
      </p>
      {pinsAll && onSetLevels && (
        <p>
          The job names this transformation exactly: every quasi-identifier is kept at its level, so the search has nothing else to choose.{' '}
          <button type="button" onClick={() => onSetLevels(named())}>
            Free all levels
          </button>
        </p>
      )}
      {report.method.solutions && report.method.solutions.length > 0 && !pinsAll && <SolutionSpace solutions={report.method.solutions} columns={columns.map((c) => c.name)} measure={measure} total={satisfying} onUse={onSetLevels} />}
      {frontier.length > 1 && <Frontier points={frontier} measure={measure} onUseLimit={onUseLimit} />}
    </section>
  );
}

function Frontier(props: { points: readonly FrontierPoint[]; measure: string; onUseLimit?: (limit: number) => void }) {
  const { points, measure, onUseLimit } = props;
  // The clicked button leaves when the new preview marks its row chosen: the keyboard focus follows it there instead of falling to the page.
  const focusChosen = useRef(false);
  const chosenCell = useRef<HTMLElement>(null);
  const chosenLimit = points.find((p) => p.chosen)?.suppressionLimit;
  useEffect(() => {
    if (focusChosen.current && chosenCell.current) {
      focusChosen.current = false;
      chosenCell.current.focus();
    }
  }, [chosenLimit]);
  return (
    <>
      <h4>Utility against deleted records</h4>
      <p className="muted">
        The best transformation at other suppression limits, each found by the same exact search. More deletion buys less generalization. These figures come from the confidential records: they are for your choice, not for publication.
      </p>
      <BarChart
        title={`${measure} of the optimum at each suppression limit (lower is better)`}
        bars={points.map((p) => ({ label: `limit ${percent(p.suppressionLimit)}`, value: p.measure, tone: p.chosen ? ('safe' as const) : ('neutral' as const), text: formatNumber(p.measure, 4) }))}
      />
      <table className="grid">
        <caption>Optimal transformation by suppression limit</caption>
        <thead>
          <tr>
            <th scope="col">Limit</th>
            <th scope="col">Records deleted</th>
            <th scope="col">{measure}</th>
            <th scope="col">Levels</th>
            <th scope="col">
              <span className="visually-hidden">Choice</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.suppressionLimit} aria-current={p.chosen ? 'true' : undefined}>
              <th scope="row">{percent(p.suppressionLimit)}</th>
              <td className="n">{formatNumber(p.suppressedRecords)}</td>
              <td className="n">{formatNumber(p.measure, 4)}</td>
              <td>
                {Object.entries(p.levels)
                  .map(([name, level]) => `${name} ${level}`)
                  .join(', ')}
              </td>
              <td>
                {p.chosen ? (
                  <strong tabIndex={-1} ref={chosenCell}>
                    chosen
                  </strong>
                ) : (
                  onUseLimit && (
                    <button
                      type="button"
                      onClick={() => {
                        focusChosen.current = true;
                        onUseLimit(p.suppressionLimit);
                      }}
                    >
                      Use limit {percent(p.suppressionLimit)}
                    </button>
                  )
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

type SortKey = 'measure' | 'suppressedRecords' | 'highestRisk' | 'height';
const SORTS: readonly { key: SortKey; label: (measure: string) => string }[] = [
  { key: 'measure', label: (m) => m },
  { key: 'suppressedRecords', label: () => 'Records deleted' },
  { key: 'highestRisk', label: () => 'Highest risk' },
  { key: 'height', label: () => 'Levels in total' },
];
const heightOf = (s: Solution): number => Object.values(s.levels).reduce((a, b) => a + b, 0);
const sortValue = (s: Solution, key: SortKey): number => (key === 'height' ? heightOf(s) : s[key]);
/** Rows shown before "Show more". */
const PAGE = 20;

/**
 * The solution space: the transformations that meet the models (best first, as the search orders
 * them), sortable by each figure; any can be taken, and the job then names it exactly (every
 * quasi-identifier kept at its level in method.levels).
 */
function SolutionSpace(props: { solutions: readonly Solution[]; columns: readonly string[]; measure: string; total: number | undefined; onUse: ((levels: Named<LevelEntry>) => void) | undefined }) {
  const { solutions, columns, measure, total, onUse } = props;
  const [sort, setSort] = useState<{ key: SortKey; ascending: boolean }>({ key: 'measure', ascending: true });
  const [shown, setShown] = useState(PAGE);
  // A stable sort: equal figures keep the search's order (measure, then fewer levels).
  const rows = solutions.map((s, i) => ({ s, i })).sort((a, b) => (sortValue(a.s, sort.key) - sortValue(b.s, sort.key)) * (sort.ascending ? 1 : -1) || a.i - b.i);
  const toggle = (key: SortKey) => setSort((current) => ({ key, ascending: current.key === key ? !current.ascending : true }));
  return (
    <>
      <h4 id="solutions-title">Transformations that meet the models</h4>
      <p className="muted">
        {total !== undefined && total > solutions.length ? `The best ${formatNumber(solutions.length)} of the ${formatNumber(total)}` : `All ${formatNumber(solutions.length)}`}, from the confidential records (for your choice, not for publication). Highest risk is the prosecutor's, 1 / the smallest released class. Sort by a column's heading; “Use” makes the job name that transformation exactly.
      </p>
      <table className="grid" aria-labelledby="solutions-title">
        <thead>
          <tr>
            {columns.map((name) => (
              <th scope="col" key={name}>
                {name}
              </th>
            ))}
            {SORTS.map(({ key, label }) => (
              <th scope="col" key={key} aria-sort={sort.key === key ? (sort.ascending ? 'ascending' : 'descending') : 'none'}>
                <button type="button" className="link" onClick={() => toggle(key)}>
                  {label(measure)}
                  {sort.key === key ? (sort.ascending ? ' ▲' : ' ▼') : ''}
                </button>
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Choice</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, shown).map(({ s }) => {
            const label = columns.map((name) => `${name} ${own(s.levels, name) ?? 0}`).join(', ');
            return (
              <tr key={label} aria-current={s.chosen ? 'true' : undefined}>
                {columns.map((name) => (
                  <td className="n" key={name}>
                    {own(s.levels, name) ?? 0}
                  </td>
                ))}
                <td className="n">{formatNumber(s.measure, 4)}</td>
                <td className="n">{formatNumber(s.suppressedRecords)}</td>
                <td className="n">{formatNumber(s.highestRisk, 4)}</td>
                <td className="n">{heightOf(s)}</td>
                <td>
                  {s.chosen ? (
                    // Not <strong>: the frontier's chosen row holds the one the focus returns to.
                    <em>chosen</em>
                  ) : (
                    onUse && (
                      <button type="button" aria-label={`Use ${label}`} onClick={() => onUse(named(columns.map((name) => [name, own(s.levels, name) ?? 0] as const)))}>
                        Use
                      </button>
                    )
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {shown < rows.length && (
        <button type="button" onClick={() => setShown((n) => n + PAGE)}>
          Show {formatNumber(Math.min(PAGE, rows.length - shown))} more of {formatNumber(rows.length - shown)}
        </button>
      )}
    </>
  );
}
