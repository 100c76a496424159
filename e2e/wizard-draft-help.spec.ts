// Work kept across a reload, and the help dialog.
import { expect, test } from '@playwright/test';
import { axeScan, screenshot, toParameters, JOURNEY_OPTIONS, useHost } from './journey.js';

test.use(JOURNEY_OPTIONS);

test.describe('the wizard in the browser (loopback dev host): drafts and help', () => {
  const journey = useHost();

  test('work is never lost: after a reload the job draft (not the data) is offered back, step included', async ({ page: fixturePage }) => {
    const s = await journey.open(fixturePage);
    const { page } = s;
    await toParameters(page, { occupation: 'sensitive', age: 'identifier' }, /β-privacy buckets/);
    await page.getByLabel('Privacy coefficient c').fill('12');
    await page.waitForTimeout(600);
    const saved = await page.evaluate(() => window.localStorage.getItem('custos.draft.v1'));
    expect(saved).toContain('"coefficient":12');
    // A draft is a job: paths and settings, no checksum of the file and no values of it beyond the
    // public domain the job declares for the sensitive column (occupation's list is the job's decision).
    expect(saved).toContain('"domains":{"occupation":["Adm-clerical"');
    expect(saved).not.toMatch(/Bachelors|Never-married|Husband|sha256/);
    await page.reload();
    await page.getByText('You were working on a job when Custos closed.').waitFor();
    await page.getByRole('button', { name: 'Restore it' }).click();
    await page.getByRole('heading', { name: '4. Parameters' }).waitFor({ timeout: 20_000 });
    await expect(page.getByLabel('Privacy coefficient c').inputValue()).resolves.toBe('12');
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Columns/ }).click();
    await expect(page.getByLabel('Role of age').inputValue()).resolves.toBe('identifier');
    await expect(page.getByLabel('Role of occupation').inputValue()).resolves.toBe('sensitive');
    // Starting afresh forgets it.
    await page.reload();
    await page.getByRole('button', { name: 'Start afresh' }).click();
    await page.reload();
    await page.getByRole('heading', { name: '1. Open' }).waitFor();
    expect(await page.getByText('You were working on a job').count()).toBe(0);
    expect(s.errors).toEqual([]);
  });

  test('help: every term in one sentence, in a dialog that Escape closes; method cards keep paper names to a Source line', async ({ page: fixturePage }) => {
    const s = await journey.open(fixturePage);
    const { page } = s;
    await page.getByRole('heading', { name: '1. Open' }).waitFor();
    await page.getByRole('button', { name: 'Help' }).click();
    const dialog = page.getByRole('dialog', { name: 'Words Custos uses' });
    await dialog.waitFor();
    for (const term of ['Micro group', 's_g', 'Retention p', 'δ (differential privacy)', 'k', 'β (β-privacy)']) await dialog.getByText(term, { exact: true }).waitFor();
    await screenshot(page, 'help');
    await axeScan(page, 'help');
    // The keyboard stays in the dialog while it is open, and comes back to Help when it closes.
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog.count()).resolves.toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Help');
    await page.getByRole('button', { name: /Use the sample data/ }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Method/ }).click();
    await page.locator('details.all-methods > summary').click();
    const card = page.locator('.method-card', { hasText: 'Reconstruction privacy' });
    await expect(card.locator('.source').innerText()).resolves.toMatch(/^Source: Wang, Han, Fu/);
    await expect(card.getByText(/^Guarantee:/).innerText()).resolves.not.toMatch(/Wang/);
    expect(s.errors).toEqual([]);
  });
});
