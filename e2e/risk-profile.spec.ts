import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { chooseMethod } from './method-choice.js';
import { startHost } from './dev-host.js';
import { clippedText } from './clipped-text.js';

/** Issue 36: the risk preview shows the records' individual risk as a histogram and the riskiest records. */
const SHOTS = 'test-output/e2e';

test.use({ viewport: { width: 1280, height: 800 }, bypassCSP: true });

test.describe('the risk preview per record (loopback dev host)', () => {
  let host: Awaited<ReturnType<typeof startHost>>;
  test.beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    host = await startHost();
  });
  test.afterAll(() => host?.stop());

  test('a histogram of individual risk and the riskiest records with their values, class size and risk', async ({ page }) => {
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
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    const card = page.getByRole('region', { name: 'Risk per record' });
    await card.waitFor({ timeout: 60_000 });
    // The histogram: one bar per risk bin, its text alternative naming every bin's records (30,162 in all).
    const chart = card.getByRole('img', { name: /^Records by individual risk: / });
    const label = (await chart.getAttribute('aria-label'))!;
    const counts = [...label.matchAll(/risk [\d.]+ – [\d.]+ ([\d,]+)/g)].map((m) => Number(m[1]!.replace(/,/g, '')));
    expect(counts).toHaveLength(7);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(30_162);
    // Without a stated population the file is the population: a unique record's risk is 1, in the top bin.
    expect(counts[6]).toBeGreaterThan(0);
    const table = card.getByRole('table', { name: 'The riskiest records' });
    await expect(table.getByRole('columnheader')).toHaveText(['Record', 'sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'Class size', 'Individual risk']);
    await expect(table.getByRole('row')).toHaveCount(11);
    await expect(table.getByRole('row').nth(1).getByRole('cell').last()).toHaveText('1.0000');
    await expect(card.getByText(/SUDA2 special uniques: [\d,]+ records unique on a part of their quasi-identifiers/)).toBeVisible();
    // Stating the population (review.samplingFraction): the population models, Dankar's choice and k-map appear, and the job carries it.
    await card.getByRole('spinbutton', { name: /Sampling fraction/ }).fill('0.01');
    await expect(card.getByText(/Population uniques, Dankar et al.'s choice: Pitman: [\d.]+ \([\d.]+ % of the population\)/)).toBeVisible({ timeout: 60_000 });
    await expect(card.getByText(/Population: 3,016,200 people \(sampling fraction 0\.01\)/)).toBeVisible();
    await expect(card.getByText(/k-map \(journalist\) risk: k = 100\.0 estimated people in the smallest class; highest 0\.0100/)).toBeVisible();
    await expect(card.getByText(/each record standing for 1\/π people/)).toBeVisible();
    expect(await clippedText(page)).toEqual([]);
    // The step scrolls inside the window: a tall window shows the whole card in one picture.
    await page.setViewportSize({ width: 1280, height: 2400 });
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(SHOTS, 'risk-profile.png') });
    expect(errors).toEqual([]);
  });
});
