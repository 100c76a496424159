import { esc } from '../../common/report/format.js';
import { formatNumber } from '../../common/format/numbers.js';
import type { AnonymityReport, Report } from '../../common/report/report-model.js';
import { barChart } from '../../common/report/svg-charts.js';

/** k-anonymity methods: recoding per column, the (ε, δ) curve, classes and parts. */
export function anonymitySections(report: Report, a: AnonymityReport): string {
  const internal = report.variant === 'internal';
  // Local suppression: a column of cells released as "*" (global recoding only).
  const cells = a.columns.some((c) => c.suppressedCells !== undefined);
  const columns = a.columns
    .map((c) => `<tr><td>${esc(c.name)}</td><td>${esc(c.hierarchy)}</td><td class="n">${c.level} of ${c.depth - 1}</td><td>${esc(c.example ?? '')}</td>${cells ? `<td class="n">${c.suppressedCells !== undefined ? formatNumber(c.suppressedCells) : ''}</td>` : ''}</tr>`)
    .join('');
  const curve = a.curve ?? [];
  const parts = a.parts ?? [];
  const selection = report.method.derived['epsilonSelection'];
  return `<h2>Generalization</h2>
<p>${
    report.method.levels !== undefined
      ? `The levels were chosen on this data by the optimal search over the lattice: ${esc(a.choice ?? '')}`
      : selection === undefined
        ? 'The recoding was fixed in the job, before any record was read'
        : `The recoding was chosen on the sample by the differentially private search (ε_sel = ${esc(selection)})`
  }${a.k !== undefined ? '; a class is one distinct released tuple over every released column (strongly-safe k-anonymization)' : ''}.</p>
<table><thead><tr><th>Column</th><th>Hierarchy</th><th>Level</th><th>Example</th>${cells ? '<th>Cells suppressed (*)</th>' : ''}</tr></thead><tbody>${columns}</tbody></table>
<h2>Classes</h2>
<p>${
    cells
      ? `${formatNumber(report.risk.classes ?? 0)} distinct released tuples; with "*" matching any value, every released record is compatible with at least ${formatNumber(report.risk.minClassSize ?? 0)} records (local suppression).`
      : `${formatNumber(report.risk.classes ?? 0)} released classes; the smallest has ${formatNumber(report.risk.minClassSize ?? 0)} records.`
  }${
    report.output?.suppressed !== undefined ? ` ${formatNumber(report.output.suppressed)} record(s) were suppressed (internal figure${report.method.levels !== undefined ? '' : ': the exact count is outside the theorem'}).` : ''
  }${a.sampled !== undefined && Number.isFinite(a.sampled) ? ` ${formatNumber(a.sampled)} records were in the sample.` : ''} Generalization loss: ${formatNumber(report.utility.generalizationLoss, 3)}.</p>
${a.k !== undefined ? `<p>k = ${a.k}, sampling rate β = ${formatNumber(a.sampling, 6)} (exact ${esc(a.samplingExact ?? '')}). ${esc(a.choice ?? '')}. Neighbours: ${esc(a.neighbours)}.</p>` : ''}
${
  curve.length
    ? `<h2>The (ε, δ) curve</h2>
${barChart('−log₁₀ δ at each ε (longer is stronger)', curve.map((c) => ({ label: `ε = ${formatNumber(c.epsilon, 3)}`, value: -Math.log10(Math.max(c.delta, 1e-300)), tone: 'safe' as const })), (v) => `δ = 1e-${v.toFixed(1)}`)}
${selection === undefined ? '' : `<p>Each ε includes the search's ε_sel = ${esc(selection)}; δ is d(k, β, ε − ε_sel).</p>`}
<table><thead><tr><th>ε</th><th>δ</th></tr></thead><tbody>${curve.map((c) => `<tr><td class="n">${formatNumber(c.epsilon, 4)}</td><td class="n">${c.delta.toExponential(4)}</td></tr>`).join('')}</tbody></table>`
    : ''
}
${
  parts.length
    ? `<h2>Parts</h2><p>Model: ${esc(a.model ?? '')}. Neighbours: ${esc(a.neighbours)}.</p>
<table><thead><tr><th>Part</th>${internal ? '<th class="n">Records</th>' : ''}<th class="n">Released</th><th class="n">Classes</th><th class="n">Worst class</th>${internal ? '<th class="n">Suppressed</th>' : ''}</tr></thead><tbody>${parts
        .map((p) => `<tr><td class="n">${p.part}</td>${internal ? `<td class="n">${formatNumber(p.size)}</td>` : ''}<td class="n">${formatNumber(p.released)}</td><td class="n">${formatNumber(p.classes)}</td><td class="n">${formatNumber(p.worst, 4)}</td>${internal ? `<td class="n">${formatNumber(p.suppressed)}</td>` : ''}</tr>`)
        .join('')}</tbody></table>
${
  a.epsilonPrime
    ? `<p>A DP mechanism with ε run on one part (a fixed-size random subset; β = ⌈n/P⌉/n, the share of the largest part) is ε′-DP under bounded neighbours, datasets of equal size differing in one record (Theorem 2); the report uses min(ε, ε′):</p>
<table><thead><tr><th>ε</th><th>ε′</th><th>reported</th></tr></thead><tbody>${a.epsilonPrime.map((e) => `<tr><td class="n">${e.epsilon}</td><td class="n">${formatNumber(e.epsilonPrime, 6)}</td><td class="n">${formatNumber(e.reported, 6)}</td></tr>`).join('')}</tbody></table>`
    : ''
}`
    : ''
}`;
}
