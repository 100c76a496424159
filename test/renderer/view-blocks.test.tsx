// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { factsOf } from '../../src/common/report/key-figures.js';
import type { Report } from '../../src/common/report/report-model.js';
import { plainText, type Block } from '../../src/common/report/view-model.js';
import { definitionOf, type MechanismType } from '../../src/mechanisms/definitions.js';
import { keyFiguresOf, previewOf } from '../../src/mechanisms/report-views.js';
import { ViewBlocks } from '../../src/renderer/components/view-blocks.js';
import { ResultsStep } from '../../src/renderer/steps/results-step.js';

afterEach(cleanup);

const DIR = resolve('test/fixtures/reports');
const reports = readdirSync(DIR)
  .filter((n) => n.endsWith('.json') && n !== 'renderings.json')
  .map((name) => [name, JSON.parse(readFileSync(join(DIR, name), 'utf8')) as Report] as const);

describe("the wizard draws the mechanisms' views", () => {
  // The results step shows the run's internal report.
  it.each(reports.filter(([, r]) => r.variant === 'internal'))("%s: the results step's key figures are the rows the PDF and the workbook draw", (_name, report) => {
    const { container } = render(<ResultsStep report={report} />);
    const card = Array.from(container.querySelectorAll('section.card')).find((s) => s.querySelector('h3')?.textContent === 'Key figures')!;
    const drawn = Array.from(card.querySelectorAll('table.facts tr')).map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]);
    const expected = factsOf(keyFiguresOf(report));
    expect(expected.length).toBeGreaterThan(0);
    expect(drawn).toEqual(expected);
    const captions = Array.from(card.querySelectorAll('figure.chart figcaption')).map((c) => c.textContent);
    for (const block of keyFiguresOf(report)) if (block.kind === 'bars') expect(captions).toContain(block.title);
  });

  it.each(reports)('%s: every block of the HTML sections is drawn, its text whole', (_name, report) => {
    const blocks: Block[] = definitionOf(report.method.type as MechanismType).reportView(report).sections.flat();
    const { container } = render(<ViewBlocks blocks={blocks} />);
    const text = container.textContent ?? '';
    for (const block of blocks) {
      if (block.kind === 'heading' || block.kind === 'paragraph') expect(text).toContain(plainText(block.text));
      if (block.kind === 'facts') for (const row of block.rows) if (row) expect(text).toContain(plainText(row[1]));
      if (block.kind === 'table') for (const row of block.rows) for (const cell of row) expect(text).toContain(plainText(cell.text));
      if (block.kind === 'estimates') for (const row of block.rows) expect(text).toContain(row.label);
    }
  });
});

describe("the risk step draws the mechanism's preview", () => {
  it.each(reports.filter(([, r]) => r.variant === 'internal'))('%s', (_name, report) => {
    const preview = previewOf(report);
    const { container } = render(<ViewBlocks blocks={preview} />);
    const text = container.textContent ?? '';
    const walk = (blocks: readonly Block[]): void => {
      for (const block of blocks) {
        if (block.kind === 'card') {
          walk(block.blocks);
          continue;
        }
        if (block.kind === 'heading' || block.kind === 'paragraph' || block.kind === 'callout') expect(text).toContain(plainText(block.text));
        if (block.kind === 'bars') expect(container.querySelector(`svg[aria-label^="${block.title}"]`)).not.toBeNull();
      }
    };
    walk(preview);
    // Every method with a section of its own shows a preview (microaggregation shows the shared risk figures only).
    expect(preview.length > 0, report.method.type).toBe(report.method.type !== 'microaggregation');
  });
});
