import { esc, readableTime } from '../../common/report/format.js';
import { formatNumber } from '../../common/format/numbers.js';
import { reviewWords } from '../../common/report/review-words.js';
import { parameterLabel, parameterValue } from '../../common/report/parameter-labels.js';
import { rejectedLines, sharedFacts } from '../../common/report/report-facts.js';
import { CONFIDENTIAL_MARK, type Report } from '../../common/report/report-model.js';
import { guaranteeVerdict, verdictWords } from '../../common/report/guarantee-verdict.js';
import { riskProfileBasis, riskProfileFacts } from '../../common/report/risk-profile-facts.js';
import { formatCount } from '../../common/format/numbers.js';
import { analysisUtilitySection } from './analysis-utility-html.js';

/** The mechanism's own part of the report, drawn by the mechanism (its node registry entry). */
export type MethodSections = (report: Report) => string;

const STYLE = `
:root { --ink:#1d2430; --muted:#5b6472; --line:#d9dde3; --danger:#b3261e; --safe:#1b6e3a; --accent:#3a5a8c; }
* { box-sizing: border-box; }
body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0; background: #f6f7f9; }
main { max-width: 980px; margin: 0 auto; padding: 32px 40px 64px; background: #fff; }
h1 { font-size: 24px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 6px; }
.meta { color: var(--muted); margin: 0 0 16px; }
.notice { background: #fff4e5; border: 2px solid #c77700; color: #6b3f00; padding: 10px 14px; font-weight: 700; margin: 12px 0; }
.summary { background: #f1f5fb; border-left: 4px solid var(--accent); padding: 12px 18px; }
.summary li { margin: 4px 0; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 600; font-size: 13px; }
.verdict.ok { background: #e3f3e8; color: var(--safe); } .verdict.bad { background: #fbe4e2; color: var(--danger); } .verdict.none { background: #fff4e5; color: #6b3f00; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 13px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f3f4f6; font-weight: 600; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12px; word-break: break-all; }
.formula { background: #f7f7f9; padding: 8px 12px; border-radius: 4px; }
.chart { display: block; margin: 8px 0 16px; max-width: 100%; height: auto; font: 12px system-ui, sans-serif; }
.chart .chart-title { font-weight: 600; font-size: 13px; } .chart .grid { stroke: #e4e7eb; }
.legend span { margin-right: 16px; } .sw { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: middle; }
.warn { color: #6b3f00; }
.confidential { border: 2px solid #b3261e; color: #b3261e; font-weight: 700; padding: .5rem .75rem; margin: .5rem 0; }
/* Printed, a fixed element repeats on every page: the mark must be on each sheet that leaves the printer. */
@media print { .confidential { position: fixed; bottom: 0; left: 0; right: 0; margin: 0; background: #fff; font-size: 9pt; } }
@media print { body { background: #fff; } main { padding: 0; max-width: none; } h2 { break-after: avoid; } table, svg { break-inside: avoid; } }
`;

