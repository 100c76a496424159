import { esc } from '../../common/report/format.js';
import { formatNumber } from '../../common/format/numbers.js';
import type { Report, SensitiveReport } from '../../common/report/report-model.js';
import { barChart, estimatePlot } from '../../common/report/svg-charts.js';

/** Randomized-response methods: the (ε,δ) test before and after, utility, and each sensitive attribute. */
export function randomizedSections(report: Report, by: readonly SensitiveReport[]): string {
  if (report.variant === 'external') {
    return `<h2>Risk</h2><p>Adversary: ${esc(report.risk.adversary)}.</p>
${report.risk.violatingAfter !== undefined ? `<p>Micro groups in the release failing the (ε,δ) test: <strong>${formatNumber(report.risk.violatingAfter)}</strong>.</p>` : ''}<p>Statistics of the confidential data are left out of this external report.</p>`;
  }
  return [riskSection(report, by), utilitySection(report, by), ...by.map((s) => sensitiveSection(report, s))].join('\n');
}

function riskSection(report: Report, by: readonly SensitiveReport[]): string {
  const r = report.risk;
  const bars = by.flatMap((s) => [
    { label: `${s.column}: plain perturbation`, value: s.violatingBefore ?? Number.NaN, tone: 'danger' as const },
    ...(report.method.type === 'reconstruction-privacy'
      ? [{ label: `${s.column}: this release`, value: s.violatingAfter ?? 0, tone: 'safe' as const }]
      : []),
  ]);
  return `<h2>Risk before and after</h2>
<p>Adversary: ${esc(r.adversary)}.</p>
<p>${formatNumber(r.microGroups ?? 0)} micro groups. Groups failing the (ε,δ) reconstruction test: <strong>${formatNumber(r.violatingBefore)}</strong> under plain randomized response, <strong>${formatNumber(r.violatingAfter)}</strong> in this ${report.kind === 'release' ? 'release' : 'setting'}.</p>
${barChart('Micro groups that leak (fail the (ε,δ) test)', bars)}`;
}

function utilitySection(report: Report, by: readonly SensitiveReport[]): string {
  const bars = by.flatMap((s) => [
    { label: `${s.column}: plain perturbation`, value: s.relativeError.uniformPerturbation ?? Number.NaN, tone: 'neutral' as const },
    ...(s.relativeError.reconstructionPrivacy !== undefined
      ? [{ label: `${s.column}: this release`, value: s.relativeError.reconstructionPrivacy, tone: 'safe' as const }]
      : []),
  ]);
  const measured = bars.some((b) => Number.isFinite(b.value));
  return `<h2>Utility</h2>
<p>${esc(report.utility.queryPool)}.</p>
${measured ? barChart('Mean relative error of sensitive-value count queries (lower is better)', bars) : '<p class="meta">Measured when the job runs.</p>'}`;
}

function sensitiveSection(report: Report, s: SensitiveReport): string {
  const groups = s.riskiestGroups ?? [];
  const rows = groups
    .map(
      (g) => `<tr><td class="mono">${esc(Object.entries(g.values).map(([k, v]) => `${k}=${v}`).join(', '))}</td>
<td class="n">${formatNumber(g.size)}</td><td>${esc(g.value)}</td><td class="n">${formatNumber(g.trueFrequency, 3)}</td><td class="n">${formatNumber(g.globalFrequency, 3)}</td>
<td class="n">${formatNumber(g.sizeThreshold, 2)}</td><td class="n">${formatNumber(g.estimateBefore, 3)}</td><td class="n">${formatNumber(g.estimateAfter, 3)}</td><td class="n">${formatNumber(g.trialsAfter)}</td></tr>`,
    )
    .join('');
  const plot =
    groups.length > 0 && groups.some((g) => Number.isFinite(g.estimateBefore))
      ? estimatePlot(
          `Reconstruction attack on the riskiest groups of ${s.column}`,
          groups.map((g, i) => ({ label: `#${i + 1} ${g.value} (n=${g.size})`, truth: g.trueFrequency, before: g.estimateBefore ?? Number.NaN, ...(g.estimateAfter !== undefined ? { after: g.estimateAfter } : {}) })),
        ) +
        '<p class="legend"><span><i class="sw" style="background:#222"></i>true frequency</span><span><i class="sw" style="background:#b3261e"></i>adversary, plain perturbation</span>' +
        (report.method.type === 'reconstruction-privacy' ? '<span><i class="sw" style="background:#1b6e3a"></i>adversary, this release</span>' : '') +
        '</p>'
      : '';
  return `<h2>Sensitive attribute “${esc(s.column)}”</h2>
<table><tbody>
<tr><th>Domain size m</th><td>${formatNumber(s.domainSize)} (${s.domainDeclared ? 'declared in the job' : 'values present in the file'})</td></tr>
<tr><th>Retention p</th><td>${formatNumber(s.retention, 6)} (exact ${esc(s.retentionExact)})</td></tr>
<tr><th>Micro groups</th><td>${formatNumber(s.microGroups)}; failing the test: ${formatNumber(s.violatingBefore)} before (${formatNumber(s.violatingRowsBefore)} records), ${formatNumber(s.violatingAfter)} after</td></tr>
<tr><th>Largest valid ε</th><td>${formatNumber(s.largestValidEpsilon, 6)}</td></tr>
${s.sampledGroups !== undefined ? `<tr><th>Algorithm 1</th><td>${formatNumber(s.sampledGroups)} groups sampled, ${formatNumber(s.suppressedGroups)} suppressed (${formatNumber(s.suppressedRows)} records), ${formatNumber(s.trimmedRows)} trial rows trimmed by the strict option</td></tr>` : ''}
${s.queries !== undefined && s.queryAttempts !== undefined ? `<tr><th>Count queries</th><td>${formatNumber(s.queries)} kept of ${formatNumber(s.queryAttempts)} drawn</td></tr>` : ''}
<tr><th>ρ1 → ρ2</th><td>${s.rhoCurve.map((r) => `${r.rho1} → ${formatNumber(r.rho2, 3)}`).join(' · ')}</td></tr>
</tbody></table>
${groups.length > 0 ? `<h3>Riskiest micro groups (internal view: true statistics)</h3>${plot}
<table><thead><tr><th>Group</th><th>Size</th><th>Value</th><th>True f</th><th>Global f</th><th>s_g</th><th>F′ plain</th><th>F′ release</th><th>Trials</th></tr></thead><tbody>${rows}</tbody></table>
<p class="meta">F′ is the adversary's raw maximum-likelihood estimate (it may leave [0,1]); a group is safe when its size is at most s_g.</p>` : ''}`;
}

