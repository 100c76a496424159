import type { Report } from '../../common/ipc/api.js';
import { BarChart, DeltaCurveChart, PairedBars } from '../components/charts.js';
import { Callout, ReportWarnings } from '../components/fields.js';
import { formatNumber } from '../format.js';

export function ResultsStep({ report }: { report: Report }) {
  const g = report.guarantee;
  const errors = report.utility.relativeError;
  return (
    <>
      <section className={`guarantee ${g.holds ? 'holds' : 'fails'}`}>
        <h3>
          {g.name}: {g.holds ? 'holds' : 'does not hold'}
        </h3>
        <p>{g.statement}</p>
        <p className="formula">{g.formula}</p>
        <p className="muted">Source: {g.source}</p>
      </section>
      {report.notice && <Callout tone="warn">{report.notice}</Callout>}
      <ReportWarnings warnings={report.warnings} />
      <ul className="summary">
        {report.summary.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {report.risk.bySensitive?.map((s) => (
        <section key={s.column} className="card">
          <h3>“{s.column}”</h3>
          <BarChart
            title="Micro groups that leak"
            bars={[
              { label: 'plain randomized response', value: s.violatingBefore ?? Number.NaN, tone: 'danger' },
              ...(report.method.type === 'reconstruction-privacy' ? [{ label: 'this release', value: s.violatingAfter, tone: 'safe' as const }] : []),
            ]}
          />
          <BarChart
            title="Mean relative error of 5,000 count queries (lower is better)"
            bars={[
              ...(s.relativeError.reconstructionPrivacy !== undefined ? [{ label: 'this release', value: s.relativeError.reconstructionPrivacy, tone: 'safe' as const }] : []),
              ...(s.relativeError.uniformPerturbation !== undefined ? [{ label: 'plain randomized response', value: s.relativeError.uniformPerturbation, tone: 'neutral' as const }] : []),
            ]}
          />
          {s.distribution && (
            <PairedBars
              title="Original versus reconstructed distribution (internal view)"
              aLabel="original"
              bLabel="reconstructed from the release"
              rows={s.distribution.map((d) => ({ label: d.value, a: d.original, b: d.reconstructed ?? Number.NaN }))}
            />
          )}
        </section>
      ))}
      {report.dp && (report.dp.filtering?.length ?? 0) > 0 && (
        <section className="card">
          <h3>Filtering attack on the released series</h3>
          <BarChart
            title="Share of the noise a filter removes (lower is safer)"
            bars={report.dp.filtering!.flatMap((f) => [
              { label: `${f.series}: IID Laplace`, value: Math.max(0, f.removalIid), tone: 'danger' as const, text: `${(100 * Math.max(0, f.removalIid)).toFixed(1)}%` },
              { label: `${f.series}: this release`, value: Math.max(0, f.removalRelease), tone: 'safe' as const, text: `${(100 * Math.max(0, f.removalRelease)).toFixed(1)}%` },
            ])}
          />
        </section>
      )}
      {report.anonymity && (
        <section className="card">
          <h3>Released classes</h3>
          <p>
            {formatNumber(report.output?.rows ?? 0)} records in {formatNumber(report.risk.classes ?? 0)} classes; the smallest has {formatNumber(report.risk.minClassSize ?? 0)} records. Generalization loss {formatNumber(report.utility.generalizationLoss, 3)}
            {errors.release !== undefined ? `; count-query relative error ${formatNumber(errors.release)}` : ''}.
          </p>
          {report.anonymity.curve && (
            <DeltaCurveChart title="−log₁₀ δ at each ε (longer is stronger)" curve={report.anonymity.curve} />
          )}
        </section>
      )}
      {report.beta && (
        <section className="card">
          <h3>Buckets and inference bounds</h3>
          <p>
            {Object.entries(report.beta.chosen.sizes).map(([size, n]) => `${formatNumber(n)} buckets of ${size}`).join(', ')}; MSE {report.beta.chosen.mse.toFixed(3)}
            {' '}(Anatomy: {report.beta.anatomy.feasible ? report.beta.anatomy.mse.toFixed(3) : 'infeasible'}).
          </p>
          <BarChart
            title="Mean relative error of count queries (lower is better)"
            bars={[
              ...(errors.release !== undefined ? [{ label: 'this release', value: errors.release, tone: 'safe' as const }] : []),
              ...(errors.anatomy !== undefined ? [{ label: 'Anatomy baseline', value: errors.anatomy, tone: 'neutral' as const }] : []),
            ]}
          />
          <table className="grid">
            <thead>
              <tr>
                <th scope="col">Value</th>
                <th scope="col" className="n">Largest share in a bucket</th>
                <th scope="col" className="n">β</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(g.maxInference ?? {}).map(([value, b]) => (
                <tr key={value}>
                  <th scope="row">{value}</th>
                  <td className="n">
                    {b.count}/{b.size} = {b.value.toFixed(4)}
                  </td>
                  <td className="n">{b.betaExact}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
