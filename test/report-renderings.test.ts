/**
 * Every rendering of a report is a function of report.json, and a published one must stay the same
 * bytes (verify draws report.html and report.pdf again and compares them). The reports of seeded
 * runs of every method and of a chain (test/fixtures/reports/README.md) are drawn here and each
 * rendering's SHA-256 compared with the one recorded in renderings.json.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/common/report/report-model.js';
import { reportFacts } from '../src/common/report/report-facts.js';
import { reportHtml, reportPdf } from '../src/jobs/report-renderings.js';
import { keyFiguresOf } from '../src/mechanisms/report-views.js';
import { workbookReportSheets } from '../src/jobs/run-job.js';

const DIR = resolve('test/fixtures/reports');
const RECORDED = join(DIR, 'renderings.json');
const sha = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex');

function renderings(report: Report): Record<string, string> {
  return {
    html: sha(reportHtml(report)),
    pdf: sha(reportPdf(report)),
    workbook: sha(JSON.stringify(workbookReportSheets(report, report.output?.files ?? []))),
    facts: sha(JSON.stringify(reportFacts(report, keyFiguresOf(report)))),
  };
}

const names = readdirSync(DIR).filter((n) => n.endsWith('.json') && n !== 'renderings.json').sort();

describe('the renderings of seeded reports are the bytes recorded', () => {
  const drawn = Object.fromEntries(names.map((name) => [name, renderings(JSON.parse(readFileSync(join(DIR, name), 'utf8')) as Report)]));
  if (process.env['UPDATE_RENDERINGS'] === '1') writeFileSync(RECORDED, JSON.stringify(drawn, null, 2) + '\n');
  const recorded = JSON.parse(readFileSync(RECORDED, 'utf8')) as Record<string, Record<string, string>>;
  it('has a report of every method, published and internal', () => {
    expect(names.length).toBe(22);
    expect(Object.keys(recorded).sort()).toEqual(names);
  });
  for (const name of names) {
    it(name, () => {
      expect(drawn[name]).toEqual(recorded[name]);
    });
  }
});
