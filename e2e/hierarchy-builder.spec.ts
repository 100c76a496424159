import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startHost } from './dev-host.js';
import { clippedText } from './clipped-text.js';
import { chooseByKeys, tabTo } from './journey.js';

const SHOTS = 'test-output/e2e';
const FILES = resolve('test-output/hierarchy-builder');
const TOWNS: Readonly<Record<string, readonly [string, string]>> = {
  Oslo: ['Østlandet', 'Norway'],
  Bærum: ['Østlandet', 'Norway'],
  Bergen: ['Vestlandet', 'Norway'],
  Stavanger: ['Vestlandet', 'Norway'],
  Malmö: ['Skåne', 'Sweden'],
  Lund: ['Skåne', 'Sweden'],
};

/** This spec's own register: towns, birth dates written dd.mm.yyyy, a diagnosis; rows from a fixed sequence. */
function writeRegister(path: string): void {
  let state = 35;
  const next = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  const towns = Object.keys(TOWNS);
  const two = (n: number) => String(n).padStart(2, '0');
  const lines = ['id;town;born;diagnosis'];
  for (let i = 1; i <= 240; i++) lines.push(`P${i};${towns[next(towns.length)]};${two(1 + next(28))}.${two(1 + next(12))}.${1940 + next(60)};${['asthma', 'diabetes', 'none', 'migraine'][next(4)]}`);
  writeFileSync(path, lines.join('\n') + '\n');
}

/** Selects options of a focused multi-select by their values with Ctrl+arrows and Ctrl+Space, none else. */
async function pickByKeys(page: Page, list: Locator, values: readonly string[]): Promise<void> {
  await tabTo(page, list);
  const options = await list.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  // The first arrow press selects the first option alone; from there Ctrl moves without selecting.
  await page.keyboard.press('Home');
  let at = 0;
  const wanted = values.map((v) => options.indexOf(v)).sort((a, b) => a - b);
  if (wanted[0] !== 0) await page.keyboard.press('Control+Space');
  for (const index of wanted) {
    while (at < index) {
      await page.keyboard.press('Control+ArrowDown');
      at++;
    }
    if (index !== 0) await page.keyboard.press('Control+Space');
  }
  const chosen = await list.evaluate((el) => Array.from((el as HTMLSelectElement).selectedOptions, (o) => o.value));
  expect(chosen.sort()).toEqual([...values].sort());
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
  expect(await clippedText(page), `clipped text on ${name}`).toEqual([]);
}

test.use({ viewport: { width: 1280, height: 800 }, bypassCSP: true });

