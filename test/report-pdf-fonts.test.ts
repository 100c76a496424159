/**
 * PDFKit caches a face under the key it was first opened with: a face first opened under another key
 * is read from disk, parsed and compared again at every font() call by its registered name (before
 * this was found, a third of the PDF's drawing time). The report opens each face once.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Report } from '../src/common/report/report-model.js';
import { reportPdf } from '../src/jobs/report-renderings.js';

const fs = createRequire(import.meta.url)('fs') as typeof import('node:fs');

afterEach(() => vi.restoreAllMocks());

describe('the PDF report opens each font face once', () => {
  it('reads each of its three faces at most once, however many times the drawing changes face', () => {
    const report = JSON.parse(readFileSync(resolve('test/fixtures/reports/global-internal.json'), 'utf8')) as Report;
    const read = vi.spyOn(fs, 'readFileSync');
    const pdf = reportPdf(report);
    const faces = read.mock.calls.map(([path]) => String(path)).filter((path) => path.endsWith('.ttf'));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(faces.length).toBeGreaterThan(0);
    expect(faces.length).toBeLessThanOrEqual(3);
    expect(new Set(faces).size).toBe(faces.length);
  });
});
