// The methods of the sensitive value and of counts: β-privacy's infeasible values, DP counts' public values, its release and its recent job.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { axeScan, releaseOf, screenshot, toParameters, runToResults, JOURNEY_OPTIONS, useHost } from './journey.js';

test.use(JOURNEY_OPTIONS);

test.describe('the wizard in the browser (loopback dev host): β-privacy and DP counts', () => {
  const journey = useHost();

  test('β-privacy: infeasible values are flagged inline and the run is blocked until fixed', async ({ page: fixturePage }) => {
    const s = await journey.open(fixturePage);
    const { page } = s;
    await toParameters(page, { occupation: 'sensitive' }, /β-privacy buckets/);
    await page.getByLabel('β thresholds').selectOption('values');
    await page.getByLabel('Default β').fill('0.1');
    await expect(page.getByText(/infeasible: β must be at least f = 0\.1339/).count()).resolves.toBe(1);
    expect(await page.getByText(/infeasible: β must be at least f = 0\.1339/).getAttribute('title')).toBe('f = 4038/30162 exactly');
    expect(await page.getByRole('button', { name: /Next: Risk preview/ }).isDisabled()).toBe(true);
    await page.getByLabel('Default β').fill('1/4');
    await page.getByLabel('β for Armed-Forces').fill('1/2');
    await page.getByLabel('β for Prof-specialty').fill('0.3');
    await page.getByLabel('Largest bucket').fill('50');
    await screenshot(page, 'beta-parameters');
    await axeScan(page, 'beta-parameters');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText(/A β-private bucketization exists/).waitFor({ timeout: 20_000 });
    await screenshot(page, 'beta-risk');
    journey.expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
  });

  test('DP counts: marginals with exact noise from the wizard', async ({ page: fixturePage }) => {
    const OUT = releaseOf('dp-counts');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await journey.open(fixturePage);
    const { page } = s;
    await toParameters(page, {}, /Differentially private counts/);
    await page.getByLabel('sex (2 values)').check();
    await page.getByLabel('salary-class (2 values)').check();
    // Public values: a declared domain must hold every value of the data, and may add values it lacks.
    await page.getByLabel('Public values of sex').fill('Female, Other');
    await page.locator('.error-text', { hasText: 'the data also hold “Male”' }).waitFor();
    expect(await page.getByRole('button', { name: /Next: Risk preview/ }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: "Use the file's 2 values" }).first().click();
    await expect(page.getByLabel('Public values of sex').inputValue()).resolves.toBe('Female, Male');
    await page.getByLabel('Public values of sex').fill('Female, Male, Intersex');
    // salary-class was proposed from the file (the declared form); its values are taken from the data here, on purpose.
    await expect(page.getByLabel('Public values of salary-class').inputValue()).resolves.toBe('<=50K, >50K');
    await page.getByRole('button', { name: 'Take the values from the data' }).nth(1).click();
    await expect(page.getByLabel('Public values of salary-class').inputValue()).resolves.toBe('from-data');
    await screenshot(page, 'dp-parameters', true);
    await axeScan(page, 'dp-parameters');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText(/Δ = 3/).waitFor({ timeout: 20_000 });
    // The report's warnings are shown before anything runs: salary-class's values come from the data.
    await page.getByText(/cells of “salary-class” are the values present in the input/).waitFor();
    await screenshot(page, 'dp-risk', true);
    await axeScan(page, 'dp-risk');
    await runToResults(page);
    // salary-class's cells come from the input: the guarantee's name says the counts are what ε-DP covers.
    await page.getByText(/ε-differential privacy of the counts \(their cells come from the input\): holds/).waitFor();
    // The noisy table with its intervals, as released.
    await page.getByRole('heading', { name: 'The released counts' }).waitFor();
    await page.getByRole('rowheader', { name: 'sex = Intersex', exact: true }).waitFor();
    await screenshot(page, 'dp-results', true);
    await axeScan(page, 'dp-results');
    const answers = readFileSync(join(OUT, 'answers.csv'), 'utf8').trim().split('\r\n');
    expect(answers[0]).toBe('sex,salary-class,answer,scale,lower95,upper95');
    // sex: 3 cells (Intersex declared, absent from the data), salary-class 2 from the data, 3 × 2 crossed.
    expect(answers).toHaveLength(1 + 3 + 2 + 6);
    expect(answers.some((line) => line.startsWith('Intersex,(all),'))).toBe(true);
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8'));
    expect(report.warnings.join(' ')).toMatch(/cells of “salary-class” are the values present in the input/);
    expect(report.warnings.join(' ')).not.toMatch(/“sex”/);
    // The job that ran is one click away on the Open step, settings included, after a reload.
    await page.reload();
    const afresh = page.getByRole('button', { name: 'Start afresh' });
    if (await afresh.count()) await afresh.click();
    const jobs = page.getByRole('navigation', { name: 'Recent jobs' });
    await jobs.waitFor();
    await screenshot(page, 'open-recent-jobs');
    await jobs.getByRole('button', { name: /^adult\.csv · Differentially private counts · / }).first().click();
    await page.getByRole('heading', { name: '4. Parameters' }).waitFor({ timeout: 20_000 });
    await expect(page.getByLabel('Public values of sex').inputValue()).resolves.toBe('Female, Male, Intersex');
    await axeScan(page, 'recent-jobs');
    journey.expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });
});
