import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
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
/** The release folder the wizard names for a run on the sample: after the input and the method (each test removes it before and after). */
const releaseOf = (method: string): string => resolve(`resources/adult/adult-${method}-release`);
let OUT = releaseOf('reconstruction-privacy');

interface Session {
  page: Page;
  requests: string[];
  errors: string[];
}

async function axeScan(page: Page, step: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `axe on step ${step}: ${JSON.stringify(serious)}`).toEqual([]);
}

/** A screenshot kept as a test artifact, after checking that no text on the page is cut off. */
async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
  expect(await clippedText(page), `clipped text on ${name} at ${page.viewportSize()?.width}px`).toEqual([]);
}

// Every journey gets a fresh context of Playwright's `page` fixture (traces and screenshots kept on failure).
test.use({ viewport: { width: 1280, height: 800 }, bypassCSP: true, acceptDownloads: true });

test.describe('the wizard in the browser (loopback dev host)', () => {
  let host: Awaited<ReturnType<typeof startHost>>;
  test.beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    host = await startHost();
  });
  test.afterAll(async () => {
    host?.stop();
  });

  async function open(page: Page): Promise<Session> {
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(host.url);
    return { page, requests, errors };
  }

  /** Opens the sample, sets roles, picks a method and moves to Parameters. */
  async function toParameters(page: Page, roles: Record<string, string>, method: RegExp): Promise<void> {
    await page.getByRole('button', { name: /Use the sample data/ }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    for (const [column, role] of Object.entries(roles)) await page.getByLabel(`Role of ${column}`).selectOption(role);
    await page.getByRole('button', { name: /Next: Method/ }).click();
    await chooseMethod(page, method);
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
  }

  /** The quasi-identifiers of ARX's Adult examples, each with a hierarchy file in resources/adult. */
  const ADULT_QUASI_IDENTIFIERS = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'salary-class'];

  /** The fewest records of any class of these columns in the released CSV (read back from the file, as a data user would). */
  function smallestReleasedClass(columns: readonly string[]): number {
    const rows = readFileSync(join(OUT, 'release.csv'), 'utf8').trim().split(/\r?\n/).map((line) => line.split(','));
    const at = columns.map((c) => rows[0]!.indexOf(c));
    expect(at.every((i) => i >= 0)).toBe(true);
    const classes = new Map<string, number>();
    for (const row of rows.slice(1)) {
      const key = at.map((i) => row[i]).join('\u0000');
      classes.set(key, (classes.get(key) ?? 0) + 1);
    }
    return Math.min(...classes.values());
  }

  /** Adult's ARX hierarchy file for each column. */
  async function useArxHierarchies(page: Page, columns: readonly string[]): Promise<void> {
    for (const column of columns) {
      await page.getByLabel(`Hierarchy of ${column}`).selectOption('file');
      await page.getByLabel(`Hierarchy file of ${column}`).fill(resolve(`resources/adult/adult_hierarchy_${column}.csv`));
    }
  }

  /** Safe k-anonymization with k solved from a target: age by intervals, the listed columns by Adult's ARX hierarchies. */
  async function toSafeK(page: Page, arxColumns: readonly string[]): Promise<void> {
    await toParameters(page, { occupation: 'sensitive' }, /Sampling \+ safe k-anonymization/);
    await page.getByLabel('Meet a target (ε, δ)').check();
    await page.getByLabel('Choose for me').selectOption('k');
    await page.getByLabel('Hierarchy of age').selectOption('interval');
    await useArxHierarchies(page, arxColumns);
  }

  function expectLoopbackOnly(s: Session): void {
    const outside = s.requests.filter((u) => !u.startsWith(`${host.origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
    expect(outside).toEqual([]);
  }

  test('full journey with the mouse: open → roles → reconstruction privacy → run → export, files read back', async ({ page: fixturePage }) => {
    // Every step shot twice and scanned with axe, the Method step in two states: on the shared two-core machines this passes two minutes.
    test.setTimeout(180_000);
    OUT = releaseOf('reconstruction-privacy');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await open(fixturePage);
    const { page } = s;
    // Every step at both sizes people use, kept as test artifacts, each scanned with axe.
    const shot = async (name: string): Promise<void> => {
      await screenshot(page, name);
      await page.setViewportSize({ width: 1920, height: 1080 });
      await screenshot(page, `${name}-1920`);
      await page.setViewportSize({ width: 1280, height: 800 });
      await axeScan(page, name);
    };
    await page.getByRole('heading', { name: '1. Open' }).waitFor();
    await page.getByRole('button', { name: /Use the sample data/ }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.getByRole('row', { name: /^1 / }).first().waitFor();
    // The preview keeps its height at 1280×800: ten rows and its horizontal scrollbar in reach.
    const preview = await page.evaluate(() => {
      const box = document.querySelector('.preview')!;
      const scroll = document.querySelector<HTMLElement>('.preview-scroll')!;
      return { outer: box.clientHeight, inner: scroll.offsetHeight, wide: scroll.scrollWidth > scroll.clientWidth };
    });
    expect(preview.inner).toBeGreaterThanOrEqual(10 * 28);
    expect(preview.outer).toBeGreaterThanOrEqual(preview.inner);
    expect(preview.wide).toBe(true);
    await page.locator('.preview-scroll').evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await page.getByRole('columnheader', { name: 'salary-class' }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'salary-class' }).isVisible()).toBe(true);
    await shot('1-open');
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    await page.getByLabel('Role of occupation').selectOption('sensitive');
    await page.getByLabel('Role of salary-class').selectOption('insensitive');
    await shot('2-columns');
    await page.getByRole('button', { name: /Next: Method/ }).click();
    // The goal first: the answers recommend the methods whose guarantee fits, each with its reason, and select the first.
    await page.getByRole('group', { name: 'What must the release protect?' }).getByRole('radio', { name: /^A sensitive value of people the attacker already identifies/ }).check();
    await page.getByRole('group', { name: 'What is the attacker assumed to know?' }).getByRole('radio', { name: /^Who is in the file/ }).check();
    await page.getByRole('group', { name: 'Must the release be record-level?' }).getByRole('radio', { name: /^Yes: one row per person/ }).check();
    const recommended = page.getByRole('group', { name: 'Recommended for these answers' });
    await expect(recommended.getByRole('radio')).toHaveCount(4);
    await expect(recommended.getByRole('radio', { name: /Optimal global recoding/ })).toHaveCount(0);
    await expect(recommended.getByRole('radio', { name: /^\(ε,δ\)-reconstruction privacy/ })).toBeChecked();
    await page.getByText(/publishes the quasi-identifiers \(age, postcode…\) as collected/).waitFor();
    await screenshot(page, '3-method-attribute');
    // Identity and the sensitive value: protect identity first (its step selected), the sensitive value's step said in words.
    await page.getByRole('group', { name: 'What must the release protect?' }).getByRole('radio', { name: /^Both/ }).check();
    await page.getByRole('heading', { name: 'Recommended: protect identity, then the sensitive value' }).waitFor();
    await expect(page.getByRole('group', { name: '1. Protect identity with' }).getByRole('radio', { name: /^Optimal global recoding/ })).toBeChecked();
    await shot('3-method');
    await chooseMethod(page, /Reconstruction privacy/);
    await page.getByRole('status').filter({ hasText: /Selected: \(ε,δ\)-reconstruction privacy.*does not fit these answers/ }).waitFor();
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    await page.getByRole('spinbutton', { name: 'ε (relative error)' }).fill('1.5');
    await page.getByText(/at most 1\.0714 for “occupation”/).first().waitFor();
    await page.getByRole('spinbutton', { name: 'ε (relative error)' }).fill('0.5');
    await shot('4-parameters');
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await page.getByText(/12,458 micro groups/).waitFor({ timeout: 20_000 });
    // Identity disclosure read plainly, before anything runs.
    await page.getByText(/In the input:.*% of the records are unique on these columns/).waitFor();
    // The disclosure review at the top, red: the quasi-identifiers are published as collected.
    await page.getByRole('alert').filter({ hasText: 'The disclosure review fails: this release is not publishable.' }).waitFor();
    await shot('5-risk');
    await acceptReview(page);
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await shot('6-run');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 30_000 });
    await page.getByText(/\(ε,δ\)-reconstruction privacy: holds/).waitFor();
    await page.getByText(/In the release:.*% of the records are unique on these columns/).waitFor();
    await shot('7-results');
    await page.getByRole('button', { name: /Next: Export/ }).click();
    await page.getByRole('cell', { name: 'report.pdf' }).waitFor();
    await shot('8-export');
    // The internal folder is named; the manifest downloads like the other release files.
    await page.getByText(`${OUT}-internal`).waitFor();
    const manifestDownload = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download manifest.json' }).click();
    const manifest = JSON.parse(readFileSync(await (await manifestDownload).path(), 'utf8'));
    expect(manifest.kind).toBe('release');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save the job file' }).click();
    const job = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
    expect(job.method).toMatchObject({ type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3 });
    expect(job.attributes.occupation).toBe('sensitive');
    // The exported files, read back from disk and re-verified by the auditor's command.
    const csv = readFileSync(join(OUT, 'release.csv'), 'utf8').trimEnd().split('\r\n');
    expect(csv[0]).toBe('sex,age,race,marital-status,education,native-country,workclass,occupation,salary-class');
    expect(Math.abs(csv.length - 1 - 30162)).toBeLessThan(300);
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8'));
    expect(report.risk.violatingAfter).toBe(0);
    expect(existsSync(join(OUT, 'report.pdf'))).toBe(true);
    const verify = spawnSync(process.execPath, ['dist/cli/custos.mjs', 'verify', OUT, '--original', 'resources/adult/adult.csv'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
    expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('the same journey by keyboard only', async ({ page: fixturePage }) => {
    OUT = releaseOf('reconstruction-privacy');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await open(fixturePage);
    const { page } = s;
    /** Presses Tab until the focused element's accessible text matches, then returns. */
    const tabTo = async (pattern: RegExp, limit = 80): Promise<void> => {
      for (let i = 0; i < limit; i++) {
        await page.keyboard.press('Tab');
        const label = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return el ? `${el.getAttribute('aria-label') ?? ''} ${el.innerText ?? ''} ${(el as HTMLInputElement).labels?.[0]?.innerText ?? ''}` : '';
        });
        if (pattern.test(label)) return;
      }
      throw new Error(`no focusable element matches ${pattern}`);
    };
    await page.getByRole('heading', { name: '1. Open' }).waitFor();
    await tabTo(/Use the sample data/);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    // The keyboard focus stays where the person pressed Enter while the file was read.
    await expect(page.getByRole('button', { name: /Use the sample data/ })).toBeFocused();
    await tabTo(/Next: Columns/);
    await page.keyboard.press('Enter');
    await tabTo(/Role of occupation/);
    await page.keyboard.press('s'); // "Sensitive"
    await tabTo(/Role of salary-class/);
    await page.keyboard.press('ArrowDown'); // quasi → sensitive
    await page.keyboard.press('ArrowDown'); // → insensitive
    expect(await page.getByLabel('Role of occupation').inputValue()).toBe('sensitive');
    expect(await page.getByLabel('Role of salary-class').inputValue()).toBe('insensitive');
    for (const next of [/Next: Method/, /Next: Parameters/, /Next: Risk preview/]) {
      await tabTo(next);
      await page.keyboard.press('Enter');
    }
    await page.getByText(/12,458 micro groups/).waitFor({ timeout: 20_000 });
    // The review refuses these quasi-identifiers as collected: "Release anyway" with a reason, by keyboard.
    await tabTo(/Release anyway/);
    await page.keyboard.press('Space');
    await tabTo(/Your reason/);
    await page.keyboard.type('a keyboard journey');
    // The acknowledgement changes the job: Next waits for the preview of the job as it now stands.
    await expect(page.getByRole('button', { name: /Next: Run/ })).toBeEnabled({ timeout: 20_000 });
    await tabTo(/Next: Run/);
    await page.keyboard.press('Enter');
    await tabTo(/^\s*Run\s*$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 30_000 });
    await tabTo(/Next: Export/);
    await page.keyboard.press('Enter');
    await page.getByRole('cell', { name: 'release.csv' }).waitFor();
    expect(existsSync(join(OUT, 'report.json'))).toBe(true);
    expectLoopbackOnly(s);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('β-privacy: infeasible values are flagged inline and the run is blocked until fixed', async ({ page: fixturePage }) => {
    const s = await open(fixturePage);
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
    expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
  });

  test('sampling + safe k-anonymization: hierarchies per column, k solved from a target, DP guarantee in the results', async ({ page: fixturePage }) => {
    OUT = releaseOf('safe-k-anonymity');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await open(fixturePage);
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
    await acceptReview(page);
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 30_000 });
    await page.getByText(/\(ε,δ\)-differential privacy: holds/).waitFor();
    await screenshot(page, 'safe-k-results');
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8'));
    expect(report.anonymity.k).toBe(9);
    expect(report.risk.minClassSize).toBeGreaterThanOrEqual(9);
    expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('safe k-anonymization with the differentially private search: λ and strategy reach the job and the report', async ({ page: fixturePage }) => {
    OUT = releaseOf('safe-k-anonymity');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await open(fixturePage);
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
    await acceptReview(page);
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'safe-k-search-results', true);
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8'));
    expect(report.method.derived).toMatchObject({ searchLossWeight: 0.25, searchStrategy: 'lattice', epsilonSelection: 0.1 });
    expect(report.risk.minClassSize).toBeGreaterThanOrEqual(report.anonymity.k);
    expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('classic de-identification: optimal global recoding with ℓ-diversity and k-anonymity, the chosen levels in the report', async ({ page: fixturePage }) => {
    OUT = releaseOf('global-recoding');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await open(fixturePage);
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
    await page.getByText(/no transformation of the [\d,]+ in the lattice meets distinct 2-diversity on occupation and 40000-anonymity/).first().waitFor();
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
    await acceptReview(page);
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 60_000 });
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
    expect(smallestReleasedClass(['age', 'education', 'marital-status', 'native-country', 'race', 'salary-class', 'sex', 'workclass'])).toBeGreaterThanOrEqual(5);
    expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('local suppression after the recoding: cells become "*", per column in the report, and every record stays compatible with k', async ({ page: fixturePage }) => {
    OUT = releaseOf('global-recoding');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await open(fixturePage);
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
    await acceptReview(page);
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 60_000 });
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
    expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('partitioned recoding with the levels searched: one recoding for both parts, the levels in the report, every class of every part ≥ k', async ({ page: fixturePage }) => {
    OUT = releaseOf('partitioned-recoding');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await open(fixturePage);
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
    await acceptReview(page);
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 60_000 });
    await screenshot(page, 'partitioned-search-results', true);
    const report = JSON.parse(readFileSync(join(OUT, 'report.json'), 'utf8'));
    expect(report.job.method).toMatchObject({ levels: 'search', suppressionLimit: 0.02, parts: 2 });
    expect(Object.keys(report.method.levels).sort()).toEqual(['age', 'education', 'marital-status', 'native-country', 'race', 'sex', 'workclass']);
    // From the released file: every class of the quasi-identifiers within a part has at least 5 records.
    expect(smallestReleasedClass(['part', 'age', 'education', 'marital-status', 'native-country', 'race', 'sex', 'workclass'])).toBeGreaterThanOrEqual(5);
    expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('a run the host refuses: the reason is brought into view and focused, nothing is written into the folder', async ({ page: fixturePage }) => {
    const folder = resolve('test-output/not-custos');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'notes.txt'), 'the custodian\'s own file\n');
    const s = await open(fixturePage);
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

  test('column names of any length and any text: the Columns table fits the window, every role within reach', async ({ page: fixturePage }) => {
    const folder = resolve('test-output/odd-names');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    // A label exported as a name: no space to break at.
    const long = `Household income before taxes as reported in the 2025 wave ${'and its follow-up questions '.repeat(9)}`.trim().replace(/ /g, '_');
    const path = join(folder, 'odd.csv');
    writeFileSync(path, [`"${long}",__proto__,constructor,diagnosis 🩺`, ...Array.from({ length: 60 }, (_, i) => `${1000 + (i % 7)},${i % 3},x${i % 2},${['flu', 'cold'][i % 2]}`)].join('\n') + '\n');
    const s = await open(fixturePage);
    const { page } = s;
    await page.getByLabel('File path').fill(path);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '4 columns' }).waitFor();
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    const width = page.viewportSize()!.width;
    for (const name of [long, '__proto__', 'constructor', 'diagnosis 🩺']) {
      const box = await page.getByLabel(`Role of ${name}`).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x + box!.width, `the role of ${name.slice(0, 20)}… lies within the window`).toBeLessThanOrEqual(width);
    }
    await page.getByLabel('Role of diagnosis 🩺').selectOption('sensitive');
    await screenshot(page, 'columns-odd-names');
    expect(s.errors).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });

  test('a file with a malformed row: the row is skipped and reported, the journey reaches Results; a failed open clears the file', async ({ page: fixturePage }) => {
    const folder = resolve('test-output/messy');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const lines = ['age,sex,diagnosis'];
    for (let i = 0; i < 300; i++) lines.push(`${20 + (i % 40)},${i % 2 ? 'F' : 'M'},${['flu', 'cold', 'HIV', 'asthma'][i % 4]}`);
    // Line 6 of the file has a field too many.
    lines.splice(5, 0, '31,F,flu,extra');
    const path = join(folder, 'messy.csv');
    writeFileSync(path, lines.join('\n') + '\n');
    const s = await open(fixturePage);
    const { page } = s;
    await page.getByLabel('File path').fill(path);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText(/1 row cannot be read: it is skipped, not released/).waitFor();
    await page.getByText(/Line 6/).waitFor();
    // Choosing to stop blocks the risk preview and the run until the choice is undone.
    await page.getByLabel('Rows that cannot be read').selectOption('error');
    await page.getByText(/the run will refuse the file/).waitFor();
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    await page.getByLabel('Role of diagnosis').selectOption('sensitive');
    await page.getByRole('button', { name: /Next: Method/ }).click();
    await page.getByRole('button', { name: /Next: Parameters/ }).click();
    expect(await page.getByRole('button', { name: /Next: Risk preview/ }).isDisabled()).toBe(true);
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Open/ }).click();
    await page.getByLabel('Rows that cannot be read').selectOption('skip');
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Parameters/ }).click();
    await page.getByRole('button', { name: /Next: Risk preview/ }).click();
    await acceptReview(page);
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 30_000 });
    await page.getByText(/reconstruction privacy: holds/).waitFor();
    const internal = JSON.parse(readFileSync(join(folder, 'messy-reconstruction-privacy-release-internal', 'internal-report.json'), 'utf8'));
    expect(internal.input.rejectedRowLines).toEqual([6]);
    expect(readFileSync(join(folder, 'messy-reconstruction-privacy-release-internal', 'internal-report.html'), 'utf8')).toMatch(/Rejected lines<\/th><td>6 \(skipped/);
    const job = JSON.parse(readFileSync(join(folder, 'messy-reconstruction-privacy-release', 'job.json'), 'utf8'));
    expect(job.input.onBadRow).toBe('skip');
    // A delimiter forced to the wrong one reads every line as one value: a warning, not a success.
    await page.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Open/ }).click();
    writeFileSync(join(folder, 'semicolons.csv'), 'age;sex;diagnosis\n30;F;flu\n40;M;cold\n');
    await page.getByLabel('Delimiter').selectOption(',');
    await page.getByLabel('File path').fill(join(folder, 'semicolons.csv'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText('Only one column was found.').waitFor();
    await page.getByLabel('Delimiter').selectOption('');
    await page.getByRole('status').filter({ hasText: '3 columns' }).waitFor();
    expect(await page.getByText('Only one column was found.').count()).toBe(0);
    // A file that cannot be opened replaces the earlier one everywhere: top bar, and the steps after Open.
    await page.getByLabel('File path').fill(join(folder, 'missing.csv'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText(/This file cannot be read/).waitFor();
    await page.locator('.file-name', { hasText: 'No file open' }).waitFor();
    expect(await page.getByRole('button', { name: /Next: Columns/ }).isDisabled()).toBe(true);
    expect(s.errors).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });

  test('a hierarchy file is checked where it is typed; a setting the host refuses in the risk preview keeps the run blocked', async ({ page: fixturePage }) => {
    const s = await open(fixturePage);
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

  test('work is never lost: after a reload the job draft (not the data) is offered back, step included', async ({ page: fixturePage }) => {
    const s = await open(fixturePage);
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
    const s = await open(fixturePage);
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

  test('recent files: a file opened before is one click away after a reload', async ({ page: fixturePage }) => {
    const s = await open(fixturePage);
    const { page } = s;
    await page.getByRole('button', { name: /Use the sample data/ }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.reload();
    const restore = page.getByRole('button', { name: 'Start afresh' });
    if (await restore.count()) await restore.click();
    const recent = page.getByRole('navigation', { name: 'Recent files' });
    await recent.getByRole('button', { name: 'adult.csv' }).click();
    await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    await page.locator('.file-name', { hasText: 'adult.csv' }).waitFor();
    await axeScan(page, 'recent');
    expect(s.errors).toEqual([]);
  });

  test('recent files after some use: three chips and More…, same-named files told apart, deleted files gone, the outcome of Open in view at 1024x640', async ({ page: fixturePage }) => {
    const folder = resolve('test-output/recent-many');
    rmSync(folder, { recursive: true, force: true });
    const paths = ['2024/release.csv', '2025/release.csv', 'a.csv', 'b.csv', 'c.csv', 'gone.csv'].map((p) => join(folder, p));
    for (const path of paths) {
      mkdirSync(resolve(path, '..'), { recursive: true });
      writeFileSync(path, 'age,sex,diagnosis\n' + Array.from({ length: 40 }, (_, i) => `${20 + i},${i % 2 ? 'F' : 'M'},${['flu', 'cold'][i % 2]}`).join('\n') + '\n');
    }
    const s = await open(fixturePage);
    const { page } = s;
    await page.setViewportSize({ width: 1024, height: 640 });
    for (const path of paths) {
      await page.getByLabel('File path').fill(path);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await page.locator('.file-name', { hasText: path.split('/').pop()! }).waitFor();
    }
    rmSync(paths[5]!);
    await page.reload();
    const restore = page.getByRole('button', { name: 'Start afresh' });
    if (await restore.count()) await restore.click();
    const recent = page.getByRole('navigation', { name: 'Recent files' });
    // The newest three; the deleted file is not offered; the two release.csv say their folders.
    await expect(recent.getByRole('button')).toHaveText(['c.csv', 'b.csv', 'a.csv', /^More… \(\d+\)$/]);
    await recent.getByRole('button', { name: /More…/ }).click();
    await recent.getByRole('button', { name: '2025/release.csv' }).waitFor();
    await recent.getByRole('button', { name: '2024/release.csv' }).waitFor();
    expect(await recent.getByRole('button', { name: 'gone.csv' }).count()).toBe(0);
    await recent.getByRole('button', { name: 'Fewer' }).click();
    await expect(page.getByLabel('File path')).toBeInViewport();
    await screenshot(page, 'open-recent-1024');
    // Open: the summary of what was read is scrolled into view, not left below the fold.
    await page.getByLabel('File path').fill(paths[0]!);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const summary = page.getByRole('status').filter({ hasText: '3 columns' });
    await summary.waitFor();
    await expect(summary).toBeInViewport();
    await screenshot(page, 'open-recent-opened-1024');
    // A failure too.
    await page.getByLabel('File path').fill(paths[5]!);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'This file cannot be read.' });
    await expect(failed).toContainText('gone.csv: the file does not exist (or a link points nowhere). Check the path');
    await expect(failed).toBeInViewport();
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'open-recent-failed-1280');
    await axeScan(page, 'open-recent');
    expect(s.errors).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });

  test('DP counts: marginals with exact noise from the wizard', async ({ page: fixturePage }) => {
    OUT = releaseOf('dp-counts');
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
    const s = await open(fixturePage);
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
    await acceptReview(page);
    await page.getByRole('button', { name: /Next: Run/ }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout: 30_000 });
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
    expectLoopbackOnly(s);
    expect(s.errors).toEqual([]);
    rmSync(OUT, { recursive: true, force: true });
    rmSync(`${OUT}-internal`, { recursive: true, force: true });
  });

  test('a workbook whose first sheet is notes opens on its data sheet; the notes sheet chosen fails naming it, with the Sheet selector to go back', async ({ page: fixturePage }) => {
    const folder = resolve('test-output/workbook');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const XLSX = require('xlsx') as typeof import('xlsx');
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Confidential survey 2025 — do not distribute'], ['Generated', '2025-01-05']]), 'Notes');
    const rows: (string | number)[][] = [['id', 'sex', 'age', 'region', 'disease']];
    for (let i = 0; i < 120; i++) rows.push([i + 1, i % 2 ? 'F' : 'M', 20 + (i % 60), ['North', 'South', 'East', 'West'][i % 4]!, ['flu', 'asthma', 'none', 'cancer'][(i * 7) % 4]!]);
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Data 2025');
    const path = join(folder, 'survey.xlsx');
    writeFileSync(path, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const s = await open(fixturePage);
    const { page } = s;
    await page.setViewportSize({ width: 1024, height: 640 });
    await page.getByLabel('File path').fill(path);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    // The sheet that holds the table opens, not the notes before it.
    const opened = page.getByRole('status').filter({ hasText: '5 columns' });
    await opened.waitFor();
    await expect(opened).toContainText('sheet “Data 2025”');
    const sheet = page.getByLabel('Sheet');
    await expect(sheet).toHaveValue('Data 2025');
    await sheet.selectOption('Notes');
    const error = page.locator('.callout', { hasText: 'This file cannot be read.' });
    await error.waitFor();
    // The sheet is named once, with the line; the advice is about sheets, never the delimiter.
    await expect(error).toContainText('survey.xlsx, sheet “Notes”, line 2: every one of the sheet');
    await expect(error).toContainText('The table may be on another sheet: choose it under “Sheet”.');
    await expect(error).not.toContainText(/delimiter|encoding|\(line/i);
    expect(await page.getByLabel('Delimiter').count()).toBe(0);
    expect(await page.getByLabel('Encoding').count()).toBe(0);
    await page.getByText(/Excel workbooks carry their own encoding/).waitFor();
    await expect(sheet).toHaveValue('Notes');
    await expect(sheet.locator('option')).toHaveText(['Notes', 'Data 2025']);
    // At 1024x640 the failure is scrolled into view with the Sheet selector that fixes it above it.
    await expect(error).toBeInViewport({ ratio: 1 });
    await expect(sheet).toBeInViewport();
    await screenshot(page, 'workbook-notes-failed-1024');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'workbook-notes-failed');
    await sheet.selectOption('Data 2025');
    const summary = page.getByRole('status').filter({ hasText: '5 columns' });
    await summary.waitFor();
    await expect(summary).toContainText('sheet “Data 2025”');
    expect(await page.locator('.callout', { hasText: 'This file cannot be read.' }).count()).toBe(0);
    await page.getByRole('cell', { name: 'North' }).first().waitFor();
    await expect(summary).toBeInViewport();
    await screenshot(page, 'workbook-data-sheet');
    await page.setViewportSize({ width: 1024, height: 640 });
    await screenshot(page, 'workbook-data-sheet-1024');
    await axeScan(page, 'workbook');
    expect(s.errors).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });

  test('an SPSS file opens with its value labels as values and its variable labels beside the column names', async ({ page: fixturePage }) => {
    const s = await open(fixturePage);
    const { page } = s;
    await page.getByLabel('File path').fill(resolve('test/fixtures/spss/people.zsav'));
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '7 columns' }).waitFor();
    await page.getByRole('cell', { name: 'Adm-clerical' }).first().waitFor();
    // Encoding and delimiter mean nothing for an SPSS file: they are not offered.
    await page.getByText(/SPSS files carry their own encoding/).waitFor();
    expect(await page.getByLabel('Delimiter').count()).toBe(0);
    await page.getByRole('button', { name: /Next: Columns/ }).click();
    await page.getByRole('rowheader', { name: /occupation\s*Occupation \(ISCO major group\)/ }).waitFor();
    await screenshot(page, 'spss-columns');
    await axeScan(page, 'spss-columns');
    expect(s.errors).toEqual([]);
  });

  test('a malformed message to the host is rejected with the reason, and the token is required', async () => {
    const post = (path: string, body: unknown, token: string | undefined) =>
      fetch(`${host.origin}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(token ? { 'X-Custos-Token': token } : {}) }, body: JSON.stringify(body) });
    const token = new URL(host.url).hash.replace('#token=', '');
    expect((await post('/api/custos:app-info', {}, undefined)).status).toBe(403);
    const bad = await post('/api/custos:rows', { fileId: 'x', offset: -1, count: 5 }, token);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/fileId|offset/);
    const unknown = await post('/api/custos:shell', {}, token);
    expect(unknown.status).toBe(400);
  });
});
