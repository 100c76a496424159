import type { Report } from '../../common/ipc/api.js';
import { formatNumber, formatPercent } from '../../common/format/numbers.js';

/**
 * Identity disclosure on the quasi-identifiers, read plainly: how many records are unique on them
 * and what a prosecutor's chance of re-identifying a record is, in the input and in the release.
 */
export function IdentityRisk({ report }: { report: Report }) {
  const r = report.risk.reidentification;
  if (!r) return null;
  const reading = (label: string, risk: NonNullable<typeof r.original>) => (
    <li>
      <strong>{label}:</strong> {formatPercent(risk.sampleUniqueShare, 1)} of the records are unique on {r.quasiIdentifiers.length === 1 ? 'this column' : 'these columns'} ({formatNumber(risk.sampleUniques)} of{' '}
      {formatNumber(risk.records)}); someone who knows a person's values picks the right record with probability up to {formatPercent(risk.prosecutorHighest, 1)} ({formatPercent(risk.prosecutorAverage, 1)} on average).
      {risk.journalistEstimateHighest !== undefined && (
        <>
          {' '}
          Someone who does not know whether the person is in the data (journalist) succeeds with probability at most {formatPercent(risk.journalistHighest, 1)}; if every class stood for its expected share of the population given, about {formatPercent(risk.journalistEstimateHighest, 1)} ({formatPercent(risk.journalistEstimateAverage ?? 0, 1)} on average), an estimate and not a bound: a record unique in the data may be unique in the population.
        </>
      )}
    </li>
  );
  return (
    <section className="card">
      <h3>Re-identification risk</h3>
      <p className="muted">On {r.quasiIdentifiers.map((q) => `“${q}”`).join(', ') || 'no quasi-identifier'}, as ARX and sdcMicro measure it (prosecutor model; {r.population}).</p>
      <ul>
        {r.original && reading('In the input', r.original)}
        {reading(report.kind === 'release' ? 'In the release' : 'In what the method releases', r.release)}
      </ul>
      {r.original && r.original.sampleUniques === r.release.sampleUniques && r.original.classes === r.release.classes && (
        <p className="muted">The quasi-identifiers are released as they are: this method protects the sensitive values, not against finding a person's record.</p>
      )}
    </section>
  );
}
