import type { ImportedTable } from '../io/input/import-types.js';
import { renamedColumnsWarning } from '../io/input/table-builder.js';
import type { Report } from '../common/report/report-model.js';
import { maxOf } from '../common/extremes.js';
import { formatFixed } from '../common/format/numbers.js';
import { verdictWords } from '../common/report/guarantee-verdict.js';
import { reviewProblems } from '../common/review/release-review.js';
import { riskProfileBasis, riskProfileFacts } from '../common/report/risk-profile-facts.js';
import { formatCount } from '../common/format/numbers.js';

const VERDICT_WORDS = { passed: 'PASSED', failed: 'FAILED', accepted: 'FAILED, accepted by the custodian' } as const;

/** The disclosure review: its verdict, what the method assumes, the identity figures and every failed check with its fix. */
function reviewLines(review: NonNullable<Report['review']>): string[] {
  const lines = [`  disclosure review${review.basis === 'projected' ? ' (projected from the input)' : ''}: ${VERDICT_WORDS[review.verdict]}`, `    ${review.attacker}`];
  for (const t of review.identity) {
    lines.push(`    ${t.file}: ${formatCount(t.sampleUniques)} of ${formatCount(t.records)} records unique on ${t.quasiIdentifiers.join(', ')}; prosecutor risk highest ${t.prosecutorHighest.toFixed(4)}, average ${t.prosecutorAverage.toFixed(4)}` +
      (t.population?.populationUniqueShare !== undefined ? `; population uniques ≈ ${(100 * t.population.populationUniqueShare).toFixed(2)} % (${t.population.model})` : ''));
  }
  for (const problem of reviewProblems(review.checks)) lines.push(`    ${problem}`);
  return lines;
}

export function inspectJson(path: string, imported: ImportedTable): Record<string, unknown> {
  return {
    file: path,
    format: imported.format,
    // A byte-order mark is a fact of text files only.
    ...(imported.encoding ? { encoding: imported.encoding, ...(imported.format === 'csv' ? { bom: imported.bom ?? false } : {}) } : {}),
    ...(imported.delimiter !== undefined ? { delimiter: imported.delimiter } : {}),
    ...(imported.sheet ? { sheet: imported.sheet, sheets: imported.sheets } : {}),
    bytes: imported.bytes,
    sha256: imported.sha256,
    rows: imported.table.rowCount,
    rejectedRows: imported.rejectedRowCount,
    rejected: imported.rejectedRows,
    ...(imported.renamedColumns?.length ? { renamedColumns: imported.renamedColumns } : {}),
    columns: imported.table.columns.map((c) => ({ name: c.name, type: c.type, distinct: c.distinct, missing: c.missing })),
    // A statistical package's own description: labels, codes read as labels, declared missing values.
    // (Not the label sets: variables share them, and printed per variable they can run to millions of entries.)
    ...(imported.variables ? { variables: imported.variables.map(({ labelSet: _labelSet, ...v }) => v) } : {}),
  };
}

export function inspectText(path: string, imported: ImportedTable): string {
  const lines = [
    `${path}: ${formatCount(imported.table.rowCount)} rows, ${imported.table.columns.length} columns` +
      (imported.encoding ? `, ${imported.encoding}${imported.bom ? ' with BOM' : ''}` : '') +
      (imported.delimiter !== undefined ? `, delimiter ${JSON.stringify(imported.delimiter)}` : '') +
      (imported.sheet ? `, sheet "${imported.sheet}"` : ''),
  ];
  // Aligned up to 40 characters: a longer name is printed whole on its own line's start, not padded into every other line.
  const width = Math.min(40, Math.max(6, maxOf(imported.table.columns.map((c) => c.name.length))));
  const labels = new Map((imported.variables ?? []).map((v) => [v.name, v]));
  lines.push(`  ${'column'.padEnd(width)}  type      distinct   missing${labels.size > 0 ? '  label' : ''}`);
  for (const c of imported.table.columns) {
    const v = labels.get(c.name);
    const about = v ? [v.label, v.valueLabels.length > 0 ? `${v.valueLabels.length} ${v.valueLabels.length === 1 ? 'code' : 'codes'} read as labels` : '', v.declaredMissing > 0 ? `${v.declaredMissing} declared missing` : '', v.weight ? 'case weight' : ''].filter(Boolean).join('; ') : '';
    lines.push(`  ${c.name.padEnd(width)}  ${c.type.padEnd(8)}  ${String(c.distinct).padStart(8)}  ${String(c.missing).padStart(8)}${about ? `  ${about}` : ''}`);
  }
  if (imported.renamedColumns?.length) lines.push(`  warning: ${renamedColumnsWarning(imported.renamedColumns)}`);
  if (imported.rejectedRowCount > 0) {
    lines.push(`  ${imported.rejectedRowCount} rejected row(s): ${imported.rejectedRows.slice(0, 10).map((r) => `line ${r.line} (${r.reason})`).join('; ')}`);
  }
  lines.push(`  sha256 ${imported.sha256}`);
  return lines.join('\n');
}

