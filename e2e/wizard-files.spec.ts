import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { chooseMethod } from './method-choice.js';
import { startHost } from './dev-host.js';
import { shots } from './journey.js';
import { registerRows, writeRegisterCsv, writeRegisterWorkbook } from '../test/fixtures/register-files.js';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = 'test-output/e2e';
/** The register in the forms agencies send it, written by the tests' own script. */
const FILES = resolve('test-output/wizard-files');

async function axeScan(page: Page, step: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), `axe on ${step}`).toEqual([]);
}

test.use({ viewport: { width: 1280, height: 800 }, bypassCSP: true, acceptDownloads: true });

test.describe('the wizard with the files agencies have', () => {
  let host: Awaited<ReturnType<typeof startHost>>;
  test.beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    rmSync(FILES, { recursive: true, force: true });
    mkdirSync(FILES, { recursive: true });
    writeRegisterWorkbook(join(FILES, 'register.xlsx'));
    writeRegisterCsv(join(FILES, 'register-1252.csv'));
    // Days no later than the 12th, written month first: the order cannot be told from the values.
    const early = registerRows().map((r) => ({ ...r, birth: { ...r.birth, day: 1 + (r.birth.day % 12) } }));
    writeRegisterCsv(join(FILES, 'register-us.csv'), early, { monthFirst: true });
    host = await startHost();
  });
  test.afterAll(() => host?.stop());

  async function openFile(page: Page, path: string): Promise<string[]> {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(host.url);
    await page.getByLabel('File path').fill(path);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '5 columns' }).waitFor();
    return errors;
  }

  test('a workbook of date cells mixed with dd.mm.yyyy text: the Columns step shows one date column and its format; the date hierarchy previews', async ({ page }) => {
    const errors = await openFile(page, join(FILES, 'register.xlsx'));
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    const birth = page.getByRole('row', { name: /^birth/ });
    await expect(birth.getByRole('cell').first()).toHaveText(/^date/);
    await expect(page.getByLabel('Date format of birth')).toHaveValue('dd.mm.yyyy');
    await expect(page.getByLabel('Date format of birth').locator('option:checked')).toHaveText('dates written dd.mm.yyyy (found in the values)');
    // A full date of birth is suggested as a quasi-identifier whatever the file's format (the CSV's below too).
    await expect(page.getByLabel('Role of birth')).toHaveValue('quasi');
    await page.getByLabel('Role of diagnosis').selectOption('sensitive');
    await shots(page, 'files-columns-dates');
    await axeScan(page, 'columns with dates');
    await page.getByRole('button', { name: /Next: Method/ }).click();
    await chooseMethod(page, /Optimal global recoding/);
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    await page.getByLabel('Hierarchy of birth').selectOption('date');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText(/In the input:.*% of the records are unique/).waitFor({ timeout: 30_000 });
    await expect(page.getByText('This setting cannot run.')).toHaveCount(0);
    // A folder of its own per run, named after the file and the method; a release is replaced only when asked.
    const release = join(FILES, 'register-global-recoding-release');
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await expect(page.getByLabel('Release folder (to publish)')).toHaveValue(release);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 60_000 });
    const first = readFileSync(join(release, 'manifest.json'), 'utf8');
    const years = readFileSync(join(release, 'release.csv'), 'utf8').trim().split('\r\n').slice(1);
    expect(years.length).toBeGreaterThan(0);
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Run/ }).click();
    await expect(page.getByLabel('Release folder (to publish)')).toHaveValue(`${release}-2`);
    await page.getByLabel('Release folder (to publish)').fill(release);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByText(`“${release}” already holds a release, from an earlier run.`).waitFor();
    await shots(page, 'files-replace-release');
    expect(readFileSync(join(release, 'manifest.json'), 'utf8')).toBe(first);
    await page.getByRole('button', { name: 'Replace the earlier release' }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 60_000 });
    expect(readFileSync(join(release, 'manifest.json'), 'utf8')).not.toBe(first);
    expect(errors).toEqual([]);
  });

  test('a Windows-1252 ";" CSV whose dates read day first and month first: the wizard asks, and the answer reads them as dates', async ({ page }) => {
    await openFile(page, join(FILES, 'register-us.csv'));
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    await page.getByText('Say how the dates of “birth” are written.').waitFor();
    await expect(page.getByLabel('Role of birth')).toHaveValue('quasi');
    await shots(page, 'files-columns-ambiguous-dates');
    await page.getByLabel('Date format of birth').selectOption('mm/dd/yyyy');
    await expect(page.getByText('Say how the dates of “birth” are written.')).toHaveCount(0);
    await expect(page.getByRole('row', { name: /^birth/ }).getByRole('cell').first()).toHaveText(/^date/);
    await expect(page.getByLabel('Role of birth')).toHaveValue('quasi');
  });

  test('opening another file drops the settings it has no place for, says which, and the run is not blocked by them', async ({ page }) => {
    await openFile(page, join(FILES, 'register.xlsx'));
    // The data sheet, chosen by name: a setting of this workbook only.
    await page.getByLabel('Sheet').selectOption('data');
    await page.getByText(/sheet “data”\./).waitFor();
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    await page.getByLabel('Role of diagnosis').selectOption('sensitive');
    await page.getByRole('button', { name: /Next: Method/ }).click();
    await chooseMethod(page, /Optimal global recoding/);
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    await page.getByLabel('Hierarchy of birth').selectOption('date');
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Open/ }).click();
    await page.getByLabel('File path').fill(resolve('resources/adult/adult.csv'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.getByText('Settings of “register.xlsx” that this file has no place for were dropped:').waitFor();
    await expect(page.getByText(/the hierarchy of “birth”; the sheet “data”\. Everything else is kept\./)).toBeVisible();
    await shots(page, 'files-switched');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save job' }).click();
    const job = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
    expect(job.input.sheet).toBeUndefined();
    expect(job.method.hierarchies ?? {}).not.toHaveProperty('birth');
  });
});
