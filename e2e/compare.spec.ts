import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { chooseMethod } from './method-choice.js';
import { startHost } from './dev-host.js';
import { clippedText } from './clipped-text.js';

/**
 * The disclosure review refuses a release whose quasi-identifiers are published as collected: journeys
 * about other things choose "Release anyway" with a reason when the preview offers it (test/review/ and
 * the review's own e2e steps test the review).
 */
async function acceptReview(page: Page): Promise<void> {
  // The preview's verdict first: the choice is offered once the assessment is in.
  await page.getByText(/^The disclosure review (fails|passes)/).first().waitFor({ timeout: 30_000 });
  const choice = page.getByRole('checkbox', { name: /Release anyway/ });
  if ((await choice.count()) === 0) return;
  await choice.check();
  await page.getByRole('textbox', { name: /Your reason/ }).fill('an end-to-end test of the journey, not of the review');
}


const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = 'test-output/e2e';
const WORK = resolve('test-output/compare-journey');
const OUT = join(WORK, 'adult-release');
const INTERNAL = `${OUT}-internal`;
const CSV = join(WORK, 'adult-comparison.csv');

async function axeScan(page: Page, step: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `axe on step ${step}: ${JSON.stringify(serious)}`).toEqual([]);
}

test.use({ viewport: { width: 1280, height: 800 }, bypassCSP: true });

