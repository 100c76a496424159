import type { Report } from '../common/report/report-model.js';
import { viewHtml } from '../common/report/view-model.js';
import { renderReportHtml } from '../io/report/report-html.js';
import { definitionOf, type MechanismType } from '../mechanisms/definitions.js';
import { nodeMechanismOf } from '../mechanisms/node-registry.js';

/** The mechanism's sections of report.html, drawn from its view of the report. */
function mechanismHtml(report: Report): string {
  const type = report.method.type as MechanismType;
  const view = definitionOf(type).reportView;
  return view ? viewHtml(view(report).sections) : (nodeMechanismOf(type).reportSections?.(report) ?? '');
}

/**
 * report.html of a report: the shared parts and the mechanism's own sections, then `extraHtml` (a
 * run's comparison). The run writes it and verify writes it again from report.json with this one function.
 */
export function reportHtml(report: Report, extraHtml = ''): string {
  return renderReportHtml(report, (r) => mechanismHtml(r) + extraHtml);
}
