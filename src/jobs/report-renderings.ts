import type { Report } from '../common/report/report-model.js';
import { renderReportHtml } from '../io/report/report-html.js';
import type { MechanismType } from '../mechanisms/definitions.js';
import { nodeMechanismOf } from '../mechanisms/node-registry.js';

/**
 * report.html of a report: the shared parts and the mechanism's own sections, then `extraHtml` (a
 * run's comparison). The run writes it and verify writes it again from report.json with this one function.
 */
export function reportHtml(report: Report, extraHtml = ''): string {
  const mechanism = nodeMechanismOf(report.method.type as MechanismType);
  return renderReportHtml(report, (r) => mechanism.reportSections(r) + extraHtml);
}
