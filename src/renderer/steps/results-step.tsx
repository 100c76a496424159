import type { ReactNode } from 'react';
import type { Report } from '../../common/ipc/api.js';
import { QualityMeasures } from '../components/quality-measures.js';
import { TWO_ERRORS } from '../../common/compare/comparison.js';
import { factsOf } from '../../common/report/key-figures.js';
import { keyFiguresOf } from '../../mechanisms/report-views.js';
import { ViewBlocks } from '../components/view-blocks.js';
import { DeltaCurveChart, PairedBars } from '../components/charts.js';
import { Callout, ReportWarnings } from '../components/fields.js';
import { formatNumber } from '../../common/format/numbers.js';
import { IdentityRisk } from '../components/identity-risk.js';
import { ReviewVerdict } from '../components/review-verdict.js';
import { guaranteeVerdict, verdictWords } from '../../common/report/guarantee-verdict.js';

/**
 * The results of a run: the key figures of the mechanisms' views as the PDF and the workbook draw
 * them (src/mechanisms/report-views.ts, drawn by components/view-blocks.tsx), plus the views only a
 * screen offers: distributions, the δ curve, the β bounds per value.
 */
export function ResultsStep({ report, chosenFromComparison = false, beforeAfter }: { report: Report; chosenFromComparison?: boolean; /** The input beside the release (components/before-after.tsx), in the app only. */ beforeAfter?: ReactNode }) {
  const g = report.guarantee;
  const figures = keyFiguresOf(report);
  // A guarantee that holds with warnings is not shown as a plain green pass: the warnings say where it protects less than its name suggests.
  const verdict = guaranteeVerdict(g);
  const caveats = verdict === 'holds' && report.warnings.length > 0;
  return (
    <>
      <ReviewVerdict report={report} />
      <section className={`guarantee ${verdict === 'holds' ? (caveats ? 'caveats' : 'holds') : verdict === 'fails' ? 'fails' : 'caveats'}`}>
        <h3>
          {g.name}: {caveats ? 'holds, with the warnings below' : verdictWords(g)}
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
      <section className="card">
        <h3>Key figures</h3>
        <ViewBlocks blocks={figures} />
        {/* Where the person meets both errors: the one the Compare step showed, and this one. */}
        {chosenFromComparison && factsOf(figures).some(([label]) => label.includes('sensitive-value count queries')) && <p className="muted">{TWO_ERRORS}</p>}
      </section>
      <QualityMeasures report={report} />
      {report.risk.bySensitive?.map(
        (s) =>
          s.distribution && (
            <section key={s.column} className="card">
              <h3>“{s.column}”</h3>
              {s.distribution.some((d) => (d.reconstructed ?? 0) < 0) && (
                <Callout tone="info">
                  Some reconstructed frequencies are below 0. The estimates are unbiased: for a rare value the noise can carry them below 0; read such a value as about 0, and sums of many values as exact on average.
                </Callout>
              )}
              <PairedBars
                title="Original versus reconstructed distribution (internal view)"
                aLabel="original"
                bLabel="reconstructed from the release"
                rows={s.distribution.map((d) => ({ label: d.value, a: d.original, b: d.reconstructed ?? Number.NaN }))}
              />
            </section>
          ),
      )}
      {report.dp?.answers && report.dp.answers.length > 0 && (
        <section className="card">
          <h3>The released counts</h3>
          <p className="muted">
            {report.dp.answers.length < report.dp.queries ? `The first ${formatNumber(report.dp.answers.length)} of ${formatNumber(report.dp.queries)} answers; all are in answers.csv. ` : ''}
            Each answer carries noise; the true count lies in the interval for 95% of answers.
          </p>
          <table className="grid answers">
            <thead>
              <tr>
                <th scope="col">Count of</th>
                {report.dp.parts > 1 && <th scope="col" className="n">Part</th>}
                <th scope="col" className="n">Answer</th>
                <th scope="col" className="n">95% interval</th>
              </tr>
            </thead>
            <tbody>
              {report.dp.answers.map((a, i) => (
                <tr key={i} className={a.answer < 0 ? 'negative' : undefined}>
                  <th scope="row">{a.query}</th>
                  {report.dp!.parts > 1 && <td className="n">{a.part}</td>}
                  <td className="n">
                    {formatNumber(a.answer, 2)}
                    {a.answer < 0 && <span className="muted"> (below 0: noise)</span>}
                  </td>
                  <td className="n">
                    {formatNumber(a.lower95, 2)} to {formatNumber(a.upper95, 2)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {report.anonymity?.curve && (
        <section className="card">
          <h3>Strength of the guarantee</h3>
          <DeltaCurveChart title="−log₁₀ δ at each ε (longer is stronger)" curve={report.anonymity.curve} />
        </section>
      )}
      {g.maxInference && (
        <section className="card">
          <h3>Inference bounds per value</h3>
          <table className="grid">
            <thead>
              <tr>
                <th scope="col">Value</th>
                <th scope="col" className="n">Largest share in a bucket</th>
                <th scope="col" className="n">β</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(g.maxInference).map(([value, b]) => (
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
      <IdentityRisk report={report} />
      {beforeAfter}
    </>
  );
}
