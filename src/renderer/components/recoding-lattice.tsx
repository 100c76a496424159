import { useEffect, useRef } from 'react';
import type { Report } from '../../common/ipc/api.js';
import { formatNumber } from '../../common/format/numbers.js';
import { BarChart } from './charts.js';

type FrontierPoint = NonNullable<Report['method']['frontier']>[number];

const percent = (share: number): string => `${Number((share * 100).toFixed(4))} %`;

/**
 * Global recoding's choice in the context of its lattice: the level of each quasi-identifier, how many
 * transformations meet the models, and the optimum at other suppression limits, any of which the
 * person can take instead (the search then finds exactly that transformation).
 */
export function RecodingLattice(props: { report: Report; onUseLimit?: (limit: number) => void }) {
  const { report, onUseLimit } = props;
  const levels = report.method.levels ?? {};
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
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted">
        The search minimizes the utility measure “{name}” (as ARX computes it), which also charges the deleted records; the generalization loss above averages the released cells only. The two figures measure different things and differ more the more records are deleted.
      </p>
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
