// Refusals: a run into a folder Custos did not write, hierarchy files and settings the host refuses in the preview, malformed messages to the host.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { chooseMethod } from './method-choice.js';
import { acceptReview, screenshot, toParameters, JOURNEY_OPTIONS, useHost } from './journey.js';

test.use(JOURNEY_OPTIONS);

test.describe('the wizard in the browser (loopback dev host): what the host refuses', () => {
  const journey = useHost();

  test('a run the host refuses: the reason is brought into view and focused, nothing is written into the folder', async ({ page: fixturePage }) => {
    const folder = resolve('test-output/not-custos');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'notes.txt'), 'the custodian\'s own file\n');
    const s = await journey.open(fixturePage);
    const { page } = s;
    await toParameters(page, { occupation: 'sensitive' }, /Reconstruction privacy/);
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await acceptReview(page);
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await page.getByLabel('Release folder (to publish)').fill(folder);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const failure = page.getByText('The run failed; nothing was written.');
    await failure.waitFor({ timeout: 30_000 });
    await expect(failure).toBeInViewport();
    await expect(page.locator('.progress-block')).toBeFocused();
    await page.getByText(/not a folder Custos wrote/).first().waitFor();
    await screenshot(page, 'run-refused');
    expect(readFileSync(join(folder, 'notes.txt'), 'utf8')).toBe('the custodian\'s own file\n');
    expect(s.errors).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });

  test('a hierarchy file is checked where it is typed; a setting the host refuses in the risk preview keeps the run blocked', async ({ page: fixturePage }) => {
    const s = await journey.open(fixturePage);
    const { page } = s;
    await toParameters(page, { occupation: 'sensitive' }, /Sampling \+ safe k-anonymization/);
    await page.getByLabel('Hierarchy of age').selectOption('file');
    const field = page.getByLabel('Hierarchy file of age');
    // A file that does not exist, then one made for another column, then the right one.
    await field.fill(resolve('resources/adult/no-such-hierarchy.csv'));
    await page.locator('.hierarchy-table .error-text', { hasText: /no-such-hierarchy\.csv.*does not exist/ }).waitFor({ timeout: 10_000 });
    expect(await page.getByRole('button', { name: /Next: Risk preview/ }).isDisabled()).toBe(true);
    await field.fill(resolve('resources/adult/adult_hierarchy_education.csv'));
    await page.locator('.hierarchy-table .error-text', { hasText: /values of “age” are not in the file: “39”/ }).waitFor({ timeout: 10_000 });
    await field.fill(resolve('resources/adult/adult_hierarchy_age.csv'));
    await page.getByLabel('Level of age').fill('9');
    await page.locator('.hierarchy-table .error-text', { hasText: /“age” has only \d+ levels in this file/ }).waitFor({ timeout: 10_000 });
    await page.getByLabel('Level of age').fill('1');
    await expect.poll(() => page.getByRole('button', { name: /Next: Risk preview/ }).isDisabled(), { timeout: 10_000 }).toBe(false);
    const text = await page.locator('.hierarchy-table').innerText();
    expect(text).not.toMatch(/method\.hierarchies|ENOENT/);

    // β-privacy whose largest bucket cannot hold the rarest value: the form cannot know, the host refuses.
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Method/ }).click();
    await chooseMethod(page, /β-privacy buckets/);
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    await page.getByLabel('Largest bucket').fill('50');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'This setting cannot run.' });
    await refusal.waitFor({ timeout: 20_000 });
    await expect(refusal.innerText()).resolves.toMatch(/The largest bucket: no valid bucket setting/);
    await expect(page.getByRole('button', { name: /Next: Run/ }).isDisabled()).resolves.toBe(true);
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Parameters/ }).click();
    await page.getByLabel('Largest bucket').fill('500');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText('A β-private bucketization exists.').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByRole('button', { name: /Next: Run/ }).isDisabled(), { timeout: 20_000 }).toBe(false);
    expect(s.errors).toEqual([]);
  });

  test('a malformed message to the host is rejected with the reason, and the token is required', async () => {
    const post = (path: string, body: unknown, token: string | undefined) =>
      fetch(`${journey.host.origin}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(token ? { 'X-Custos-Token': token } : {}) }, body: JSON.stringify(body) });
    const token = new URL(journey.host.url).hash.replace('#token=', '');
    expect((await post('/api/custos:app-info', {}, undefined)).status).toBe(403);
    const bad = await post('/api/custos:rows', { fileId: 'x', offset: -1, count: 5 }, token);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/fileId|offset/);
    const unknown = await post('/api/custos:shell', {}, token);
    expect(unknown.status).toBe(400);
  });
});
