import { esc } from '../../../common/report/format.js';
import { formatNumber } from '../../../common/format/numbers.js';
import type { BetaReport, Report } from '../../../common/report/report-model.js';
import { barChart } from '../../../common/report/svg-charts.js';

/** The β-privacy part of the report: per-value thresholds and bounds, bucket sizes, baselines, attacks. */
export function betaSections(report: Report, beta: BetaReport): string {
  const bounds = report.guarantee.maxInference;
  // The input's counts are internal; the published report leaves their columns out.
  const counted = beta.values.some((v) => v.count !== undefined);
  const rows = beta.values
    .map((v) => {
      // Values are data: a value named "constructor" must not find Object.prototype's.
      const bound = bounds && Object.hasOwn(bounds, v.value) ? bounds[v.value] : undefined;
      return `<tr><td>${esc(v.value)}</td>${counted ? `<td class="n">${formatNumber(v.count)}</td><td class="n">${formatNumber(v.frequency, 4)}</td>` : ''}<td class="n">${esc(v.betaExact)} (${formatNumber(v.beta, 4)})</td>
${counted ? `<td class="n">${bound && bound.count !== undefined ? `${bound.count}/${bound.size} = ${formatNumber(bound.value, 4)}` : 'n/a'}</td>` : ''}<td>${bound ? (bound.holds ? '<span class="verdict ok">≤ β</span>' : '<span class="verdict bad">exceeds β</span>') : ''}</td></tr>`;
    })
    .join('');
  const sizes = Object.entries(beta.chosen.sizes).map(([size, count]) => ({ label: `size ${size}`, value: count, tone: 'neutral' as const }));
  const settings = [beta.chosen, ...(beta.twoSize && beta.chosen.algorithm !== 'two-size' ? [beta.twoSize] : []), ...(beta.multiSize && beta.chosen.algorithm !== 'multi-size' ? [beta.multiSize] : []), ...(beta.anatomy && beta.chosen.algorithm !== 'anatomy' ? [beta.anatomy] : [])];
  const settingRows = settings
    .map((s) => `<tr><td>${esc(s.algorithm)}${s === beta.chosen ? ' (released)' : ''}</td><td>${esc(Object.entries(s.sizes).map(([k, n]) => `${n}×${k}`).join(', ') || '—')}</td><td class="n">${formatNumber(s.loss)}</td><td class="n">${formatNumber(s.mse, 3)}</td><td>${s.feasible ? 'yes' : esc(s.note ?? 'no')}</td></tr>`)
    .join('');
  const errors = report.utility.relativeError;
  const errorBars = [
    ...(errors.release !== undefined ? [{ label: `${beta.chosen.algorithm} (this release)`, value: errors.release, tone: 'safe' as const }] : []),
    ...(errors.anatomy !== undefined && beta.anatomy ? [{ label: `anatomy, ℓ = ${beta.anatomy.l}`, value: errors.anatomy, tone: 'neutral' as const }] : []),
  ];
  const corruption = beta.corruption ?? [];
  const shown = corruption.filter((c, i) => i < 12 || c.corrupted === corruption.length);
  return `<h2>Sensitive values and their thresholds</h2>
<p>Sensitive column “${esc(beta.sensitive)}”; bucket sizes searched in [${beta.sizeRange.min}, ${beta.sizeRange.max}]. Buckets meeting every β exist because no value is more frequent than its β allows (f_v ≤ β_v; Lemma 3.7 of the paper).</p>
<table><thead><tr><th>Value</th>${counted ? '<th>Records</th><th>f_v</th>' : ''}<th>β_v</th>${counted ? '<th>Largest count/size</th>' : ''}<th></th></tr></thead><tbody>${rows}</tbody></table>
<h2>Buckets</h2>
${sizes.length ? barChart('Number of buckets per size', sizes) : ''}
<table><thead><tr><th>Setting</th><th>Buckets</th><th>Blur: loss (Σ|B|²)</th><th>Mean squared error</th><th>Feasible</th></tr></thead><tbody>${settingRows}</tbody></table>
${beta.multiSize ? `<p class="meta">MultiSizeBucketing: ${beta.multiSize.calls} TwoSizeBucketing calls, recursion depth ${beta.multiSize.depth}.</p>` : ''}
<h2>Utility</h2>
<p>${esc(report.utility.queryPool)}.</p>
${errorBars.length ? barChart('Mean relative error of sensitive-value count queries (lower is better)', errorBars) : '<p class="meta">Measured when the job runs.</p>'}
${
  shown.length
    ? `<h2>Corruption attack</h2>
<p>The adversary learns the true values of c other records of a bucket and reads what remains. Worst posterior over all buckets that a remaining record holds a given value${beta.fakeValues ? `, without and with the ${beta.fakeValues} fake value(s) per bucket` : ''}:</p>
<table><thead><tr><th>c</th><th>Without fakes</th>${beta.fakeValues ? '<th>With fakes</th>' : ''}</tr></thead><tbody>${shown
        .map((c) => `<tr><td class="n">${c.corrupted}</td><td class="n">${formatNumber(c.withoutFakes, 3)}</td>${beta.fakeValues ? `<td class="n">${formatNumber(c.withFakes, 3)}</td>` : ''}</tr>`)
        .join('')}</tbody></table>`
    : ''
}`;
}
