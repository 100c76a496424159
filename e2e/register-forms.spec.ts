import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { chooseMethod } from './method-choice.js';
import { startHost } from './dev-host.js';
import { clippedText } from './clipped-text.js';
import { shots } from './journey.js';

/**
 * Issue 35's done-when: one made-up register (e2e/fixtures/register, written by its
 * make-register.py) in the three forms agencies send it reaches Results with global recoding on
 * the date column, with β-privacy and with reconstruction privacy:
 * - a workbook whose first sheet is a README and whose data sheet mixes date cells with dd.mm.yyyy text;
 * - a Windows-1252 ";" CSV with dd/mm/yyyy dates and accented names;
 * - an SPSS file PSPP wrote, with an EDATE10 date, value labels (sex 1 F / 2 M) and variable labels.
 * The fixtures are copied into test-output (an input is never written; the releases go beside it).
 */
const FIXTURES = resolve('e2e/fixtures/register');
const WORK = resolve('test-output/register-forms');
const SHOTS = 'test-output/e2e';

const FORMS = [
  { form: 'workbook', file: 'register.xlsx', format: 'dd.mm.yyyy' },
  { form: 'csv', file: 'register-1252.csv', format: 'dd/mm/yyyy' },
  { form: 'spss', file: 'register.sav', format: undefined },
] as const;
type Form = (typeof FORMS)[number];

/** Municipality → region, as the custodian pastes it into the builder. */
const REGIONS: Readonly<Record<string, string>> = {
  Zürich: 'Nordost',
  Winterthur: 'Nordost',
  Uster: 'Nordost',
  Genève: 'Lémanique',
  Lausanne: 'Lémanique',
  Montreux: 'Lémanique',
  Bern: 'Mittelland',
  'Biel/Bienne': 'Mittelland',
  Neuchâtel: 'Mittelland',
  Lugano: 'Ticino',
  Bellinzona: 'Ticino',
};

test.use({ viewport: { width: 1280, height: 800 }, bypassCSP: true });

