import { plainFailure } from '../components/plain-messages.js';
import { useEffect, useMemo, useState } from 'react';
import type { CustosApi, HostFailure, Report } from '../../common/ipc/api.js';
import { Callout, ReportWarnings } from '../components/fields.js';
import { IdentityRisk } from '../components/identity-risk.js';
import { RiskProfile } from '../components/risk-profile.js';
import { QualityMeasures } from '../components/quality-measures.js';
import { ReviewVerdict, type ReviewAcceptance } from '../components/review-verdict.js';
import { RecodingLattice, type LevelEntry } from '../components/recoding-lattice.js';
import type { Named } from '../../common/job/names.js';
import { buildJob, fixedLevelsMatter, levelsKey } from '../state/job.js';
import { previewOf } from '../../mechanisms/report-views.js';
import { ViewBlocks } from '../components/view-blocks.js';
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
          {/* The mechanism's preview (its view of the report, src/mechanisms/report-views.ts). */}
          <ViewBlocks blocks={previewOf(report)} />
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
