import { formatNumber } from '../format/numbers.js';
import type { ReportFigures } from '../mechanism.js';
import { randomizedKeyFigures } from './randomized-figures.js';
import { randomizedPreview } from './randomized-preview.js';
import type { Report, SensitiveReport } from './report-model.js';
import { data, type Block, type ReportView, type ViewBar, type ViewCell } from './view-model.js';

/** How a randomized-response method's release stands to the (ε,δ) reconstruction test. */
export interface RandomizedViewOptions {
  /**
   * True when the release itself is protected against the test (reconstruction privacy): the view
   * then sets this release beside plain perturbation. False: the release is plain perturbation.
   */
  readonly releaseMeetsTest: boolean;
}

const n = (text: string | number): ViewCell => ({ text: [data(text)], n: true });
const bar = (label: string, value: number, tone: ViewBar['tone']): ViewBar => ({ label, value, tone, text: formatNumber(value) });

/**
 * The randomized-response methods' part of the report: the (ε,δ) test before and after, utility,
 * and each sensitive attribute; `figures` is the mechanism's metadata (whether its release meets the test).
 */
export function randomizedView(figures: Pick<ReportFigures, 'releaseMeetsReconstructionTest'>): (report: Report) => ReportView {
  const options: RandomizedViewOptions = { releaseMeetsTest: figures.releaseMeetsReconstructionTest };
  return (report) => {
    const internal = report.risk.bySensitive !== undefined && report.variant !== 'external';
    return { sections: randomizedSections(report, options), keyFigures: randomizedKeyFigures(report, figures), preview: randomizedPreview(report, figures), ...(internal ? { mathematics: randomizedMathematics(report, options) } : {}) };
  };
}

function randomizedSections(report: Report, options: RandomizedViewOptions): Block[][] {
  const by = report.risk.bySensitive;
  if (!by) return [];
  if (report.variant === 'external') {
    const after = report.risk.violatingAfter;
    return [
      [
        { kind: 'heading', level: 2, text: 'Risk' },
        { kind: 'paragraph', text: ['Adversary: ', data(report.risk.adversary), '.'] },
      ],
      [
        ...(after !== undefined ? [{ kind: 'paragraph', text: ['Micro groups in the release failing the (ε,δ) test: ', { strong: formatNumber(after) }, '.'] } as const] : []),
        { kind: 'paragraph', text: 'Statistics of the confidential data are left out of this external report.' },
      ],
    ];
  }
  return [...riskLines(report, by, options), ...utilityLines(report, by), ...by.flatMap((s) => sensitiveLines(s, options))];
}

/** The appendix: the symbols behind the sensitive attributes' figures and tables. */
function randomizedMathematics(report: Report, options: RandomizedViewOptions): Block[][] {
  return [
    [{ kind: 'paragraph', text: ['The count queries of the utility figure: ', data(report.utility.queryPool), '.'] }],
    [{ kind: 'heading', level: 3, text: 'The figures of each sensitive attribute' }],
    [
      {
        kind: 'paragraph',
        text:
          'Retention p: the probability a record keeps its value; domain size m. The (ε, δ) reconstruction test of a micro group of n records is the formula above; its largest size that passes is the safe size s_g, and the largest valid ε is the largest ε inside the test\'s valid range for every group, ε ≤ 1 + ((1−p)/m)/(p·f_max), f_max the group\'s largest share of one value. ' +
          'The adversary\'s estimate F′ of a value\'s share f in a group is the raw maximum-likelihood estimate from the perturbed values, which may leave [0, 1]. ρ1 → ρ2: an adversary who believed a value with probability ρ1 before the release believes it with at most ρ2 after.' +
          (options.releaseMeetsTest ? ' Groups larger than s_g are sampled down to s_g records, perturbed and scaled back to their size (Algorithm 1 of the paper: Sampling, Perturbing, Scaling).' : ''),
      },
    ],
  ];
}

function riskLines(report: Report, by: readonly SensitiveReport[], options: RandomizedViewOptions): Block[][] {
  const r = report.risk;
  const bars = by.flatMap((s) => [bar(`${s.column}: plain perturbation`, s.violatingBefore ?? Number.NaN, 'danger'), ...(options.releaseMeetsTest ? [bar(`${s.column}: this release`, s.violatingAfter ?? 0, 'safe')] : [])]);
  return [
    [{ kind: 'heading', level: 2, text: 'Risk before and after' }],
    [{ kind: 'paragraph', text: ['Adversary: ', data(r.adversary), '.'] }],
    [
      {
        kind: 'paragraph',
        text: [
          data(formatNumber(r.microGroups ?? 0)),
          ' micro groups (records that share every non-sensitive value). Groups whose share of a sensitive value an adversary could estimate too closely (failing the (ε,δ) reconstruction test): ',
          { strong: formatNumber(r.violatingBefore) },
          ' under plain randomized response, ',
          { strong: formatNumber(r.violatingAfter) },
          ` in this ${report.kind === 'release' ? 'release' : 'setting'}.`,
        ],
      },
    ],
    [{ kind: 'bars', title: 'Micro groups that leak (fail the (ε,δ) test)', bars }],
  ];
}

