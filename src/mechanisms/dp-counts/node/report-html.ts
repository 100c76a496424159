import { esc } from '../../../common/report/format.js';
import { formatNumber } from '../../../common/format/numbers.js';
import type { DpReport } from '../../../common/report/report-model.js';
import { barChart } from '../../../common/report/svg-charts.js';

/** DP counts: sensitivity and scale, accounting, and the two attacks run on the release. */
export function dpSections(dp: DpReport): string {
  const filtering = dp.filtering ?? [];
  const inference = dp.inference ?? [];
  return `<h2>Noise and accounting</h2>
<table><tbody>
<tr><th>Answers</th><td>${formatNumber(dp.queries)} (${formatNumber(dp.distinctQueries)} distinct; a repeated query returns its cached noisy answer)</td></tr>
<tr><th>Sensitivity Δ</th><td>${formatNumber(dp.sensitivity)}: ${esc(dp.sensitivityRule)}</td></tr>
<tr><th>Noise</th><td>${esc(dp.noise)}, scale b = ${formatNumber(dp.scale, 6)}${dp.grid ? `; ${esc(dp.grid)}` : ''}</td></tr>
<tr><th>Correlation</th><td>${esc(dp.correlation)}</td></tr>
<tr><th>ε per answer</th><td>${formatNumber(dp.epsilonPerAnswer, 6)}</td></tr>
${dp.epsilonEffective !== undefined ? `<tr><th>ε_eff, worst one-person change (tail slope)</th><td>${formatNumber(dp.epsilonEffective, 6)} = √(ΔᵀR⁻¹Δ)/b — the rate the privacy loss grows far from the true answers, not a bound: the joint release is not claimed ε-DP</td></tr>` : ''}
${dp.parts > 1 ? `<tr><th>Parts</th><td>${dp.parts} parts, each record assigned to one independently and uniformly (a Poisson sample at rate 1/${dp.parts} per part); answers of one part alone: ${(dp.epsilonPrime ?? []).map((e) => `ε = ${e.epsilon}: ε′ = ln(1 + (e^ε − 1)/${dp.parts}) = ${formatNumber(e.epsilonPrime, 6)}, reported min(ε, ε′) = ${formatNumber(e.reported, 6)}`).join('; ')}</td></tr>` : ''}
</tbody></table>
${
  filtering.length
    ? `<h2>Filtering attack</h2><p>A Wiener smoother that knows the signal's and the noise's autocovariance tries to strip the noise from each released series. Noise removal NR = 1 − MSE_filtered/MSE_raw is the share of the noise the filter strips (0 or less: none); gain G = MSE_shrink/MSE_filtered compares with shrinking towards the mean (G ≈ 1: correlation gives nothing; with one W per stream the realized noise level varies, so read G with NR).</p>
${barChart('Noise removed by the filter (lower is safer)', filtering.flatMap((f) => [
        { label: `${f.series}: IID Laplace`, value: Math.max(0, f.removalIid), tone: 'danger' as const },
        { label: `${f.series}: this release`, value: Math.max(0, f.removalRelease), tone: 'safe' as const },
      ]), (v) => `${(100 * v).toFixed(1)}%`)}
<table><thead><tr><th>Series</th><th class="n">Length</th><th class="n">K</th><th class="n">NR, IID</th><th class="n">NR, release</th><th class="n">G, IID</th><th class="n">G, release</th><th class="n">MSE raw</th><th class="n">MSE filtered</th></tr></thead><tbody>${filtering
        .map((f) => `<tr><td>${esc(f.series)}</td><td class="n">${f.length}</td><td class="n">${f.halfWidth}</td><td class="n">${formatNumber(f.removalIid, 3)}</td><td class="n">${formatNumber(f.removalRelease, 3)}</td><td class="n">${formatNumber(f.gainIid, 3)}</td><td class="n">${formatNumber(f.gainRelease, 3)}</td><td class="n">${formatNumber(f.mseRaw, 3)}</td><td class="n">${formatNumber(f.mseFiltered, 3)}</td></tr>`)
        .join('')}</tbody></table>`
    : ''
}
${
  inference.length
    ? `<h2>Differential-inference attack (internal view)</h2><p>From noisy COUNT(group) and COUNT(group ∧ value) the adversary estimates the share of the value in the group; large groups are inferred precisely even though every count is noisy.</p>
<table><thead><tr><th>Group</th><th>Value</th><th class="n">o1</th><th class="n">o2</th><th class="n">True share</th><th class="n">Mean ≈</th><th class="n">SD ≈</th><th class="n">Pr[error > +ε]</th><th class="n">Pr[error < −ε]</th></tr></thead><tbody>${inference
        .map((g) => `<tr><td>${esc(g.group)}</td><td>${esc(g.value)}</td><td class="n">${formatNumber(g.o1)}</td><td class="n">${formatNumber(g.o2)}</td><td class="n">${formatNumber(g.f, 3)}</td><td class="n">${formatNumber(g.meanApprox, 4)}</td><td class="n">${formatNumber(g.sdApprox, 4)}</td><td class="n">${formatNumber(g.pAbove, 4)}</td><td class="n">${formatNumber(g.pBelow, 4)}</td></tr>`)
        .join('')}</tbody></table><p class="meta">ε of the attack: ${inference[0]!.attackEpsilon}; 20,000 simulated draws per group.</p>`
    : ''
}`;
}
