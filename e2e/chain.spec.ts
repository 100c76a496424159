import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startHost } from './dev-host.js';

/**
 * "Protect identity, then the sensitive value" (issue 34, item 3): the Method step's answer "both",
 * its two steps, both forms on the Parameters step, the risk preview, the run and the results of
 * the chain, whose job holds both steps in order.
 */
const WORK = resolve('test-output/chain-journey');
const OUT = join(WORK, 'adult-chain-release');

test.use({ viewport: { width: 1280, height: 800 } });

test.describe('a chain in the wizard (loopback dev host)', () => {
  let host: Awaited<ReturnType<typeof startHost>>;
  test.beforeAll(async () => {
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    host = await startHost();
  });
  test.afterAll(() => host?.stop());

  test('answers “both”, uses the two steps, fills both forms and reaches Results with a chain job', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(host.url);
    await page.getByRole('button', { name: /Use the sample data/ }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    // Two quasi-identifiers (sex, race), the occupation sensitive, the rest released as collected.
    await page.getByLabel('Role of occupation').selectOption('sensitive');
    for (const column of ['age', 'workclass', 'education', 'marital-status', 'native-country', 'salary-class']) await page.getByLabel(`Role of ${column}`).selectOption('insensitive');
    await page.getByRole('button', { name: /Next: Method/ }).click();
    await page.getByRole('group', { name: 'What must the release protect?' }).getByRole('radio', { name: /^Both/ }).check();
    await page.getByRole('group', { name: 'What is the attacker assumed to know?' }).getByRole('radio', { name: /^Who is in the file/ }).check();
    await page.getByRole('group', { name: 'Must the release be record-level?' }).getByRole('radio', { name: /^Yes: one row per person/ }).check();
    await page.getByRole('radio', { name: /β-privacy/ }).first().check();
    await page.getByRole('button', { name: 'Use these two steps' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Selected: two steps' })).toContainText('then');
    await page.getByRole('button', { name: /Next: Parameters/ }).click();

    const first = page.getByRole('region', { name: /^1\. Protect identity: / });
    const second = page.getByRole('region', { name: /^2\. Then the sensitive value: β-privacy/ });
    await expect(first).toBeVisible();
    await expect(second).toBeVisible();
    await first.getByLabel('k', { exact: true }).fill('5');
    await second.getByRole('button', { name: /Use the file's \d+ values/ }).click();
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByRole('heading', { name: '5. Risk preview' }).waitFor();
    // The preview's verdict, then "Release anyway" when the review asks for it (the review is tested elsewhere).
    await page.getByText(/^The disclosure review (fails|passes)/).first().waitFor({ timeout: 60_000 });
    const anyway = page.getByRole('checkbox', { name: /Release anyway/ });
    if ((await anyway.count()) > 0) {
      await anyway.check();
      await page.getByRole('textbox', { name: /Your reason/ }).fill('an end-to-end test of the chain, not of the review');
    }
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await page.getByRole('heading', { name: '6. Run' }).waitFor();
    await page.getByLabel('Release folder (to publish)').fill(OUT);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 90_000 });

    const job = JSON.parse(readFileSync(join(`${OUT}-internal`, 'job.json'), 'utf8')) as { method: { type: string }[] };
    expect(job.method.map((m) => m.type)).toEqual(['global-recoding', 'beta-privacy']);
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8')) as { chain?: { steps: { type: string }[] } };
    expect(report.chain?.steps.map((s) => s.type)).toEqual(['global-recoding', 'beta-privacy']);
    expect(errors).toEqual([]);
  });
});
