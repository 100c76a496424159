// The whole journey on the sample, every step shot and scanned, the files read back and verified; then the same by keyboard.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { chooseMethod } from './method-choice.js';
import { acceptReview, axeScan, releaseOf, screenshot, tabTo, JOURNEY_OPTIONS, useHost } from './journey.js';

test.use(JOURNEY_OPTIONS);

test.describe('the wizard in the browser (loopback dev host): the classic journey (reconstruction privacy), with the mouse and by keyboard only', () => {
  const journey = useHost();

  test('full journey with the mouse: open → roles → reconstruction privacy → run → export, files read back', async ({ page: fixturePage }) => {
    // Every step shot twice and scanned with axe, the Method step in two states: on the shared two-core machines this passes two minutes.
    test.setTimeout(180_000);
    const OUT = releaseOf('reconstruction-privacy');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await journey.open(fixturePage);
    const { page } = s;
    // Every step at both sizes people use, kept as test artifacts, each scanned with axe.
    const shot = async (name: string): Promise<void> => {
      await screenshot(page, name);
      await page.setViewportSize({ width: 1920, height: 1080 });
      await screenshot(page, `${name}-1920`);
      await page.setViewportSize({ width: 1280, height: 800 });
      await axeScan(page, name);
    };
    await page.getByRole('heading', { name: '1. Open' }).waitFor();
    await page.getByRole('button', { name: /Use the sample data/ }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.getByRole('row', { name: /^1 / }).first().waitFor();
    // The preview keeps its height at 1280×800: ten rows and its horizontal scrollbar in reach.
    const preview = await page.evaluate(() => {
      const box = document.querySelector('.preview')!;
      const scroll = document.querySelector<HTMLElement>('.preview-scroll')!;
      return { outer: box.clientHeight, inner: scroll.offsetHeight, wide: scroll.scrollWidth > scroll.clientWidth };
    });
    expect(preview.inner).toBeGreaterThanOrEqual(10 * 28);
    expect(preview.outer).toBeGreaterThanOrEqual(preview.inner);
    expect(preview.wide).toBe(true);
    await page.locator('.preview-scroll').evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await page.getByRole('columnheader', { name: 'salary-class' }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'salary-class' }).isVisible()).toBe(true);
    await shot('1-open');
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    await page.getByLabel('Role of occupation').selectOption('sensitive');
    await page.getByLabel('Role of salary-class').selectOption('insensitive');
    await shot('2-columns');
    await page.getByRole('button', { name: /Next: Method/ }).click();
    // The goal first: the answers recommend the methods whose guarantee fits, each with its reason, and select the first.
    await page.getByRole('group', { name: 'What must the release protect?' }).getByRole('radio', { name: /^A sensitive value of people the attacker already identifies/ }).check();
    await page.getByRole('group', { name: 'What is the attacker assumed to know?' }).getByRole('radio', { name: /^Who is in the file/ }).check();
    await page.getByRole('group', { name: 'Must the release be record-level?' }).getByRole('radio', { name: /^Yes: one row per person/ }).check();
    const recommended = page.getByRole('group', { name: 'Recommended for these answers' });
    await expect(recommended.getByRole('radio')).toHaveCount(4);
    await expect(recommended.getByRole('radio', { name: /Optimal global recoding/ })).toHaveCount(0);
    await expect(recommended.getByRole('radio', { name: /^\(ε,δ\)-reconstruction privacy/ })).toBeChecked();
    await page.getByText(/publishes the quasi-identifiers \(age, postcode…\) as collected/).waitFor();
    await screenshot(page, '3-method-attribute');
    // Identity and the sensitive value: protect identity first (its step selected), the sensitive value's step said in words.
    await page.getByRole('group', { name: 'What must the release protect?' }).getByRole('radio', { name: /^Both/ }).check();
    await page.getByRole('heading', { name: 'Recommended: protect identity, then the sensitive value' }).waitFor();
    await expect(page.getByRole('group', { name: '1. Protect identity with' }).getByRole('radio', { name: /^Optimal global recoding/ })).toBeChecked();
    await shot('3-method');
    await chooseMethod(page, /Reconstruction privacy/);
    await page.getByRole('status').filter({ hasText: /Selected: \(ε,δ\)-reconstruction privacy.*does not fit these answers/ }).waitFor();
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    await page.getByRole('spinbutton', { name: 'ε (relative error)' }).fill('1.5');
    await page.getByText(/at most 1\.0714 for “occupation”/).first().waitFor();
    await page.getByRole('spinbutton', { name: 'ε (relative error)' }).fill('0.5');
    await shot('4-parameters');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText(/12,458 micro groups/).waitFor({ timeout: 20_000 });
    // Identity disclosure read plainly, before anything runs.
    await page.getByText(/In the input:.*% of the records are unique on these columns/).waitFor();
    // The disclosure review at the top, red: the quasi-identifiers are published as collected.
    await page.getByRole('alert').filter({ hasText: 'The disclosure review fails: this release is not publishable.' }).waitFor();
    await shot('5-risk');
    await acceptReview(page);
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await shot('6-run');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 30_000 });
    await page.getByText(/\(ε,δ\)-reconstruction privacy: holds/).waitFor();
    await page.getByText(/In the release:.*% of the records are unique on these columns/).waitFor();
    await shot('7-results');
    await page.getByRole('button', { name: /Next: Export/ }).click();
    await page.getByRole('cell', { name: 'report.pdf' }).waitFor();
    await shot('8-export');
    // The internal folder is named; the manifest downloads like the other release files.
    await page.getByText(`${OUT}-internal`).waitFor();
    const manifestDownload = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download manifest.json' }).click();
    const manifest = JSON.parse(readFileSync(await (await manifestDownload).path(), 'utf8'));
    expect(manifest.kind).toBe('release');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save the job file' }).click();
    const job = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
    expect(job.method).toMatchObject({ type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3 });
    expect(job.attributes.occupation).toBe('sensitive');
    // The exported files, read back from disk and re-verified by the auditor's command.
    const csv = readFileSync(join(OUT, 'release.csv'), 'utf8').trimEnd().split('\r\n');
    expect(csv[0]).toBe('sex,age,race,marital-status,education,native-country,workclass,occupation,salary-class');
    expect(Math.abs(csv.length - 1 - 30162)).toBeLessThan(300);
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8'));
    expect(report.risk.violatingAfter).toBe(0);
    expect(existsSync(join(OUT, 'report.pdf'))).toBe(true);
    const verify = spawnSync(process.execPath, ['dist/cli/custos.mjs', 'verify', OUT, '--original', 'resources/adult/adult.csv'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
    journey.expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('the same journey by keyboard only', async ({ page: fixturePage }) => {
    const OUT = releaseOf('reconstruction-privacy');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await journey.open(fixturePage);
    const { page } = s;
    await page.getByRole('heading', { name: '1. Open' }).waitFor();
    await tabTo(page, /Use the sample data/);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    // The keyboard focus stays where the person pressed Enter while the file was read.
    await expect(page.getByRole('button', { name: /Use the sample data/ })).toBeFocused();
    await tabTo(page, /Next: Columns/);
    await page.keyboard.press('Enter');
    await tabTo(page, /Role of occupation/);
    await page.keyboard.press('s'); // "Sensitive"
    await tabTo(page, /Role of salary-class/);
    await page.keyboard.press('ArrowDown'); // quasi → sensitive
    await page.keyboard.press('ArrowDown'); // → insensitive
    expect(await page.getByLabel('Role of occupation').inputValue()).toBe('sensitive');
    expect(await page.getByLabel('Role of salary-class').inputValue()).toBe('insensitive');
    for (const next of [/Next: Method/, /Next: Parameters/, /Next: Risk preview/]) {
      await tabTo(page, next);
      await page.keyboard.press('Enter');
    }
    await page.getByText(/12,458 micro groups/).waitFor({ timeout: 20_000 });
    // The review refuses these quasi-identifiers as collected: "Release anyway" with a reason, by keyboard.
    await tabTo(page, /Release anyway/);
    await page.keyboard.press('Space');
    await tabTo(page, /Your reason/);
    await page.keyboard.type('a keyboard journey');
    // The acknowledgement changes the job: Next waits for the preview of the job as it now stands.
    await expect(page.getByRole('button', { name: /Next: Run/ })).toBeEnabled({ timeout: 20_000 });
    await tabTo(page, /Next: Run/);
    await page.keyboard.press('Enter');
    await tabTo(page, /^\s*Run\s*$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 30_000 });
    await tabTo(page, /Next: Export/);
    await page.keyboard.press('Enter');
    await page.getByRole('cell', { name: 'release.csv' }).waitFor();
    expect(existsSync(join(OUT, 'report.json'))).toBe(true);
    journey.expectLoopbackOnly(s);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });
});
