/**
 * A report's key figures from its mechanisms' views: the one place that finds a report's views,
 * for the PDF and the workbook (src/jobs/report-renderings.ts) and the wizard's results.
 */
import { keyFigureBlocks } from '../common/report/key-figures.js';
import type { Report } from '../common/report/report-model.js';
import type { Block } from '../common/report/view-model.js';
import { definitionOf, type MechanismType } from './definitions.js';

/**
 * The key figures of a report as blocks. A chain's report holds both steps' sections: each step's
 * mechanism reads the whole report for its figures, the last step's (the report's method) first.
 */
export function keyFiguresOf(report: Report): Block[] {
  const types = report.chain ? report.chain.steps.map((s) => s.type).reverse() : [report.method.type];
  const views = types.map((type) => definitionOf(type as MechanismType).reportView(report));
  return keyFigureBlocks(report, views, definitionOf(report.method.type as MechanismType).metadata.reportFigures);
}

/**
 * What the wizard's risk step shows of an assessment: its mechanism's preview. A chain's is its
 * first step's that has one (the identity step's classes; the attribute step's where the identity
 * step shows none), each reading the whole report.
 */
export function previewOf(report: Report): readonly Block[] {
  const types = report.chain ? report.chain.steps.map((s) => s.type) : [report.method.type];
  for (const type of types) {
    const preview = definitionOf(type as MechanismType).reportView(report).preview;
    if (preview.length > 0) return preview;
  }
  return [];
}