test('keyboard only: a category hierarchy and a date hierarchy built in the wizard reach Results, and the job names the built file', async ({ page }) => {
  test.setTimeout(480_000);
  mkdirSync(SHOTS, { recursive: true });
  rmSync(FILES, { recursive: true, force: true });
  mkdirSync(FILES, { recursive: true });
  const input = join(FILES, 'register.csv');
  writeRegister(input);
  const host = await startHost();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(host.url);
    await tabTo(page, page.getByLabel('File path'));
    await page.keyboard.type(input);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: '4 columns' }).waitFor();
    await tabTo(page, page.getByRole('button', { name: /Next: Columns/ }));
    await page.keyboard.press('Enter');
    await chooseByKeys(page, page.getByLabel('Role of diagnosis'), /^Sensitive/);
    await chooseByKeys(page, page.getByLabel('Role of id'), /^Identifier/);
    await tabTo(page, page.getByRole('button', { name: /Next: Method/ }));
    await page.keyboard.press('Enter');
    // The Method step asks the goal first; the cards are behind "All methods", opened with the keyboard.
    await tabTo(page, page.locator('details.all-methods > summary'));
    await page.keyboard.press('Enter');
    const cards = page.getByRole('group', { name: 'All methods' });
    const radio = cards.getByRole('radio', { name: /Optimal global recoding/ });
    await tabTo(page, cards.getByRole('radio').first());
    for (let i = 0; i < 12 && !(await radio.isChecked()); i++) await page.keyboard.press('ArrowDown');
    await expect(radio).toBeChecked();
    await tabTo(page, page.getByRole('button', { name: /Next: Parameters/ }));
    await page.keyboard.press('Enter');

    // The category hierarchy: towns → regions → countries, typed and assigned with the keyboard.
    const builder = page.getByRole('region', { name: 'Build a hierarchy' });
    await chooseByKeys(page, builder.getByLabel('Column'), /^town$/);
    await expect(builder.getByLabel('Kind of hierarchy')).toHaveValue('groups');
    const regions = new Map<string, string[]>();
    for (const [town, [region]] of Object.entries(TOWNS)) regions.set(region, [...(regions.get(region) ?? []), town]);
    for (const [region, towns] of regions) {
      await tabTo(page, builder.getByLabel('Group name'));
      await page.keyboard.press('Control+A');
      await page.keyboard.type(region);
      await pickByKeys(page, builder.getByLabel('Values of “town”'), towns);
      await tabTo(page, builder.getByRole('button', { name: 'Assign to the group' }));
      await page.keyboard.press('Enter');
    }
    await tabTo(page, builder.getByRole('button', { name: 'Add a level above' }));
    await page.keyboard.press('Enter');
    const countries = new Map<string, string[]>();
    for (const [region, country] of Object.values(TOWNS)) if (!countries.get(country)?.includes(region)) countries.set(country, [...(countries.get(country) ?? []), region]);
    for (const [country, inside] of countries) {
      await tabTo(page, builder.getByLabel('Group name'));
      await page.keyboard.press('Control+A');
      await page.keyboard.type(country);
      await pickByKeys(page, builder.getByLabel('Groups of level 1'), inside);
      // Enter in the name field assigns too.
      await tabTo(page, builder.getByLabel('Group name'));
      await page.keyboard.press('Enter');
    }
    const tree = builder.getByRole('figure');
    await expect(tree).toContainText('Norway');
    await expect(tree).toContainText('Skåne');
    await shot(page, 'builder-groups');
    await tabTo(page, builder.getByRole('button', { name: /Save the file and use it for “town”/ }));
    await page.keyboard.press('Enter');
    const saved = join(FILES, 'register-town-hierarchy.csv');
    await builder.getByText(`Saved ${saved}`).waitFor();
    expect(readFileSync(saved, 'utf8').trim().split('\n').sort()).toEqual(Object.entries(TOWNS).map(([t, [r, c]]) => `${t};${r};${c};*`).sort());
    await expect(page.getByLabel('Hierarchy of town')).toHaveValue('file');
    await expect(page.getByLabel('Hierarchy file of town')).toHaveValue(saved);

    // The date hierarchy of the birth dates (dd.mm.yyyy text, read as dates).
    await chooseByKeys(page, builder.getByLabel('Column'), /^born$/);
    await expect(builder.getByLabel('Kind of hierarchy')).toHaveValue('date');
    await expect(builder.getByRole('figure')).toContainText('1990-1999');
    await shot(page, 'builder-dates');
    await tabTo(page, builder.getByRole('button', { name: 'Use the date hierarchy for “born”' }));
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Hierarchy of born')).toHaveValue('date');

    // Age from the birth date, previewed (not used: the date hierarchy stays).
    await chooseByKeys(page, builder.getByLabel('Kind of hierarchy'), /age from a birth date/);
    await tabTo(page, builder.getByLabel('Reference date (yyyy-mm-dd)'));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1900-01-01');
    await expect(builder.getByText(/dates are after the reference date 1900-01-01/)).toBeVisible();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2026-01-01');
    await expect(builder.getByRole('figure')).toContainText('30-39');
    await shot(page, 'builder-age');

    await tabTo(page, page.getByRole('button', { name: /Next: Risk preview/ }));
    await page.keyboard.press('Enter');
    await page.getByText(/In the input:.*% of the records are unique/).waitFor({ timeout: 60_000 });
    await expect(page.getByText('This setting cannot run.')).toHaveCount(0);
    // The review's verdict; "Release anyway" with a reason by keyboard when it asks (the review is tested elsewhere).
    await page.getByText(/^The disclosure review (fails|passes)/).first().waitFor({ timeout: 60_000 });
    const anyway = page.getByRole('checkbox', { name: /Release anyway/ });
    if ((await anyway.count()) > 0) {
      await tabTo(page, anyway);
      await page.keyboard.press('Space');
      await tabTo(page, page.getByRole('textbox', { name: /Your reason/ }));
      await page.keyboard.type('an end-to-end test of the builders, not of the review');
    }
    // Next waits for the preview of the job as it now stands.
    await expect(page.getByRole('button', { name: /Next: Run/ })).toBeEnabled({ timeout: 60_000 });
    await tabTo(page, page.getByRole('button', { name: /Next: Run/ }));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByRole('button', { name: 'Run', exact: true }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 90_000 });
    const release = join(FILES, 'register-global-recoding-release');
    const job = JSON.parse(readFileSync(join(release, 'job.json'), 'utf8'));
    expect(job.method.hierarchies.born).toEqual({ type: 'date' });
    // The published job names the file, not its folder; the internal job names it in full.
    expect(typeof job.method.hierarchies.town).toBe('string');
    const internal = JSON.parse(readFileSync(join(`${release}-internal`, 'job.json'), 'utf8'));
    expect(internal.method.hierarchies.town).toBe(saved);
    await shot(page, 'builder-results');

    // Before and after: in the app only; nothing of it is written into the release folder.
    const files = readdirSync(release).sort();
    const view = page.getByRole('region', { name: 'Before and after' });
    await chooseByKeys(page, view.getByLabel('Distribution of'), /^town$/);
    await expect(view.getByRole('table', { name: /^Input \(internal\)/ }).first()).toContainText('Oslo');
    // The search chose the levels: what the release shows of “town” is its choice, drawn from the released file.
    await expect(view.getByRole('table', { name: /^Release: [\d,]+ records$/ })).toBeVisible();
    await chooseByKeys(page, view.getByLabel('Contingency table: rows'), /^town$/);
    await chooseByKeys(page, view.getByLabel('columns'), /^diagnosis$/);
    await tabTo(page, view.getByRole('button', { name: 'Draw the contingency table' }));
    await page.keyboard.press('Enter');
    await expect(view.getByRole('table', { name: 'Input (internal): town by diagnosis' })).toContainText('asthma');
    await expect(view.getByRole('table', { name: 'Release: town by diagnosis' })).toContainText('asthma');
    await tabTo(page, view.getByRole('button', { name: /Show the input's riskiest records/ }));
    await page.keyboard.press('Enter');
    await expect(view.getByRole('table', { name: 'Input (internal)', exact: true })).toBeVisible({ timeout: 60_000 });
    await view.getByRole('table', { name: 'Input (internal): town by diagnosis' }).scrollIntoViewIfNeeded();
    await shot(page, 'before-after');
    expect(readdirSync(release).sort()).toEqual(files);
    expect(errors).toEqual([]);
  } finally {
    host.stop();
  }
});