test.describe('the Compare step (loopback dev host)', () => {
  let host: Awaited<ReturnType<typeof startHost>>;
  test.beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    host = await startHost();
  });
  test.afterAll(() => host?.stop());

  test('compares three methods on Adult, picks a frontier point with the keyboard, runs it: the comparison is in the internal folder and not in the release', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(host.url);
    await page.getByRole('button', { name: /Use the sample data/ }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    await page.getByLabel('Role of occupation').selectOption('sensitive');
    await page.getByLabel('Role of salary-class').selectOption('insensitive');
    await page.getByRole('button', { name: /Next: Method/ }).click();
    await chooseMethod(page, /Reconstruction privacy/);
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    // The Compare step is optional: Next passes it by, its own button leads to it.
    await expect(page.getByRole('button', { name: /Next: Risk preview/ })).toBeEnabled();
    await page.getByRole('button', { name: 'Compare settings (optional)' }).click();
    await page.getByRole('heading', { name: 'Compare (optional)' }).waitFor();
    // The warning about choosing by the figures is said before anything is compared.
    await page.getByText(/itself a use of the confidential data/).first().waitFor();
    await page.getByText(/Prefer a private search where the method has one/).waitFor();

    // Three methods (randomized response, β-privacy, reconstruction privacy) at three settings each, and the current one.
    await expect(page.getByLabel('Compare Randomized response')).toBeChecked();
    await page.getByLabel(/: values of retention/).first().fill('0.3, 0.5, 0.7');
    const compare = page.getByRole('button', { name: /^Compare \d+ candidates$/ });
    await expect(compare).toHaveText('Compare 10 candidates');
    // A value out of range is said where it is typed and leaves that method's candidates out.
    await page.getByLabel(/β-privacy.*: values of β coefficient/).fill('8, x');
    await page.getByText('“x” is not a number').waitFor();
    await expect(compare).toHaveText('Compare 7 candidates');
    await page.getByLabel(/β-privacy.*: values of β coefficient/).fill('8, 12, 16');
    await page.screenshot({ path: join(SHOTS, 'compare-setup.png') });
    await axeScan(page, 'compare (candidates)');
    // Progress and Cancel: a cancelled comparison says so and leaves nothing.
    await compare.click();
    await page.getByRole('progressbar', { name: 'Comparison progress' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Cancelled: nothing was written.').waitFor();
    const started = Date.now();
    await compare.click();
    await page.getByRole('heading', { name: /^10 candidates compared on 30,162 records/ }).waitFor({ timeout: 30_000 });
    const seconds = (Date.now() - started) / 1000;
    // A sanity bound only (the machines are shared and busy); the 5 s for 20 candidates is measured on an idle machine.
    expect(seconds, 'ten candidates on Adult').toBeLessThan(30);

    const points = page.locator('.risk-chart .point');
    await expect(points).toHaveCount(10);
    const frontier = page.locator('.risk-chart .point.on-frontier');
    expect(await frontier.count()).toBeGreaterThan(0);

    // Every point is reached with the keyboard; focus shows its parameters and guarantee in words.
    await page.getByRole('button', { name: /^Compare \d+ candidates$/ }).focus();
    let reached = 0;
    for (let i = 0; i < 40 && reached < 10; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.classList.contains('point') ?? false)) reached++;
    }
    expect(reached, 'points reached with Tab').toBe(10);
    await frontier.first().focus();
    const detail = page.locator('#compare-point-detail');
    await expect(detail.getByText('Guarantee', { exact: true })).toBeVisible();
    await expect(detail).toContainText(/yes: no other candidate has both lower risk and lower error/);
    await page.keyboard.press('Enter');
    const chosen = (await detail.locator('h3').innerText()).replace(/^\d+\. /, '');
    await page.screenshot({ path: join(SHOTS, 'compare-step.png') });
    await page.screenshot({ path: join(SHOTS, 'compare-step-full.png'), fullPage: true });
    expect(await clippedText(page), 'clipped text on the Compare step').toEqual([]);
    await axeScan(page, 'compare');

    // The table exports as CSV through the host, marked confidential on its first line.
    await page.getByLabel('Export the table as CSV (confidential)').fill(CSV);
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByRole('status').filter({ hasText: 'Written:' }).waitFor();
    const csv = readFileSync(CSV, 'utf8').split('\r\n');
    expect(csv[0]).toMatch(/CONFIDENTIAL/);
    expect(csv.filter((l) => l.trim() !== '')).toHaveLength(2 + 10);

    // "Use this setting" fills the job and returns to the flow toward Run.
    await detail.getByRole('button', { name: 'Use this setting', exact: true }).click();
    await page.getByRole('heading', { name: '5. Risk preview' }).waitFor();
    await acceptReview(page);
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await page.getByRole('heading', { name: '6. Run' }).waitFor();
    await page.getByText('The comparison goes with the internal report.').waitFor();
    await page.getByLabel('Release folder (to publish)').fill(OUT);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 60_000 });

    // The run is the chosen candidate: its job names the chosen method and parameter.
    const job = JSON.parse(readFileSync(join(INTERNAL, 'job.json'), 'utf8')) as { method: Record<string, unknown> };
    const comparison = JSON.parse(readFileSync(join(INTERNAL, 'comparison.json'), 'utf8')) as { candidates: { label: string; method: { type: string }; frontier: boolean; grid: { key: string; value: string }[] }[] };
    const picked = comparison.candidates.find((c) => c.label === chosen)!;
    expect(picked.frontier).toBe(true);
    expect(job.method['type']).toBe(picked.method.type);
    for (const g of picked.grid) expect(JSON.stringify(job.method)).toContain(`${g.value}`);
    // The comparison is the internal folder's own section, marked confidential, and listed in its manifest.
    expect(readdirSync(INTERNAL)).toEqual(expect.arrayContaining(['comparison.json', 'comparison.html', 'comparison.csv']));
    expect(readFileSync(join(INTERNAL, 'comparison.html'), 'utf8')).toMatch(/CONFIDENTIAL/);
    expect(readFileSync(join(INTERNAL, 'manifest.json'), 'utf8')).toContain('comparison.html');
    // The release folder holds nothing of it.
    const released = readdirSync(OUT);
    expect(released.some((f) => f.startsWith('comparison'))).toBe(false);
    for (const f of released.filter((name) => name !== 'release.csv' && !name.endsWith('.pdf') && !name.endsWith('.xlsx'))) {
      const text = readFileSync(join(OUT, f), 'utf8');
      expect(text, f).not.toContain('custos.comparison');
      expect(text, f).not.toContain('β-privacy buckets, β coefficient');
    }
    expect(existsSync(join(OUT, 'report.json'))).toBe(true);
    expect(errors).toEqual([]);
  });

  test('a candidate that cannot run is said before the start and kept as "cannot run" while the others are compared; the outcome is in view', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(host.url);
    await page.getByRole('button', { name: /Use the sample data/ }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    await page.getByLabel('Role of occupation').selectOption('sensitive');
    await page.getByLabel('Role of salary-class').selectOption('insensitive');
    await page.getByRole('button', { name: /Next: Method/ }).click();
    await chooseMethod(page, /Reconstruction privacy/);
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    await page.getByRole('button', { name: 'Compare settings (optional)' }).click();
    await page.getByRole('heading', { name: 'Compare (optional)' }).waitFor();
    // Randomized response at one value; microaggregation with no column chosen (refused by its schema);
    // global recoding at a k no transformation of its lattice meets (refused while it runs).
    await page.getByLabel('Include the current setting (Reconstruction privacy)').uncheck();
    await page.getByLabel('Compare β-privacy buckets').uncheck();
    await page.getByLabel('Compare Reconstruction privacy').uncheck();
    await page.getByLabel('Randomized response: values of retention').fill('0.5');
    await page.getByLabel('Compare Microaggregation').check();
    await page.getByLabel('Microaggregation: values of k').fill('3');
    await page.getByLabel('Compare Optimal global recoding').check();
    await page.getByLabel('Optimal global recoding: values of k').fill('40000');
    const compare = page.getByRole('button', { name: /^Compare \d+ candidates?/ });
    await expect(compare).toHaveText('Compare 2 candidates (1 skipped)');
    const before = page.locator('#compare-cannot-run');
    await expect(before).toContainText('1 of 3 candidates cannot run as set and will be skipped; the other 2 are compared');
    await expect(before).toContainText('3. Microaggregation, k 3: cannot run: The columns to aggregate: name at least one numeric column to aggregate');
    await expect(before).not.toContainText('columns to count');
    await compare.click();
    const heading = page.getByRole('heading', { name: /^1 candidate compared, 2 could not run, on 30,162 records/ });
    await heading.waitFor({ timeout: 60_000 });
    // The outcome is in view and has the focus.
    await expect(heading).toBeInViewport({ ratio: 1 });
    // Not under the sticky footer either: its top is well above the footer's.
    const footerTop = await page.locator('.wizard-nav').evaluate((e) => e.getBoundingClientRect().top);
    expect((await heading.boundingBox())!.y + (await heading.boundingBox())!.height).toBeLessThan(footerTop);
    await expect(heading).toBeFocused();
    const table = page.getByRole('table', { name: /The comparison/ });
    await expect(table.locator('tbody tr')).toHaveCount(3);
    await expect(table.locator('tbody tr').nth(1)).toContainText(/cannot run: The privacy model: the only way of recoding there is .*does not meet 40000-anonymity/);
    await expect(table.locator('tbody tr').nth(2)).toContainText('cannot run (checked before the start): The columns to aggregate: name at least one numeric column to aggregate');
    await expect(page.locator('.risk-chart .point')).toHaveCount(1);
    await expect(page.getByText('Not on the chart: 2 candidates could not run.')).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Common-pool query error' })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'compare-cannot-run.png') });
    await page.screenshot({ path: join(SHOTS, 'compare-cannot-run-full.png'), fullPage: true });
    expect(await clippedText(page), 'clipped text on the Compare step').toEqual([]);
    await axeScan(page, 'compare (cannot run)');
    expect(errors).toEqual([]);
  });
});