/** `mathematics`: the mechanism's part of the appendix (HTML from its view), after the guarantee's formula. */
export function renderReportHtml(report: Report, methodSections: MethodSections, mathematics = ''): string {
  const title = `${report.kind === 'release' ? 'Privacy report' : 'Risk assessment'}: ${report.method.title}`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main>
<h1>${esc(title)}</h1>
${report.variant === 'internal' ? `<div class="confidential" role="alert">${esc(CONFIDENTIAL_MARK)}</div>` : ''}
<p class="meta">${esc(report.variant)} variant · ${esc(readableTime(report.createdAt))} · Custos ${esc(report.software.version)}${report.input.sha256 ? ` · input <code>${esc(report.input.sha256.slice(0, 16))}…</code>` : ''}</p>
${report.notice ? `<div class="notice">${esc(report.notice)}</div>` : ''}
<section class="summary"><strong>In plain words</strong><ul>${report.summary.map((s) => `<li>${esc(s)}</li>`).join('')}</ul></section>
${reviewSection(report)}
${guaranteeSection(report)}
${methodSections(report)}
${reidentificationSection(report)}
${riskProfileSection(report)}${analysisUtilitySection(report)}
${parametersSection(report)}
${inputSection(report)}
${outputSection(report)}
${report.warnings.length ? `<h2>Warnings</h2><ul>${report.warnings.map((w) => `<li class="warn">${esc(w)}</li>`).join('')}</ul>` : ''}
${mathematicsSection(report, mathematics)}
<h2>Provenance</h2>
<table><tbody>
<tr><th>Software</th><td>Custos ${esc(report.software.version)}, Node ${esc(report.software.node)}, ${esc(report.software.platform)}</td></tr>
<tr><th>Report schema</th><td>${esc(report.schema)}</td></tr>
<tr><th>Randomness</th><td>${report.testRandomness ? '<strong>seeded test generator: NOT a protected release</strong>' : 'operating system CSPRNG (crypto.getRandomValues), exact Bernoulli draws'}</td></tr>
</tbody></table>
</main></body></html>
`;
}

/** The release-level disclosure review: its verdict, what the method assumes the attacker knows, every check with its finding and fix. */
function reviewSection(report: Report): string {
  const review = report.review;
  if (!review) return '';
  const words = reviewWords(review);
  return `<h2>${esc(words.title)} <span class="verdict ${words.tone}">${esc(words.verdict)}</span></h2>
<p>${esc(words.attacker)}</p>
${words.acknowledgement ? `<p class="warn">${esc(words.acknowledgement)}</p>\n` : ''}<table><tbody>${review.checks.map((c) => `<tr><th>${esc(c.check)}${c.severity === 'warn' ? ' (warning)' : ''}</th><td>${c.passed ? 'passed' : c.acknowledged ? 'failed, accepted' : 'FAILED'}: ${esc(c.finding)}${c.fix ? ` <em>Fix: ${esc(c.fix)}</em>` : ''}</td></tr>`).join('')}</tbody></table>`;
}

function guaranteeSection(report: Report): string {
  const g = report.guarantee;
  return `<h2>Guarantee <span class="verdict ${{ holds: 'ok', fails: 'bad', 'not-claimed': 'none' }[guaranteeVerdict(g)]}">${verdictWords(g)}</span></h2>
<p><strong>${esc(g.name)}.</strong> ${esc(g.statement)}</p>
<p class="meta">Source: ${esc(g.source)}. The formula is in “The mathematics” at the end.</p>`;
}

/** The appendix: the guarantee as a formula, after the plain sentences a custodian reads first. */
function mathematicsSection(report: Report, mathematics: string): string {
  return `<h2>The mathematics</h2>
<p>${esc(report.guarantee.name)}, as the theorem states it (${esc(report.guarantee.source)}):</p>
<p class="formula mono">${esc(report.guarantee.formula)}</p>${mathematics ? `\n${mathematics}` : ''}`;
}

function reidentificationSection(report: Report): string {
  const facts = sharedFacts(report).reidentification;
  if (facts.length === 0) return '';
  return `<h2>Re-identification risk</h2>
<p>Identity disclosure through the quasi-identifiers, as ARX and sdcMicro measure it (equivalence classes of records sharing every quasi-identifier value).</p>
<table><tbody>${facts.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</tbody></table>`;
}

/** Every risk figure of the quasi-identifiers (internal only), with the riskiest records. */
function riskProfileSection(report: Report): string {
  const profile = report.risk.profile;
  if (!profile) return '';
  const individual = 'skipped' in profile.individual ? undefined : profile.individual;
  return `<h2>Risk profile</h2>
<p>Of ${esc(riskProfileBasis(profile))}: population uniqueness (the models ARX offers), k-map, individual risk (sdcMicro's measure_risk) and special uniques (sdcMicro's suda2).</p>
<table><tbody>${riskProfileFacts(profile).map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</tbody></table>${
    individual
      ? `
<h3>Individual risk by record</h3>
<table><thead><tr><th>Risk</th><th>Records</th></tr></thead><tbody>${individual.histogram.map((b) => `<tr><td>${b.from} – ${b.to}</td><td>${formatCount(b.records)}</td></tr>`).join('')}</tbody></table>
<h3>The riskiest records</h3>
<table><thead><tr><th>Record</th>${profile.quasiIdentifiers.map((q) => `<th>${esc(q)}</th>`).join('')}<th>Class size</th><th>Risk</th></tr></thead><tbody>${individual.riskiest.map((r) => `<tr><td>${r.record}</td>${r.values.map((v) => `<td>${esc(v)}</td>`).join('')}<td>${r.classSize}</td><td>${r.risk.toFixed(4)}</td></tr>`).join('')}</tbody></table>`
      : ''
  }`;
}

function parametersSection(report: Report): string {
  // Labels for readers; each row keeps the JSON key as its tooltip, for an auditor matching report.json.
  const row = (k: string, v: string): string => `<tr><th title="${esc(k)}">${esc(parameterLabel(k))}</th><td>${esc(v)}</td></tr>`;
  const params = Object.entries(report.method.parameters).map(([k, v]) => row(k, parameterValue(v))).join('');
  const derived = Object.entries(report.method.derived).map(([k, v]) => row(k, typeof v === 'number' ? formatNumber(v, 6) : parameterValue(v))).join('');
  const internal = Object.entries(report.method.internal ?? {}).map(([k, v]) => row(k, formatNumber(v, 6))).join('');
  return `<h2>Method and parameters</h2><p>${esc(report.method.title)} (<code>${esc(report.method.type)}</code>)</p>
<table><tbody>${params}</tbody></table><h3>Derived values</h3><table><tbody>${derived}</tbody></table>${
    internal ? `<h3>Computed from the confidential sample (internal only, not covered by the guarantee)</h3><table><tbody>${internal}</tbody></table>` : ''
  }`;
}

function inputSection(report: Report): string {
  const i = report.input;
  const counted = i.columns.some((c) => c.distinct !== undefined);
  const cols = i.columns
    .map((c) => `<tr><td>${esc(c.name)}</td><td>${esc(c.role)}${c.defaulted ? ' (default)' : ''}</td><td>${esc(c.type)}</td>${counted ? `<td class="n">${formatNumber(c.distinct)}</td><td class="n">${formatNumber(c.missing)}</td>` : ''}</tr>`)
    .join('');
  const format = `${esc(i.format)}${i.encoding ? `, ${esc(i.encoding)}` : ''}${i.delimiter ? `, delimiter ${esc(JSON.stringify(i.delimiter))}` : ''}${i.sheet ? `, sheet ${esc(i.sheet)}` : ''}`;
  const file =
    i.sha256 !== undefined
      ? `<tr><th>File</th><td class="mono">${esc(i.path ?? '')}</td></tr>
<tr><th>SHA-256</th><td class="mono">${esc(i.sha256)}</td></tr>
<tr><th>Records</th><td>${formatNumber(i.rows)} (${formatNumber(i.bytes)} bytes, ${format}); rejected rows: ${formatNumber(i.rejectedRows)}</td></tr>${
          i.rejectedRowLines?.length ? `\n<tr><th>Rejected lines</th><td>${esc(rejectedLines(i.rejectedRowLines))} (skipped: not released)</td></tr>` : ''
        }`
      : `<tr><th>Format</th><td>${format}</td></tr>
<tr><th>Not shown</th><td>The input's name, size, checksum and counts are facts of the confidential file; they are in the internal report only.</td></tr>`;
  return `<h2>Input</h2>
<table><tbody>
${file}
</tbody></table>
<table><thead><tr><th>Column</th><th>Role</th><th>Type</th>${counted ? '<th>Distinct</th><th>Missing</th>' : ''}</tr></thead><tbody>${cols}</tbody></table>${variablesSection(i.variables)}`;
}

/** The statistical package's own description of its variables: labels, the codes replaced by value labels, declared missing values. */
function variablesSection(variables: Report['input']['variables']): string {
  if (!variables || variables.length === 0) return '';
  const rows = variables
    .map((v) => {
      const codes = v.valueLabels.map((l) => `${l.code} = ${l.label}`).join('; ');
      const weight = v.weight ? ' (the file\'s case weight: read as an ordinary column; records are not weighted)' : '';
      return `<tr><td>${esc(v.name)}${esc(weight)}</td><td>${esc(v.label ?? '')}</td><td>${esc(codes)}</td><td class="n">${formatNumber(v.declaredMissing)}</td></tr>`;
    })
    .join('');
  return `<h3>Variables as the file describes them</h3>
<p>Values with a value label are read as their label; the codes the file stored are listed here. Values the file declares missing are read as missing.</p>
<table><thead><tr><th>Column</th><th>Label</th><th>Codes read as labels</th><th>Declared missing</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function outputSection(report: Report): string {
  if (!report.output) return '';
  const files = report.output.files
    .map((f) => `<tr><td>${esc(f.name)}</td><td class="n">${formatNumber(f.rows)}</td><td class="n">${formatNumber(f.bytes)}</td><td class="mono">${esc(f.sha256)}</td></tr>`)
    .join('');
  // DP counts release answers in a fixed cell order, not records.
  const rowsText = report.dp ? `${formatNumber(report.output.rows)} released answers, one row per count, in the order of the queries` : `${formatNumber(report.output.rows)} released records; identifiers dropped, rows in random order`;
  return `<h2>Output files</h2><p>${rowsText}; text cells neutralized against spreadsheet formula injection.</p>
<table><thead><tr><th>File</th><th>Rows</th><th>Bytes</th><th>SHA-256</th></tr></thead><tbody>${files}</tbody></table>
<p class="meta">report.json lists the checksum of this HTML file as well.</p>`;
}