function utilityLines(report: Report, by: readonly SensitiveReport[]): Block[][] {
  const bars = by.flatMap((s) => [
    bar(`${s.column}: plain perturbation`, s.relativeError.uniformPerturbation ?? Number.NaN, 'neutral'),
    ...(s.relativeError.reconstructionPrivacy !== undefined ? [bar(`${s.column}: this release`, s.relativeError.reconstructionPrivacy, 'safe')] : []),
  ]);
  const measured = bars.some((b) => Number.isFinite(b.value));
  return [
    [{ kind: 'heading', level: 2, text: 'Utility' }],
    [{ kind: 'paragraph', text: 'Random count queries that fix a sensitive value (how many records with some of the other columns\' values hold it), answered from the release and compared with the true answers; how the queries are drawn is in “The mathematics”.' }],
    [measured ? { kind: 'bars', title: 'Mean relative error of sensitive-value count queries (lower is better)', bars } : { kind: 'paragraph', tone: 'meta', text: 'Measured when the job runs.' }],
  ];
}

function sensitiveLines(s: SensitiveReport, options: RandomizedViewOptions): Block[][] {
  const f = formatNumber;
  const groups = s.riskiestGroups ?? [];
  const facts: Block = {
    kind: 'facts',
    lines: true,
    rows: [
      ['Values in the domain (m)', [data(f(s.domainSize)), ` (${s.domainDeclared ? 'declared in the job' : 'values present in the file'})`]],
      ['Chance a value is kept (retention p)', [data(f(s.retention, 6)), ' (exact ', data(s.retentionExact), ')']],
      ['Micro groups', [data(f(s.microGroups)), '; failing the test: ', data(f(s.violatingBefore)), ' before (', data(f(s.violatingRowsBefore)), ' records), ', data(f(s.violatingAfter)), ' after']],
      ['Largest ε the test accepts for these groups', [data(f(s.largestValidEpsilon, 6))]],
      s.sampledGroups !== undefined
        ? ['Large groups sampled down', [data(f(s.sampledGroups)), ' groups sampled, ', data(f(s.suppressedGroups)), ' suppressed (', data(f(s.suppressedRows)), ' records), ', data(f(s.trimmedRows)), ' trial rows trimmed by the strict option']]
        : null,
      s.queries !== undefined && s.queryAttempts !== undefined ? ['Count queries', [data(f(s.queries)), ' kept of ', data(f(s.queryAttempts)), ' drawn']] : null,
      ['Belief before → at most after (ρ1 → ρ2)', [data(s.rhoCurve.map((r) => `${r.rho1} → ${f(r.rho2, 3)}`).join(' · '))]],
    ],
  };
  const plotted = groups.length > 0 && groups.some((g) => Number.isFinite(g.estimateBefore));
  const plot: Block[] = plotted
    ? [
        {
          kind: 'estimates',
          title: `Reconstruction attack on the riskiest groups of ${s.column}`,
          rows: groups.map((g, i) => ({ label: `#${i + 1} ${g.value} (n=${g.size})`, truth: g.trueFrequency, before: g.estimateBefore ?? Number.NaN, ...(g.estimateAfter !== undefined ? { after: g.estimateAfter } : {}) })),
          legend: [
            { tone: 'truth', label: 'true frequency' },
            { tone: 'danger', label: 'adversary, plain perturbation' },
            ...(options.releaseMeetsTest ? [{ tone: 'safe' as const, label: 'adversary, this release' }] : []),
          ],
        },
      ]
    : [];
  const groupLines: Block[][] = [
    [{ kind: 'heading', level: 3, text: 'Riskiest micro groups (internal view: true statistics)' }, ...plot],
    [
      {
        kind: 'table',
        head: ['Group', 'Size', 'Value', 'True share', 'Share in the input', 'Safe size', 'Estimate, plain', 'Estimate, release', 'Trials'].map((text) => ({ text })),
        rows: groups.map((g) => [
          { text: [data(Object.entries(g.values).map(([k, v]) => `${k}=${v}`).join(', '))], mono: true },
          { ...n(f(g.size)), br: true },
          { text: [data(g.value)] },
          n(f(g.trueFrequency, 3)),
          n(f(g.globalFrequency, 3)),
          { ...n(f(g.sizeThreshold, 2)), br: true },
          n(f(g.estimateBefore, 3)),
          n(f(g.estimateAfter, 3)),
          n(f(g.trialsAfter)),
        ]),
      },
    ],
    [{ kind: 'paragraph', tone: 'meta', text: "The estimate is the adversary's raw reconstruction of the value's share in the group (it may fall outside 0 to 1); a group is safe when its size is at most its safe size." }],
  ];
  return [[{ kind: 'heading', level: 2, text: ['Sensitive attribute “', data(s.column), '”'] }], [facts], ...(groups.length > 0 ? groupLines : [[]])];
}
