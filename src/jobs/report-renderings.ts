import type { Report } from '../common/report/report-model.js';
import { viewHtml } from '../common/report/view-model.js';
import { renderReportHtml } from '../io/report/report-html.js';
import { definitionOf, type MechanismType } from '../mechanisms/definitions.js';

/**
 * report.html of a report: the shared parts and the mechanism's own sections (its view of the
 * report, src/common/report/view-model.ts), then `extraHtml` (a run's comparison). The run writes
 * it and verify writes it again from report.json with this one function.
 */
export function reportHtml(report: Report, extraHtml = ''): string {
  const view = definitionOf(report.method.type as MechanismType).reportView;
  return renderReportHtml(report, (r) => viewHtml(view(r).sections) + extraHtml);
}
