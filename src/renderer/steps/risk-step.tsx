import { plainFailure } from '../components/plain-messages.js';
import { useEffect, useMemo, useState } from 'react';
import type { CustosApi, HostFailure, Report } from '../../common/ipc/api.js';
import { BarChart, DeltaCurveChart } from '../components/charts.js';
import { Callout, ReportWarnings } from '../components/fields.js';
import { IdentityRisk } from '../components/identity-risk.js';
import { RiskProfile } from '../components/risk-profile.js';
import { QualityMeasures } from '../components/quality-measures.js';
import { ReviewVerdict, type ReviewAcceptance } from '../components/review-verdict.js';
import { RecodingLattice, type LevelEntry } from '../components/recoding-lattice.js';
import type { Named } from '../../common/job/names.js';
import { formatNumber, formatPercent } from '../../common/format/numbers.js';
import { buildJob, fixedLevelsMatter, levelsKey } from '../state/job.js';
import { metadataOf } from '../../mechanisms/definitions.js';
import type { WizardState } from '../state/wizard-state.js';

/** `assess` on a job (as JSON text, so an unchanged job is not assessed again), run in a worker on the host, debounced while parameters change. */
export function useAssessment(api: CustosApi, job: string): { report?: Report; failure?: HostFailure; busy: boolean } {
  const [result, setResult] = useState<{ report?: Report; failure?: HostFailure; busy: boolean; job?: string }>({ busy: false });
  useEffect(() => {
    let live = true;
    setResult((r) => ({ ...r, busy: true }));
    const timer = setTimeout(() => {
      void api.assess({ job: JSON.parse(job) as Record<string, unknown> }).then((outcome) => {
        if (!live) return;
        setResult(outcome.ok ? { report: outcome.value, busy: false, job } : { failure: outcome.failure, busy: false, job });
      });
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, job]);
  // Busy until the answer is for this very job (on the render where the job changes, the state still holds the last job's answer).
  const { job: answered, ...shown } = result;
  return { ...shown, busy: result.busy || answered !== job };
}

export function RiskStep(props: {
  api: CustosApi;
  state: WizardState;
  onFix: (key: string) => void;
  onPreviewed?: (path: string, levels: string) => void;
  /** Told the outcome of each preview, so the run stays blocked while the job cannot run. */
  onAssessed?: (job: string, failure: HostFailure | undefined) => void;
  /** Global recoding: take another suppression limit from the frontier. */
  onUseSuppressionLimit?: (limit: number) => void;
  /** Global recoding: keep columns at levels, or name one transformation (method.levels). */
  onSetLevels?: (levels: Named<LevelEntry>) => void;
  /** "Release anyway": the failed review checks accepted with a reason, or withdrawn. */
  onAcceptReview?: (acceptance: ReviewAcceptance | undefined) => void;
  /** The population stated as a sampling fraction (review.samplingFraction), or withdrawn. */
  onSamplingFraction?: (fraction: number | undefined) => void;
}) {
  const { state, onPreviewed, onAssessed } = props;
  const job = JSON.stringify(buildJob(state));
  const assessment = useAssessment(props.api, job);
  const { report, busy } = assessment;
  // A setting the run would refuse is previewed all the same (the lattice shows what would work), and blocks the run as a failure does.
  const refusal = report?.cannotRun;
  const failure = useMemo<HostFailure | undefined>(() => assessment.failure ?? (refusal ? { kind: 'job', message: refusal.message, key: refusal.key } : undefined), [assessment.failure, refusal]);
  useEffect(() => {
    if (!busy && (report || failure)) onAssessed?.(job, failure);
  }, [busy, report, failure, job, onAssessed]);
  // A preview of this file at fixed levels: later changes to the levels are choices made by looking at the data.
  const previewedPath = report && fixedLevelsMatter(state) ? state.file?.path : undefined;
  const levels = levelsKey(state);
  useEffect(() => {
    if (previewedPath) onPreviewed?.(previewedPath, levels);
  }, [previewedPath, levels, onPreviewed]);
  return (
    <>
      <p className="lead">What an adversary could learn from the input under this job, before anything is written.</p>
      <div aria-live="polite" className="live">
        {busy && <p className="muted">Assessing…</p>}
      </div>
      {failure && (
        <Callout tone="error" title="This setting cannot run.">
          {plainFailure(failure, state.method)}
          {refusal ? '. The preview below shows the most generalized transformation. ' : ' '}
          {failure.key && (
            <button type="button" className="link" onClick={() => props.onFix(failure.key!)}>
              Change it
            </button>
          )}
        </Callout>
      )}
      {report && (!failure || refusal) && (
        <>
          <ReviewVerdict report={report} acceptance={state.reviewAcceptance} {...(props.onAcceptReview ? { onAccept: props.onAcceptReview } : {})} />
          <AssessmentView report={report} />
          {report.method.levels && (report.method.frontier || report.method.solutions) && <RecodingLattice report={report} onUseLimit={props.onUseSuppressionLimit} {...(props.onSetLevels ? { onSetLevels: props.onSetLevels } : {})} />}
          <IdentityRisk report={report} />
          <RiskProfile report={report} {...(props.onSamplingFraction ? { onSamplingFraction: props.onSamplingFraction } : {})} />
          <QualityMeasures report={report} />
          <ReportWarnings warnings={report.warnings} />
        </>
      )}
    </>
  );
}

function AssessmentView({ report }: { report: Report }) {
  if (report.dp) {
    const dp = report.dp;
    return (
      <section className="card">
        <h3>{report.guarantee.name}</h3>
        <p>
          {formatNumber(dp.queries)} counts; Δ = {dp.sensitivity} ({dp.sensitivityRule}); every count gets noise of scale b = {dp.scale.toPrecision(4)}, so each is {dp.epsilonPerAnswer.toPrecision(3)}-DP on its own.
        </p>
        {dp.epsilonEffective !== undefined && (
          <Callout tone="warn">
            The noise is correlated: the worst one-person change has a tail slope ε_eff = {dp.epsilonEffective.toPrecision(4)}, the rate its privacy loss grows far from the true answers, not a bound on it. The joint release is not claimed to be ε-DP.
          </Callout>
        )}
        <p className="muted">{report.utility.queryPool}.</p>
      </section>
    );
  }
  if (report.anonymity) {
    const a = report.anonymity;
    return (
      <section className="card">
        <h3>{report.guarantee.name}</h3>
        {report.guarantee.delta !== undefined && (
          <p>
            With k = {a.k} and sampling rate β = {a.sampling}, the release is (ε = {report.guarantee.epsilon}, δ = {report.guarantee.delta.toExponential(3)})-differentially private
            {report.method.derived['epsilonSelection'] !== undefined
              ? `, provided the private search (ε_sel = ${String(report.method.derived['epsilonSelection'])}) and the sampling and k-anonymization, both run on the same sample, compose sequentially as SafePub argues (an argument Custos has not re-checked)`
              : ', provided the levels were fixed without looking at this data'}
            . {a.choice}.
          </p>
        )}
        <p>
          A preview on this data: {formatNumber(report.risk.classes ?? 0)} classes would be released, the smallest with {formatNumber(report.risk.minClassSize ?? 0)} records
          {report.output?.suppressed !== undefined ? `; ${formatNumber(report.output.suppressed)} records suppressed` : ''}. Generalization loss {formatNumber(report.utility.generalizationLoss, 3)} (the mean share of detail lost in each released cell of a generalized column: 0 as collected, 1 fully generalized; deleted records are not counted).
          {report.method.derived['epsilonSelection'] !== undefined && (
            <>
              {' '}
              This preview drew its own sample and levels ({a.columns.filter((c) => c.depth > 1).map((c) => `${c.name} ${c.level}`).join(', ')}); the run draws afresh, so its levels and figures may differ. Each preview looks at the confidential records outside the release's budget: a setting changed after seeing previews is chosen with the data, which the run's (ε, δ) does not cover, so settle the parameters before looking where you can.
            </>
          )}
        </p>
        {a.curve && (
          <DeltaCurveChart title="Strength of the guarantee: −log₁₀ δ at each ε (longer is stronger)" curve={a.curve} />
        )}
        {a.parts && (
          <p>
            Parts: {a.parts.map((p) => `#${p.part}: ${formatNumber(p.released)} of ${formatNumber(p.size)} released`).join('; ')}.
          </p>
        )}
      </section>
    );
  }
  if (report.beta) {
    const b = report.beta;
    return (
      <>
        <Callout tone="ok" title="A β-private bucketization exists.">
          No value is more frequent in the whole file than its β allows, so buckets that meet every β can be formed (the paper's Lemma 3.7: f_v ≤ β_v for every value v).
        </Callout>
        <BarChart
          title="Information lost by the bucketing (mean squared error, lower is better)"
          bars={[
            { label: `${b.chosen.algorithm} buckets`, value: b.chosen.mse, tone: 'safe', text: b.chosen.mse.toFixed(3) },
            ...(b.twoSize && b.chosen.algorithm !== 'two-size' ? [{ label: 'two sizes', value: b.twoSize.mse, tone: 'neutral' as const, text: b.twoSize.mse.toFixed(3) }] : []),
            ...(b.anatomy ? [{ label: `Anatomy (ℓ = ${b.anatomy.l})`, value: b.anatomy.mse, tone: 'muted' as const, text: `${b.anatomy.mse.toFixed(3)}${b.anatomy.feasible ? '' : ' (infeasible)'}` }] : []),
          ]}
        />
        <p>
          Buckets: {Object.entries(b.chosen.sizes).map(([size, n]) => `${formatNumber(n)} of ${size} records`).join(', ')}.
        </p>
      </>
    );
  }
  const by = report.risk.bySensitive ?? [];
  // Whether the release meets the (ε,δ) test (reconstruction privacy) or is plain perturbation: the mechanism's metadata says.
  const rp = metadataOf(report.method.type)?.reportFigures.releaseMeetsReconstructionTest ?? false;
  return (
    <>
      {by.map((s) => (
        <section key={s.column} className="card">
          <h3>“{s.column}”</h3>
          <p>
            {formatNumber(s.microGroups)} micro groups (records sharing every non-sensitive value). Under plain randomized response at p = {s.retention},{' '}
            <strong>{formatNumber(s.violatingBefore)}</strong> of them ({formatPercent(s.violatingRowsBefore ?? Number.NaN, report.input.rows ?? Number.NaN)} of records) could be reconstructed
            {rp ? <>; reconstruction privacy brings this to <strong>{formatNumber(s.violatingAfter)}</strong>.</> : '.'}
          </p>
          <BarChart
            title="Micro groups that leak"
            bars={[
              { label: 'plain randomized response', value: s.violatingBefore ?? Number.NaN, tone: 'danger' },
              ...(rp ? [{ label: 'reconstruction privacy', value: s.violatingAfter ?? 0, tone: 'safe' as const }] : []),
            ]}
          />
          {(s.unprotectableGroups ?? 0) > 0 && <Callout tone="warn">{formatNumber(s.unprotectableGroups)} group(s) cannot be protected at these parameters and will be suppressed.</Callout>}
        </section>
      ))}
    </>
  );
}
