import type { Report } from '../common/report/report-model.js';
import { viewHtml } from '../common/report/view-model.js';
import { renderReportHtml } from '../io/report/report-html.js';
import { renderReportPdf, type ExtraPdfSection } from '../io/report/report-pdf.js';
import { keyFiguresOf } from '../mechanisms/report-views.js';
import { definitionOf, type MechanismType } from '../mechanisms/definitions.js';

/**
 * report.html of a report: the shared parts and the mechanism's own sections (its view of the
 * report, src/common/report/view-model.ts), then `extraHtml` (a run's comparison); the views'
 * `mathematics` go into the appendix "The mathematics", after the guarantee's formula. The run writes
 * it and verify writes it again from report.json with this one function.
 */
export function reportHtml(report: Report, extraHtml = ''): string {
  const views = stepReports(report).map((s) => definitionOf(s.method.type as MechanismType).reportView(s));
  // The appendix has no layout to keep: a line a report does not have is left out.
  const mathematics = views.map((v) => (v.mathematics ?? []).filter((line) => line.length > 0)).filter((m) => m.length > 0);
  return renderReportHtml(
    report,
    () => views.map((v) => viewHtml(v.sections)).join('\n') + extraHtml,
    mathematics.map(viewHtml).join('\n'),
  );
}

/**
 * The report as each step's mechanism reads it: a chain's report holds both steps' sections (the
 * identity step's classes, the attribute step's buckets) and names the last step as its method, so
 * the identity step's view is given its own method (type, title, parameters, figures, levels).
 */
function stepReports(report: Report): Report[] {
  if (!report.chain) return [report];
  const identity = report.chain.steps[0]!;
  const { internal: _internal, frontier: _frontier, solutions: _solutions, levels: _levels, ...shared } = report.method;
  const first: Report = { ...report, method: { ...shared, type: identity.type, title: identity.title, parameters: identity.parameters, derived: identity.derived, ...(identity.levels ? { levels: identity.levels } : {}) } };
  return [first, report];
}

/**
 * report.pdf of a report: the shared parts and the key figures of its mechanisms' views, then
 * `extra` (a run's comparison). The run writes it and verify writes it again with this one function.
 */
export function reportPdf(report: Report, extra: readonly ExtraPdfSection[] = []): Buffer {
  return renderReportPdf(report, keyFiguresOf(report), extra);
}
