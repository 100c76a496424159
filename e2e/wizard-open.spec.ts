// The Open and Columns steps on files of every kind: odd column names, a malformed row, recent files, a workbook with a notes sheet, an SPSS file.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { axeScan, screenshot, runToResults, JOURNEY_OPTIONS, useHost } from './journey.js';

const require = createRequire(import.meta.url);

test.use(JOURNEY_OPTIONS);

test.describe('the wizard in the browser (loopback dev host): opening files', () => {
  const journey = useHost();

  test('column names of any length and any text: the Columns table fits the window, every role within reach', async ({ page: fixturePage }) => {
    const folder = resolve('test-output/odd-names');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    // A label exported as a name: no space to break at.
    const long = `Household income before taxes as reported in the 2025 wave ${'and its follow-up questions '.repeat(9)}`.trim().replace(/ /g, '_');
    const path = join(folder, 'odd.csv');
    writeFileSync(path, [`"${long}",__proto__,constructor,diagnosis 🩺`, ...Array.from({ length: 60 }, (_, i) => `${1000 + (i % 7)},${i % 3},x${i % 2},${['flu', 'cold'][i % 2]}`)].join('\n') + '\n');
    const s = await journey.open(fixturePage);
    const { page } = s;
    await page.getByLabel('File path').fill(path);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '4 columns' }).waitFor();
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    const width = page.viewportSize()!.width;
    for (const name of [long, '__proto__', 'constructor', 'diagnosis 🩺']) {
      const box = await page.getByLabel(`Role of ${name}`).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x + box!.width, `the role of ${name.slice(0, 20)}… lies within the window`).toBeLessThanOrEqual(width);
    }
    await page.getByLabel('Role of diagnosis 🩺').selectOption('sensitive');
    await screenshot(page, 'columns-odd-names');
    expect(s.errors).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });

  test('a file with a malformed row: the row is skipped and reported, the journey reaches Results; a failed open clears the file', async ({ page: fixturePage }) => {
    const folder = resolve('test-output/messy');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const lines = ['age,sex,diagnosis'];
    for (let i = 0; i < 300; i++) lines.push(`${20 + (i % 40)},${i % 2 ? 'F' : 'M'},${['flu', 'cold', 'HIV', 'asthma'][i % 4]}`);
    // Line 6 of the file has a field too many.
    lines.splice(5, 0, '31,F,flu,extra');
    const path = join(folder, 'messy.csv');
    writeFileSync(path, lines.join('\n') + '\n');
    const s = await journey.open(fixturePage);
    const { page } = s;
    await page.getByLabel('File path').fill(path);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText(/1 row cannot be read: it is skipped, not released/).waitFor();
    await page.getByText(/Line 6/).waitFor();
    // Choosing to stop blocks the risk preview and the run until the choice is undone.
    await page.getByLabel('Rows that cannot be read').selectOption('error');
    await page.getByText(/the run will refuse the file/).waitFor();
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    await page.getByLabel('Role of diagnosis').selectOption('sensitive');
    await page.getByRole('button', { name: /Next: Method/ }).click();
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    expect(await page.getByRole('button', { name: /Next: Risk preview/ }).isDisabled()).toBe(true);
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Open/ }).click();
    await page.getByLabel('Rows that cannot be read').selectOption('skip');
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Parameters/ }).click();
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await runToResults(page);
    await page.getByText(/reconstruction privacy: holds/).waitFor();
    const internal = JSON.parse(readFileSync(join(folder, 'messy-reconstruction-privacy-release-internal', 'internal-report.json'), 'utf8'));
    expect(internal.input.rejectedRowLines).toEqual([6]);
    expect(readFileSync(join(folder, 'messy-reconstruction-privacy-release-internal', 'internal-report.html'), 'utf8')).toMatch(/Rejected lines<\/th><td>6 \(skipped/);
    const job = JSON.parse(readFileSync(join(folder, 'messy-reconstruction-privacy-release', 'job.json'), 'utf8'));
    expect(job.input.onBadRow).toBe('skip');
    // A delimiter forced to the wrong one reads every line as one value: a warning, not a success.
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Open/ }).click();
    writeFileSync(join(folder, 'semicolons.csv'), 'age;sex;diagnosis\n30;F;flu\n40;M;cold\n');
    await page.getByLabel('Delimiter').selectOption(',');
    await page.getByLabel('File path').fill(join(folder, 'semicolons.csv'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText('Only one column was found.').waitFor();
    await page.getByLabel('Delimiter').selectOption('');
    await page.getByRole('status').filter({ hasText: '3 columns' }).waitFor();
    expect(await page.getByText('Only one column was found.').count()).toBe(0);
    // A file that cannot be opened replaces the earlier one everywhere: top bar, and the steps after Open.
    await page.getByLabel('File path').fill(join(folder, 'missing.csv'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText(/This file cannot be read/).waitFor();
    await page.locator('.file-name', { hasText: 'No file open' }).waitFor();
    expect(await page.getByRole('button', { name: /Next: Columns/ }).isDisabled()).toBe(true);
    expect(s.errors).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });

  test('recent files: a file opened before is one click away after a reload', async ({ page: fixturePage }) => {
    const s = await journey.open(fixturePage);
    const { page } = s;
    await page.getByRole('button', { name: /Use the sample data/ }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.reload();
    const restore = page.getByRole('button', { name: 'Start afresh' });
    if (await restore.count()) await restore.click();
    const recent = page.getByRole('navigation', { name: 'Recent files' });
    await recent.getByRole('button', { name: 'adult.csv' }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.locator('.file-name', { hasText: 'adult.csv' }).waitFor();
    await axeScan(page, 'recent');
    expect(s.errors).toEqual([]);
  });

  test('recent files after some use: three chips and More…, same-named files told apart, deleted files gone, the outcome of Open in view at 1024x640', async ({ page: fixturePage }) => {
    const folder = resolve('test-output/recent-many');
    rmSync(folder, { recursive: true, force: true });
    const paths = ['2024/release.csv', '2025/release.csv', 'a.csv', 'b.csv', 'c.csv', 'gone.csv'].map((p) => join(folder, p));
    // Each file a different number of records, so each open is seen to finish: the two release.csv
    // have one name, and waiting on the name alone let the next open start while one was still running.
    const records = (f: number): number => 40 + f;
    paths.forEach((path, f) => {
      mkdirSync(resolve(path, '..'), { recursive: true });
      writeFileSync(path, 'age,sex,diagnosis\n' + Array.from({ length: records(f) }, (_, i) => `${20 + i},${i % 2 ? 'F' : 'M'},${['flu', 'cold'][i % 2]}`).join('\n') + '\n');
    });
    const s = await journey.open(fixturePage);
    const { page } = s;
    await page.setViewportSize({ width: 1024, height: 640 });
    for (const [f, path] of paths.entries()) {
      await page.getByLabel('File path').fill(path);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await page.getByRole('status').filter({ hasText: `${path.split('/').pop()!}: ${records(f)} records` }).waitFor();
    }
    rmSync(paths[5]!);
    await page.reload();
    const restore = page.getByRole('button', { name: 'Start afresh' });
    if (await restore.count()) await restore.click();
    const recent = page.getByRole('navigation', { name: 'Recent files' });
    // The newest three; the deleted file is not offered; the two release.csv say their folders.
    await expect(recent.getByRole('button')).toHaveText(['c.csv', 'b.csv', 'a.csv', /^More… \(\d+\)$/]);
    await recent.getByRole('button', { name: /More…/ }).click();
    await recent.getByRole('button', { name: '2025/release.csv' }).waitFor();
    await recent.getByRole('button', { name: '2024/release.csv' }).waitFor();
    expect(await recent.getByRole('button', { name: 'gone.csv' }).count()).toBe(0);
    await recent.getByRole('button', { name: 'Fewer' }).click();
    await expect(page.getByLabel('File path')).toBeInViewport();
    await screenshot(page, 'open-recent-1024');
    // Open: the summary of what was read is scrolled into view, not left below the fold.
    await page.getByLabel('File path').fill(paths[0]!);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const summary = page.getByRole('status').filter({ hasText: '3 columns' });
    await summary.waitFor();
    await expect(summary).toBeInViewport();
    await screenshot(page, 'open-recent-opened-1024');
    // A failure too.
    await page.getByLabel('File path').fill(paths[5]!);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'This file cannot be read.' });
    await expect(failed).toContainText('gone.csv: the file does not exist (or a link points nowhere). Check the path');
    await expect(failed).toBeInViewport();
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'open-recent-failed-1280');
    await axeScan(page, 'open-recent');
    expect(s.errors).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });

  test('a workbook whose first sheet is notes opens on its data sheet; the notes sheet chosen fails naming it, with the Sheet selector to go back', async ({ page: fixturePage }) => {
    const folder = resolve('test-output/workbook');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const XLSX = require('xlsx') as typeof import('xlsx');
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Confidential survey 2025 — do not distribute'], ['Generated', '2025-01-05']]), 'Notes');
    const rows: (string | number)[][] = [['id', 'sex', 'age', 'region', 'disease']];
    for (let i = 0; i < 120; i++) rows.push([i + 1, i % 2 ? 'F' : 'M', 20 + (i % 60), ['North', 'South', 'East', 'West'][i % 4]!, ['flu', 'asthma', 'none', 'cancer'][(i * 7) % 4]!]);
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Data 2025');
    const path = join(folder, 'survey.xlsx');
    writeFileSync(path, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const s = await journey.open(fixturePage);
    const { page } = s;
    await page.setViewportSize({ width: 1024, height: 640 });
    await page.getByLabel('File path').fill(path);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    // The sheet that holds the table opens, not the notes before it.
    const opened = page.getByRole('status').filter({ hasText: '5 columns' });
    await opened.waitFor();
    await expect(opened).toContainText('sheet “Data 2025”');
    const sheet = page.getByLabel('Sheet');
    await expect(sheet).toHaveValue('Data 2025');
    await sheet.selectOption('Notes');
    const error = page.locator('.callout', { hasText: 'This file cannot be read.' });
    await error.waitFor();
    // The sheet is named once, with the line; the advice is about sheets, never the delimiter.
    await expect(error).toContainText('survey.xlsx, sheet “Notes”, line 2: every one of the sheet');
    await expect(error).toContainText('The table may be on another sheet: choose it under “Sheet”.');
    await expect(error).not.toContainText(/delimiter|encoding|\(line/i);
    expect(await page.getByLabel('Delimiter').count()).toBe(0);
    expect(await page.getByLabel('Encoding').count()).toBe(0);
    await page.getByText(/Excel workbooks carry their own encoding/).waitFor();
    await expect(sheet).toHaveValue('Notes');
    await expect(sheet.locator('option')).toHaveText(['Notes', 'Data 2025']);
    // At 1024x640 the failure is scrolled into view with the Sheet selector that fixes it above it.
    await expect(error).toBeInViewport({ ratio: 1 });
    await expect(sheet).toBeInViewport();
    await screenshot(page, 'workbook-notes-failed-1024');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'workbook-notes-failed');
    await sheet.selectOption('Data 2025');
    const summary = page.getByRole('status').filter({ hasText: '5 columns' });
    await summary.waitFor();
    await expect(summary).toContainText('sheet “Data 2025”');
    expect(await page.locator('.callout', { hasText: 'This file cannot be read.' }).count()).toBe(0);
    await page.getByRole('cell', { name: 'North' }).first().waitFor();
    await expect(summary).toBeInViewport();
    await screenshot(page, 'workbook-data-sheet');
    await page.setViewportSize({ width: 1024, height: 640 });
    await screenshot(page, 'workbook-data-sheet-1024');
    await axeScan(page, 'workbook');
    expect(s.errors).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });

  test('an SPSS file opens with its value labels as values and its variable labels beside the column names', async ({ page: fixturePage }) => {
    const s = await journey.open(fixturePage);
    const { page } = s;
    await page.getByLabel('File path').fill(resolve('test/fixtures/spss/people.zsav'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '7 columns' }).waitFor();
    await page.getByRole('cell', { name: 'Adm-clerical' }).first().waitFor();
    // Encoding and delimiter mean nothing for an SPSS file: they are not offered.
    await page.getByText(/SPSS files carry their own encoding/).waitFor();
    expect(await page.getByLabel('Delimiter').count()).toBe(0);
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    await page.getByRole('rowheader', { name: /occupation\s*Occupation \(ISCO major group\)/ }).waitFor();
    await screenshot(page, 'spss-columns');
    await axeScan(page, 'spss-columns');
    expect(s.errors).toEqual([]);
  });
});
