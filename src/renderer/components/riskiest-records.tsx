import type { Report } from '../../common/ipc/api.js';
import { formatNumber } from '../../common/format/numbers.js';

/** The riskiest records of a risk profile (risk.profile.individual of an assessment or a release, internal). */
export type Riskiest = Extract<NonNullable<Report['risk']['profile']>['individual'], { riskiest: unknown }>['riskiest'];

/**
 * The riskiest records as a table: each record's quasi-identifiers, its class size and its individual
 * risk. The risk preview numbers the records (`recordColumn`: their rows in the file); the before/after
 * view does not, since a released record does not lead back to its input row.
 */
export function RiskiestRecords(props: { caption: string; quasi: readonly string[]; records: Riskiest; recordColumn: boolean; riskHeading: string; className?: string }) {
  return (
    <table className={props.className ? `grid ${props.className}` : 'grid'}>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {props.recordColumn && <th scope="col">Record</th>}
          {props.quasi.map((q) => (
            <th key={q} scope="col">
              {q}
            </th>
          ))}
          <th scope="col" className="n">
            Class size
          </th>
          <th scope="col" className="n">
            {props.riskHeading}
          </th>
        </tr>
      </thead>
      <tbody>
        {props.records.map((r) => (
          <tr key={r.record}>
            {props.recordColumn && <td className="n">{formatNumber(r.record)}</td>}
            {r.values.map((v, i) => (
              <td key={i}>{v === '' ? <span className="muted">missing</span> : v}</td>
            ))}
            <td className="n">{formatNumber(r.classSize)}</td>
            <td className="n">{r.risk.toFixed(4)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
