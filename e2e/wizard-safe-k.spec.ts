// Safe k-anonymization on the sample: k solved from a target with typed levels, and the differentially private search of the levels.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { axeScan, releaseOf, screenshot, toParameters, useArxHierarchies, runToResults, JOURNEY_OPTIONS, useHost } from './journey.js';

test.use(JOURNEY_OPTIONS);

test.describe('the wizard in the browser (loopback dev host): sampling + safe k-anonymization', () => {
  const journey = useHost();

  /** Safe k-anonymization with k solved from a target: age by intervals, the listed columns by Adult's ARX hierarchies. */
  async function toSafeK(page: Page, arxColumns: readonly string[]): Promise<void> {
    await toParameters(page, { occupation: 'sensitive' }, /Sampling \+ safe k-anonymization/);
    await page.getByLabel('Meet a target (ε, δ)').check();
    await page.getByLabel('Choose for me').selectOption('k');
    await page.getByLabel('Hierarchy of age').selectOption('interval');
    await useArxHierarchies(page, arxColumns);
  }

  test('sampling + safe k-anonymization: hierarchies per column, k solved from a target, DP guarantee in the results', async ({ page: fixturePage }) => {
    const OUT = releaseOf('safe-k-anonymity');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await journey.open(fixturePage);
    const { page } = s;
    await toSafeK(page, ['education', 'marital-status', 'native-country', 'workclass', 'occupation', 'race']);
    await page.getByLabel('Level of age').fill('2');
    await expect(page.getByText(/→ 20-39|→ 40-59|→ 0-19/).count()).resolves.toBe(1);
    for (const [column, level] of [['education', 2], ['marital-status', 2], ['native-country', 1], ['workclass', 2], ['occupation', 1], ['race', 1]] as const) {
      await page.getByLabel(`Level of ${column}`).fill(String(level));
    }
    await screenshot(page, 'safe-k-parameters', true);
    await axeScan(page, 'safe-k-parameters');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText(/k = 9 is the smallest k/).waitFor({ timeout: 20_000 });
    await screenshot(page, 'safe-k-risk');
    await runToResults(page);
    await page.getByText(/\(ε,δ\)-differential privacy: holds/).waitFor();
    await screenshot(page, 'safe-k-results');
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8'));
    expect(report.anonymity.k).toBe(9);
    expect(report.risk.minClassSize).toBeGreaterThanOrEqual(9);
    journey.expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('safe k-anonymization with the differentially private search: λ and strategy reach the job and the report', async ({ page: fixturePage }) => {
    const OUT = releaseOf('safe-k-anonymity');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await journey.open(fixturePage);
    const { page } = s;
    await toSafeK(page, ['education', 'marital-status', 'native-country', 'workclass', 'occupation', 'race', 'sex', 'salary-class']);
    await page.getByLabel('Choose the levels for me with a differentially private search').check();
    await page.getByLabel('Weight of detail λ', { exact: true }).fill('1.5');
    await page.locator('.error-text', { hasText: 'must lie between 0 and 1' }).waitFor();
    expect(await page.getByRole('button', { name: /Next: Risk preview/ }).isDisabled()).toBe(true);
    await page.getByLabel('Weight of detail λ', { exact: true }).fill('0.25');
    await page.getByLabel('Search over').selectOption('lattice');
    await screenshot(page, 'safe-k-search-parameters', true);
    await axeScan(page, 'safe-k-search-parameters');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText(/exponential mechanism/).first().waitFor({ timeout: 30_000 });
    await page.getByText(/the run draws afresh/).waitFor();
    await screenshot(page, 'safe-k-search-risk', true);
    await runToResults(page);
    await screenshot(page, 'safe-k-search-results', true);
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8'));
    expect(report.method.derived).toMatchObject({ searchLossWeight: 0.25, searchStrategy: 'lattice', epsilonSelection: 0.1 });
    expect(report.risk.minClassSize).toBeGreaterThanOrEqual(report.anonymity.k);
    journey.expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });
});