/** "Release anyway" with a reason when the review asks: these journeys are about the files, the review is tested elsewhere. */
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
    for (const { file } of FORMS) copyFileSync(join(FIXTURES, file), join(WORK, file));
    host = await startHost();
  });
  test.afterAll(() => host?.stop());

  /** A fresh browser context (no draft offered back), the form opened and its columns given their roles. */
  async function openForm(browser: Browser, form: Form, errors: string[], shotName?: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(host.url);
    await page.getByLabel('File path').fill(join(WORK, form.file));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '8 columns' }).waitFor();
    // The workbook opens at its data sheet, not at the README before it.
    if (form.form === 'workbook') await expect(page.getByLabel('Sheet')).toHaveValue('persons');
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    // The birth date is a date in every form: date cells mixed with text, typed text, an SPSS date variable.
    await expect(page.getByRole('row', { name: /^birth_date/ }).getByRole('cell').first()).toHaveText(/^date/);
    if (form.format) await expect(page.getByLabel('Date format of birth_date')).toHaveValue(form.format);
    await expect(page.getByLabel('Role of birth_date')).toHaveValue('quasi');
    await expect(page.getByLabel('Role of name')).toHaveValue('identifier');
    // The income band is confidential: suggested as such, applied by the custodian.
    await page.getByLabel('Role of income_class').selectOption('sensitive');
    // A clerk's free-text note is never released; the region follows from the municipality's hierarchy.
    await page.getByLabel('Role of note').selectOption('identifier');
    await page.getByLabel('Role of region').selectOption('identifier');
    if (shotName) await shots(page, shotName);
    await page.getByRole('button', { name: /Next: Method/ }).click();
    return page;
  }

  /** Run with the proposed release folder, then Results; returns the folder. */
  async function runToResults(page: Page, form: Form, method: string, shotName?: string): Promise<string> {
    await expect(page.getByText('This setting cannot run.')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Next: Run/ })).toBeEnabled({ timeout: 60_000 });
    await page.getByRole('button', { name: /Next: Run/ }).click();
    const out = (await page.getByLabel('Release folder (to publish)').inputValue()).trim();
    expect(out.startsWith(WORK)).toBe(true);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 90_000 });
    if (shotName) await shots(page, shotName);
    else expect(await clippedText(page), `clipped text on Results (${form.form}, ${method})`).toEqual([]);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { method: { type: string }; guarantee: { holds?: boolean } };
    expect(report.method.type).toBe(method);
    expect(report.guarantee.holds).toBe(true);
    return out;
  }

  /** The released CSV's rows (header first); the release writes CSV with CRLF. */
  function releaseRows(out: string): string[][] {
    return readFileSync(join(out, 'release.csv'), 'utf8').trim().split(/\r\n/).map((line) => line.split(','));
  }

  /** In the builder: a group named `name` of the values `members` at the level shown. */
  async function assignGroup(page: Page, name: string, members: readonly string[]): Promise<void> {
    const builder = page.getByRole('region', { name: 'Build a hierarchy' });
    await builder.getByLabel('Group name').fill(name);
    await builder.getByLabel('Values of “municipality”').selectOption([...members]);
    await builder.getByRole('button', { name: 'Assign to the group' }).click();
    await expect(builder.getByRole('listitem').filter({ hasText: `${name}:` })).toBeVisible();
  }

  /**
   * A reload in the middle of the work: the draft comes back at the Parameters step and the builder
   * reads the saved file's groups back, to be edited (Ticino renamed by removing and regrouping) and
   * saved in place.
   */
  async function reloadAndRegroup(page: Page, saved: string): Promise<Page> {
    // The draft is written 300 ms after the last change: reload once it names the saved file.
    await expect.poll(() => page.evaluate(() => JSON.stringify(window.localStorage))).toContain('municipality-hierarchy.csv');
    await page.reload();
    await page.getByRole('button', { name: 'Restore it' }).click();
    await page.getByRole('heading', { name: '4. Parameters' }).waitFor();
    await expect(page.getByLabel('Hierarchy file of municipality')).toHaveValue(saved);
    const builder = page.getByRole('region', { name: 'Build a hierarchy' });
    await builder.getByLabel('Column').selectOption('municipality');
    await builder.getByText(`The groups of ${saved}, which the table uses for “municipality”`).waitFor();
    await builder.scrollIntoViewIfNeeded();
    await expect(builder.getByRole('listitem').filter({ hasText: 'Ticino:' })).toContainText('Lugano');
    await shots(page, 'register-csv-builder-reloaded');
    await builder.getByRole('button', { name: 'Remove the group Ticino' }).click();
    await assignGroup(page, 'Svizzera italiana', ['Lugano', 'Bellinzona']);
    await expect(builder.getByLabel('Hierarchy file (ARX CSV, written beside the data)')).toHaveValue(saved);
    await builder.getByRole('button', { name: /Save the file and use it for “municipality”/ }).click();
    await builder.getByText(`Saved ${saved}`).waitFor();
    const rows = readFileSync(saved, 'utf8').trim().split(/\r?\n/);
    expect(rows).toContain('Lugano;Svizzera italiana;*');
    expect(rows).toContain('Genève;Lémanique;*');
    expect(rows).toHaveLength(Object.keys(REGIONS).length);
    return page;
  }

  async function globalRecoding(browser: Browser, form: Form, errors: string[]): Promise<void> {
    let page = await openForm(browser, form, errors, `register-${form.form}-columns`);
    await chooseMethod(page, /Optimal global recoding/);
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    const builder = page.getByRole('region', { name: 'Build a hierarchy' });
    // Municipality → region → *, saved beside the data: pasted as a mapping, or (the CSV) named group by group.
    await builder.getByLabel('Column').selectOption('municipality');
    await expect(builder.getByLabel('Kind of hierarchy')).toHaveValue('groups');
    if (form.form === 'csv') {
      for (const region of new Set(Object.values(REGIONS))) await assignGroup(page, region, Object.keys(REGIONS).filter((m) => REGIONS[m] === region));
    } else {
      await builder.getByText('Paste a mapping').click();
      await builder.getByLabel(/One line per value/).fill(Object.entries(REGIONS).map(([m, r]) => `${m};${r}`).join('\n'));
      await builder.getByRole('button', { name: 'Read the mapping' }).click();
    }
    await expect(builder.getByRole('figure')).toContainText('Lémanique');
    await builder.getByRole('button', { name: /Save the file and use it for “municipality”/ }).click();
    const saved = join(WORK, `${form.file.replace(/\.\w+$/, '')}-municipality-hierarchy.csv`);
    await builder.getByText(`Saved ${saved}`).waitFor();
    await expect(page.getByLabel('Hierarchy of municipality')).toHaveValue('file');
    if (form.form === 'csv') page = await reloadAndRegroup(page, saved);
    // The date hierarchy from the builder (the workbook) or the table's own choice (the others).
    if (form.form === 'workbook') {
      await builder.getByLabel('Column').selectOption('birth_date');
      await expect(builder.getByLabel('Kind of hierarchy')).toHaveValue('date');
      await expect(builder.getByRole('figure')).toContainText('1990-1999');
      await builder.getByRole('button', { name: 'Use the date hierarchy for “birth_date”' }).click();
    } else await page.getByLabel('Hierarchy of birth_date').selectOption('date');
    await expect(page.getByLabel('Hierarchy of birth_date')).toHaveValue('date');
    if (form.form === 'workbook') await shots(page, `register-${form.form}-parameters`);
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText(/In the input:.*% of the records are unique/).waitFor({ timeout: 60_000 });
    await acceptReview(page);
    if (form.form === 'workbook') await shots(page, `register-${form.form}-risk`);
    const out = await runToResults(page, form, 'global-recoding', `register-${form.form}-results-recoding`);
    // No full date of birth, no name, no note leaves: the date is released above the day, or not at all.
    const [header, ...rows] = releaseRows(out);
    expect(header).not.toContain('name');
    expect(header).not.toContain('note');
    const birth = header!.indexOf('birth_date');
    expect(rows.length).toBeGreaterThan(300);
    expect(rows.filter((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[birth] ?? ''))).toEqual([]);
    await page.close();
  }

  async function betaPrivacy(browser: Browser, form: Form, errors: string[]): Promise<void> {
    const page = await openForm(browser, form, errors);
    await chooseMethod(page, /β-privacy/);
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    await page.getByRole('button', { name: /Use the file's \d+ values/ }).click();
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByRole('heading', { name: '5. Risk preview' }).waitFor();
    await acceptReview(page);
    await runToResults(page, form, 'beta-privacy');
    await page.close();
  }

  async function reconstructionPrivacy(browser: Browser, form: Form, errors: string[]): Promise<void> {
    const page = await openForm(browser, form, errors);
    await chooseMethod(page, /^Reconstruction privacy \(reconstruction-privacy\)/);
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByRole('heading', { name: '5. Risk preview' }).waitFor();
    await acceptReview(page);
    await runToResults(page, form, 'reconstruction-privacy', form.form === 'spss' ? `register-${form.form}-results-reconstruction` : undefined);
    await page.close();
  }

  for (const form of FORMS) {
    test(`the ${form.form}: birth_date is a date; global recoding, β-privacy and reconstruction privacy each reach Results`, async ({ browser }) => {
      // About a minute a form on a quiet machine; the shared machines run several times slower.
      test.setTimeout(360_000);
      const errors: string[] = [];
      await globalRecoding(browser, form, errors);
      await betaPrivacy(browser, form, errors);
      await reconstructionPrivacy(browser, form, errors);
      expect(errors).toEqual([]);
    });
  }
});
