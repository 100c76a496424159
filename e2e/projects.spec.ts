import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startHost } from './dev-host.js';
import { clippedText } from './clipped-text.js';

/** Issue 35, item 15: multi-step undo/redo named by its change, Reset this step, named projects on the Open step. */
const SHOTS = 'test-output/e2e';

test.use({ viewport: { width: 1280, height: 800 }, bypassCSP: true });

test.describe('undo, reset and projects (loopback dev host)', () => {
  let host: Awaited<ReturnType<typeof startHost>>;
  test.beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    host = await startHost();
  });
  test.afterAll(() => host?.stop());

  test('roles changed, undone and redone by keyboard; a project saved, listed and reopened', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(host.url);
    await page.getByRole('button', { name: /Use the sample data/ }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    const occupation = page.getByLabel('Role of occupation');
    const before = await occupation.inputValue();
    await occupation.selectOption('sensitive');
    await page.getByLabel('Role of salary-class').selectOption('insensitive');
    await expect(page.getByRole('button', { name: /^↶ Undo: salary-class: .+ → insensitive$/ })).toBeVisible();
    await page.getByRole('heading', { level: 2 }).focus();
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    await expect(occupation).toHaveValue(before);
    await page.keyboard.press('Control+Shift+Z');
    await expect(occupation).toHaveValue('sensitive');
    await expect(page.getByRole('button', { name: /^↷ Redo: salary-class/ })).toBeVisible();
    await page.getByRole('button', { name: 'Reset this step' }).click();
    await expect(occupation).toHaveValue(before);
    // The reset was a new change: nothing is left to redo, and Undo brings the roles back.
    await expect(page.getByRole('button', { name: '↷ Redo' })).toBeDisabled();
    await page.keyboard.press('Control+y');
    await expect(occupation).toHaveValue(before);
    await page.keyboard.press('Control+z');
    await expect(occupation).toHaveValue('sensitive');
    await expect(page.getByRole('button', { name: `↶ Undo: occupation: ${before} → sensitive` })).toBeVisible();

    await page.getByRole('button', { name: /← Back/ }).click();
    await page.getByRole('button', { name: 'Save as project…' }).click();
    await page.getByLabel('Project name').fill('Adult, public use file');
    await page.getByLabel('Notes').fill('Occupation is the sensitive column; salary class left out of the check. Ask the board about k.');
    await page.getByRole('button', { name: 'Save as project' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved “Adult, public use file”.' })).toBeVisible();
    await page.getByLabel('Project name').fill('Adult, second try');
    await page.getByRole('button', { name: 'Save as project' }).click();
    const list = page.getByRole('list', { name: 'Recent projects' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    expect(await clippedText(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'projects-open-step.png') });

    await list.getByRole('button', { name: 'Adult, public use file', exact: true }).click();
    await expect(page.getByRole('heading', { level: 2 })).toHaveText('4. Parameters');
    await page.getByRole('button', { name: /Columns/ }).first().click();
    await expect(page.getByLabel('Role of occupation')).toHaveValue('sensitive');
    expect(errors).toEqual([]);
  });
});