export function reportText(report: Report, internalDir?: string): string {
  const lines: string[] = [];
  if (report.notice) lines.push(`!! ${report.notice}`);
  // A chain is named by its steps, in order (the report's method is its last step's).
  lines.push(`${report.chain ? report.chain.steps.map((s) => s.title).join(', then ') : report.method.title} — ${report.kind}`);
  if (report.input.rows !== undefined) lines.push(`  input: ${formatCount(report.input.rows)} records`);
  for (const s of report.risk.bySensitive ?? []) {
    lines.push(
      `  ${s.column} (m = ${s.domainSize}, p = ${s.retention}): leaking micro groups ${s.violatingBefore} before, ${s.violatingAfter} after;` +
        ` relative error ${formatFixed(s.relativeError.uniformPerturbation)} plain` +
        (s.relativeError.reconstructionPrivacy !== undefined ? `, ${formatFixed(s.relativeError.reconstructionPrivacy)} this release` : ''),
    );
  }
  if (report.beta) {
    const b = report.beta;
    lines.push(`  ${b.sensitive}: ${b.chosen.algorithm} buckets ${Object.entries(b.chosen.sizes).map(([s, n]) => `${n}×${s}`).join(', ')}; loss ${b.chosen.loss}, MSE ${b.chosen.mse.toFixed(3)}`);
    // The Anatomy baseline is internal (drawn from the true counts): absent from a published report.
    if (b.anatomy) {
      lines.push(`  anatomy (ℓ = ${b.anatomy.l}): ${b.anatomy.feasible ? `MSE ${b.anatomy.mse.toFixed(3)}` : 'infeasible'}; relative error ${formatFixed(report.utility.relativeError.release)} release` +
        (report.utility.relativeError.anatomy !== undefined ? `, ${formatFixed(report.utility.relativeError.anatomy)} anatomy` : ''));
    }
  }
  if (report.anonymity) {
    const a = report.anonymity;
    lines.push(`  ${report.risk.classes ?? 0} classes, smallest ${report.risk.minClassSize ?? 0}${a.k !== undefined ? `; k = ${a.k}, β = ${a.sampling}` : `; ${a.model}`}` +
      (report.guarantee.delta !== undefined ? `; (ε, δ) = (${report.guarantee.epsilon}, ${report.guarantee.delta.toExponential(3)})` : '') +
      (report.output?.suppressed !== undefined ? `; ${report.output.suppressed} suppressed` : ''));
    if (a.choice) lines.push(`  ${a.choice}`);
  }
  if (report.dp) {
    const dp = report.dp;
    lines.push(`  ${dp.queries} answers, Δ = ${dp.sensitivity}, b = ${dp.scale.toPrecision(4)}, ε per answer ${dp.epsilonPerAnswer.toPrecision(4)}` + (dp.epsilonEffective !== undefined ? `, ε_eff ${dp.epsilonEffective.toPrecision(4)}` : ''));
    for (const f of dp.filtering ?? []) lines.push(`  filtering attack on ${f.series}: noise removed ${(100 * f.removalIid).toFixed(1)}% (IID) vs ${(100 * f.removalRelease).toFixed(1)}% (release)`);
  }
  lines.push(`  guarantee: ${report.guarantee.name} — ${verdictWords(report.guarantee, true)}`);
  if (report.cannotRun) lines.push(`  CANNOT RUN: ${report.cannotRun.message}`);
  if (report.review) lines.push(...reviewLines(report.review));
  if (report.risk.profile) lines.push(`  risk profile of ${riskProfileBasis(report.risk.profile)}:`, ...riskProfileFacts(report.risk.profile).map(([k, v]) => `    ${k}: ${v}`));
  for (const w of report.warnings) lines.push(`  warning: ${w}`);
  if (report.output) {
    // Publishable means the review passed; a release whose failed checks the job accepts says so.
    const verdict = report.review?.verdict;
    const state =
      verdict === 'accepted' ? `the disclosure review failed; the custodian accepted ${report.review!.checks.filter((c) => c.acknowledged).map((c) => c.check).join(', ')}`
      : verdict === 'failed' ? 'NOT publishable: the disclosure review failed (written only because this is a seeded test run)'
      : 'publishable: the disclosure review passed';
    lines.push(`  wrote the release (${state}) to ${report.output.dir}:`);
    for (const f of report.output.files) lines.push(`    ${f.name}  ${f.sha256.slice(0, 16)}…`);
    lines.push('    manifest.json');
    if (internalDir) lines.push(`  wrote the internal report (CONFIDENTIAL, do not publish) to ${internalDir}`);
  }
  return lines.join('\n');
}
