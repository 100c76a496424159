import { useState } from 'react';
import type { Report } from '../../common/ipc/api.js';
import { riskProfileBasis, riskProfileFacts } from '../../common/report/risk-profile-facts.js';
import { BarChart, type Bar } from './charts.js';
import { RiskiestRecords } from './riskiest-records.js';
import { formatNumber } from '../../common/format/numbers.js';

/** The job's review.samplingFraction: a number in (0, 1] is passed on as typed, an empty field withdraws it. */
function SamplingFraction(props: { fraction: number | undefined; onChange: (fraction: number | undefined) => void }) {
  const [text, setText] = useState(props.fraction === undefined ? '' : String(props.fraction));
  const value = text.trim() === '' ? undefined : Number(text);
  const valid = value === undefined || (value > 0 && value <= 1);
  return (
    <p>
      <label>
        Sampling fraction (the file&apos;s records over the population they were drawn from){' '}
        <input
          type="number"
          min="0"
          max="1"
          step="any"
          value={text}
          aria-invalid={!valid}
          onChange={(e) => {
            setText(e.target.value);
            const v = e.target.value.trim() === '' ? undefined : Number(e.target.value);
            if (v === undefined || (v > 0 && v <= 1)) props.onChange(v);
          }}
        />
      </label>
      {!valid && <span className="muted"> a number above 0 and at most 1</span>}
    </p>
  );
}

/** A bin's tone: the prosecutor-risk default of the review (0.2) and above is danger, 0.05 and above neutral. */
function tone(from: number): Bar['tone'] {
  return from >= 0.2 ? 'danger' : from >= 0.05 ? 'neutral' : 'safe';
}

/**
 * Every risk figure of the quasi-identifiers (risk.profile of the assessment, internal): a histogram of
 * the records' individual risk, the riskiest records with their values, class size and risk, and the
 * population, k-map and SUDA2 figures in words (src/common/report/risk-profile-facts.ts).
 */
export function RiskProfile({ report, onSamplingFraction }: { report: Report; onSamplingFraction?: (fraction: number | undefined) => void }) {
  const profile = report.risk.profile;
  if (!profile) return null;
  const individual = 'skipped' in profile.individual ? undefined : profile.individual;
  return (
    <section className="card" aria-labelledby="risk-profile-title">
      <h3 id="risk-profile-title">Risk per record</h3>
      <p className="muted">
        Of {riskProfileBasis(profile)}. A record&apos;s individual risk is the chance that someone who knows its values picks it out of the people sharing them (Benedetti–Franconi, as sdcMicro&apos;s measure_risk).
        {!profile.population && ' State the population (review.populationSize or review.samplingFraction in the job) for population uniques and k-map; without it the file is taken as the whole population.'}
      </p>
      {onSamplingFraction && <SamplingFraction fraction={profile.population?.fraction} onChange={onSamplingFraction} />}
      {individual && (
        <>
          <BarChart
            title="Records by individual risk"
            bars={individual.histogram.map((b) => ({ label: `risk ${b.from} – ${b.to}`, value: b.records, tone: tone(b.from), text: formatNumber(b.records) }))}
          />
          <RiskiestRecords caption="The riskiest records" quasi={profile.quasiIdentifiers} records={individual.riskiest} recordColumn riskHeading="Individual risk" />
        </>
      )}
      <ul>
        {riskProfileFacts(profile).map(([label, value]) => (
          <li key={label}>
            <strong>{label}:</strong> {value}
          </li>
        ))}
      </ul>
    </section>
  );
}
