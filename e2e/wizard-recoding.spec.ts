// The recoding journeys on the sample: optimal global recoding and its lattice, local suppression after it, partitioned recoding with the levels searched.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ADULT_QUASI_IDENTIFIERS, axeScan, releaseOf, screenshot, smallestReleasedClass, toParameters, useArxHierarchies, runToResults, JOURNEY_OPTIONS, useHost } from './journey.js';

test.use(JOURNEY_OPTIONS);

test.describe('the wizard in the browser (loopback dev host): classic de-identification (global and partitioned recoding)', () => {
  const journey = useHost();

  test('classic de-identification: optimal global recoding with ℓ-diversity and k-anonymity, the chosen levels in the report', async ({ page: fixturePage }) => {
    const OUT = releaseOf('global-recoding');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await journey.open(fixturePage);
    const { page } = s;
    await toParameters(page, { occupation: 'sensitive' }, /Optimal global recoding/);
    await page.getByLabel('Privacy model').selectOption('l-diversity');
    await page.getByLabel('ℓ', { exact: true }).fill('2');
    await page.getByLabel('and k-anonymity').check();
    await page.getByLabel('k', { exact: true }).fill('5');
    await useArxHierarchies(page, ADULT_QUASI_IDENTIFIERS);
    // The levels are the search's to choose: the table offers none to type.
    await expect(page.getByLabel('Level of age').count()).resolves.toBe(0);
    await screenshot(page, 'global-recoding-parameters', true);
    await axeScan(page, 'global-recoding-parameters');
    // A k no transformation can meet: the preview says the run would refuse, and the run is blocked until it changes.
    await page.getByLabel('k', { exact: true }).fill('40000');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText('This setting cannot run.').waitFor({ timeout: 30_000 });
    await page.getByText(/none of the [\d,]+ ways of recoding .*meets distinct 2-diversity on occupation and 40000-anonymity/).first().waitFor();
    await expect(page.getByRole('button', { name: /Next: Run/ })).toBeDisabled();
    await screenshot(page, 'global-recoding-cannot-run');
    await page.getByRole('button', { name: 'Change it' }).click();
    await page.getByLabel('k', { exact: true }).fill('5');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText(/distinct 2-diversity on occupation and 5-anonymity/).first().waitFor({ timeout: 30_000 });
    await expect(page.getByText('This setting cannot run.')).toHaveCount(0);
    // The choice in its lattice: the optimum at other suppression limits, any of which can be taken instead.
    await page.getByRole('heading', { name: 'The transformation in its lattice' }).waitFor({ timeout: 30_000 });
    const other = page.getByRole('button', { name: /Use limit/ }).last();
    const label = (await other.textContent())!;
    const chosenPercent = Number(/limit ([\d.]+) %/.exec(label)![1]);
    await other.click();
    await page.getByRole('button', { name: label }).waitFor({ state: 'detached', timeout: 30_000 });
    await page.locator('tr[aria-current="true"] th', { hasText: `${chosenPercent} %` }).waitFor({ timeout: 30_000 });
    // The clicked button is gone: the focus moved to the row now chosen, not to the page.
    await expect(page.locator('tr[aria-current="true"] strong')).toBeFocused();
    await page.getByRole('heading', { name: 'Utility against deleted records' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'global-recoding-lattice');
    await axeScan(page, 'global-recoding-lattice');
    await runToResults(page, 60_000);
    await page.getByText(/no DP guarantee\): holds/).first().waitFor();
    await screenshot(page, 'global-recoding-results', true);
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8'));
    expect(Object.keys(report.method.levels).sort()).toEqual(['age', 'education', 'marital-status', 'native-country', 'race', 'salary-class', 'sex', 'workclass']);
    expect(report.job.method.models).toEqual([{ type: 'l-diversity', l: 2, variant: 'distinct' }, { type: 'k-anonymity', k: 5 }]);
    expect(report.job.method.suppressionLimit).toBeCloseTo(chosenPercent / 100, 9);
    // The frontier came from the confidential records: the published report does not carry it.
    expect(report.method.frontier).toBeUndefined();
    expect(report.risk.minClassSize).toBeGreaterThanOrEqual(5);
    // Read back from the released file itself: every class of the released quasi-identifiers has at least 5 records.
    expect(smallestReleasedClass(OUT, ['age', 'education', 'marital-status', 'native-country', 'race', 'salary-class', 'sex', 'workclass'])).toBeGreaterThanOrEqual(5);
    journey.expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('local suppression after the recoding: cells become "*", per column in the report, and every record stays compatible with k', async ({ page: fixturePage }) => {
    const OUT = releaseOf('global-recoding');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await journey.open(fixturePage);
    const { page } = s;
    await toParameters(page, { occupation: 'insensitive' }, /Optimal global recoding/);
    await page.getByLabel('k', { exact: true }).fill('5');
    await useArxHierarchies(page, ADULT_QUASI_IDENTIFIERS);
    await page.getByLabel('Suppress single cells after the recoding (sdcMicro kAnon)').check();
    await page.getByLabel('k of local suppression').fill('10');
    await page.getByLabel('Importance of age').fill('3');
    await screenshot(page, 'local-suppression-parameters');
    await axeScan(page, 'local-suppression-parameters');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText(/then local suppression to 10-anonymity with wildcards/).first().waitFor({ timeout: 30_000 });
    await runToResults(page, 60_000);
    await screenshot(page, 'local-suppression-results', true);
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8'));
    expect(report.job.method.localSuppression).toEqual({ k: 10, importance: [{ column: 'age', weight: 3 }] });
    const cells = (report.anonymity.columns as { name: string; suppressedCells?: number }[]).reduce((sum, c) => sum + (c.suppressedCells ?? 0), 0);
    expect(cells).toBeGreaterThan(0);
    // From the released file: "*" cells are there, and every record is compatible with at least 10 records ("*" matches anything).
    const rows = readFileSync(join(OUT, 'release.csv'), 'utf8').trim().split(/\r?\n/).map((line) => line.split(','));
    const quasi = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'salary-class'].map((c) => rows[0]!.indexOf(c));
    const tuples = rows.slice(1).map((row) => quasi.map((i) => row[i]!));
    expect(tuples.flat().filter((v) => v === '*').length).toBeGreaterThanOrEqual(cells);
    const distinct = new Map<string, { tuple: string[]; count: number }>();
    for (const t of tuples) {
      const key = t.join('\u0000');
      const entry = distinct.get(key);
      if (entry) entry.count++;
      else distinct.set(key, { tuple: t, count: 1 });
    }
    const entries = [...distinct.values()];
    const compatible = (a: string[], b: string[]) => a.every((v, j) => v === '*' || b[j] === '*' || v === b[j]);
    for (const e of entries) expect(entries.reduce((sum, o) => sum + (compatible(e.tuple, o.tuple) ? o.count : 0), 0)).toBeGreaterThanOrEqual(10);
    journey.expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('partitioned recoding with the levels searched: one recoding for both parts, the levels in the report, every class of every part ≥ k', async ({ page: fixturePage }) => {
    const OUT = releaseOf('partitioned-recoding');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await journey.open(fixturePage);
    const { page } = s;
    await toParameters(page, { occupation: 'insensitive', 'salary-class': 'insensitive' }, /Partitioned recoding/);
    await page.getByLabel('k', { exact: true }).fill('5');
    await page.getByLabel('Parts', { exact: true }).fill('2');
    await page.getByLabel('Find the best levels for me (optimal recoding shared by every part)').check();
    await page.getByLabel('Suppression limit (%)').fill('2');
    await page.getByLabel('Hierarchy of age').selectOption('interval');
    await useArxHierarchies(page, ['sex', 'race', 'marital-status', 'education', 'native-country', 'workclass']);
    // The levels are the search's: the table offers none to type.
    await expect(page.getByLabel('Level of age').count()).resolves.toBe(0);
    await screenshot(page, 'partitioned-search-parameters');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText(/5-anonymity in every part/).first().waitFor({ timeout: 30_000 });
    await runToResults(page, 60_000);
    await screenshot(page, 'partitioned-search-results', true);
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8'));
    expect(report.job.method).toMatchObject({ levels: 'search', suppressionLimit: 0.02, parts: 2 });
    expect(Object.keys(report.method.levels).sort()).toEqual(['age', 'education', 'marital-status', 'native-country', 'race', 'sex', 'workclass']);
    // From the released file: every class of the quasi-identifiers within a part has at least 5 records.
    expect(smallestReleasedClass(OUT, ['part', 'age', 'education', 'marital-status', 'native-country', 'race', 'sex', 'workclass'])).toBeGreaterThanOrEqual(5);
    journey.expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });
});
