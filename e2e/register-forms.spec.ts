import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { chooseMethod } from './method-choice.js';
import { startHost } from './dev-host.js';
import { clippedText } from './clipped-text.js';
import { writeRegisterCsv, writeRegisterWorkbook } from '../test/fixtures/register-files.js';

/**
 * Issue 35's done-when: one register in the three forms agencies send it (a workbook whose first
 * sheet is a README and whose dates mix date cells with dd.mm.yyyy text, a Windows-1252 ";" CSV with
 * dd/mm/yyyy dates, an SPSS file written by PSPP with a real date variable and value labels) reaches
 * Results with global recoding on the date column, with β-privacy and with reconstruction privacy.
 */
const WORK = resolve('test-output/register-forms');
const SHOTS = 'test-output/e2e';

const FORMS = [
  { form: 'workbook', file: 'register.xlsx' },
  { form: 'CSV', file: 'register-1252.csv' },
  { form: 'SPSS', file: 'register.sav' },
] as const;

const METHODS = [
  { card: /Optimal global recoding/, type: 'global-recoding' },
  { card: /β-privacy/, type: 'beta-privacy' },
  { card: /^\(ε,δ\)-reconstruction privacy/, type: 'reconstruction-privacy' },
] as const;

test.use({ viewport: { width: 1280, height: 800 }, bypassCSP: true });

/** "Release anyway" with a reason when the preview offers it: these journeys are about the files, the review is tested elsewhere. */
async function acceptReview(page: Page): Promise<void> {
  await page.getByText(/^The disclosure review (fails|passes)/).first().waitFor({ timeout: 60_000 });
  const choice = page.getByRole('checkbox', { name: /Release anyway/ });
  if ((await choice.count()) === 0) return;
  await choice.check();
  await page.getByRole('textbox', { name: /Your reason/ }).fill('an end-to-end test of the file forms, not of the review');
}

test.describe('one register in three forms reaches Results with three methods (loopback dev host)', () => {
  let host: Awaited<ReturnType<typeof startHost>>;
  test.beforeAll(async () => {
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    mkdirSync(SHOTS, { recursive: true });
    writeRegisterWorkbook(join(WORK, 'register.xlsx'));
    writeRegisterCsv(join(WORK, 'register-1252.csv'));
    host = await startHost();
  });
  test.afterAll(() => host?.stop());

  for (const { form, file } of FORMS) {
    test(`the ${form}: birth is a date, and global recoding, β-privacy and reconstruction privacy each reach Results`, async ({ browser }) => {
      test.setTimeout(300_000);
      const errors: string[] = [];
      const path = file === 'register.sav' ? resolve('test/fixtures/spss/register.sav') : join(WORK, file);
      let page!: Page;
      for (const method of METHODS) {
        // A fresh browser context per method: the wizard would otherwise offer the last job's draft back.
        page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(host.url);
        await page.getByLabel('File path').fill(path);
        await page.getByRole('button', { name: 'Open', exact: true }).click();
        await page.getByRole('status').filter({ hasText: '5 columns' }).waitFor();
        await page.getByRole('button', { name: /Next: Columns/ }).click();
        // The date column is a date in every form (date cells, typed text, an SPSS date variable).
        await expect(page.getByRole('row', { name: /^birth/ }).getByRole('cell').first()).toHaveText(/^date/);
        await page.getByLabel('Role of diagnosis').selectOption('sensitive');
        await page.getByRole('button', { name: /Next: Method/ }).click();
        await chooseMethod(page, method.card);
        await page.getByRole('button', { name: /Next: Parameters/ }).click();
        if (method.type === 'global-recoding') await page.getByLabel('Hierarchy of birth').selectOption('date');
        if (method.type === 'beta-privacy') await page.getByRole('button', { name: /Use the file's \d+ values/ }).click();
        await page.getByRole('button', { name: /Next: Risk preview/ }).click();
        await page.getByRole('heading', { name: '5. Risk preview' }).waitFor();
        await acceptReview(page);
        await expect(page.getByText('This setting cannot run.')).toHaveCount(0);
        await page.getByRole('button', { name: /Next: Run/ }).click();
        const out = join(WORK, `${file.replace(/\W/g, '-')}-${method.type}`);
        await page.getByLabel('Release folder (to publish)').fill(out);
        await page.getByRole('button', { name: 'Run', exact: true }).click();
        await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 90_000 });
        expect(await clippedText(page), `clipped text on Results (${form}, ${method.type})`).toEqual([]);
        const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { method: { type: string }; guarantee: { holds?: boolean } };
        expect(report.method.type).toBe(method.type);
        expect(report.guarantee.holds).toBe(true);
        if (method.type === 'global-recoding') {
          // No full date of birth leaves: the column is released at a level above the day, or not at all.
          const lines = readFileSync(join(out, 'release.csv'), 'utf8').trim().split('\r\n');
          const birth = lines[0]!.split(',').indexOf('birth');
          expect(lines.slice(1).filter((line) => /^\d{4}-\d{2}-\d{2}$/.test(line.split(',')[birth] ?? ''))).toEqual([]);
        }
      }
      await page.screenshot({ path: join(SHOTS, `register-${form.toLowerCase()}-results.png`) });
      expect(errors).toEqual([]);
    });
  }
});
