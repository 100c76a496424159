// What the wizard's journeys share: the loopback host, a page that records its requests and errors,
// the steps from the sample to Results, the keyboard's way to an element, axe and the screenshots.
import { readFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chooseMethod } from './method-choice.js';
import { startHost } from './dev-host.js';
import { clippedText } from './clipped-text.js';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const SHOTS = 'test-output/e2e';

/** The release folder the wizard names for a run on the sample: after the input and the method (each test removes it before and after). */
export const releaseOf = (method: string): string => resolve(`resources/adult/adult-${method}-release`);

/** The quasi-identifiers of ARX's Adult examples, each with a hierarchy file in resources/adult. */
export const ADULT_QUASI_IDENTIFIERS = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'salary-class'];

export interface Session {
  page: Page;
  requests: string[];
  errors: string[];
}

export type Host = Awaited<ReturnType<typeof startHost>>;

/**
 * The loopback dev host for the journeys of one describe block (started before them, stopped after),
 * with every journey on a fresh context of Playwright's `page` fixture (traces and screenshots kept on failure).
 */
export function useHost(): { readonly host: Host; open(page: Page): Promise<Session>; expectLoopbackOnly(s: Session): void } {
  let host: Host | undefined;
  test.beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    host = await startHost();
  });
  test.afterAll(async () => {
    host?.stop();
  });
  const started = (): Host => {
    if (!host) throw new Error('the dev host has not started');
    return host;
  };
  return {
    get host() {
      return started();
    },
    async open(page: Page): Promise<Session> {
      const requests: string[] = [];
      const errors: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(started().url);
      return { page, requests, errors };
    },
    expectLoopbackOnly(s: Session): void {
      const origin = started().origin;
      const outside = s.requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
      expect(outside).toEqual([]);
    },
  };
}

/** The viewport and permissions every wizard journey uses. */
export const JOURNEY_OPTIONS = { viewport: { width: 1280, height: 800 }, bypassCSP: true, acceptDownloads: true } as const;

/**
 * The disclosure review refuses a release whose quasi-identifiers are published as collected: journeys
 * about other things choose "Release anyway" with a reason when the preview offers it (test/review/ and
 * the review's own e2e steps test the review).
 */
export async function acceptReview(page: Page): Promise<void> {
  // The preview's verdict first: the choice is offered once the assessment is in.
  await page.getByText(/^The disclosure review (fails|passes)/).first().waitFor({ timeout: 30_000 });
  const choice = page.getByRole('checkbox', { name: /Release anyway/ });
  if ((await choice.count()) === 0) return;
  await choice.check();
  await page.getByRole('textbox', { name: /Your reason/ }).fill('an end-to-end test of the journey, not of the review');
}

export async function axeScan(page: Page, step: string): Promise<void> {
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
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
  expect(await clippedText(page), `clipped text on ${name} at ${page.viewportSize()?.width}px`).toEqual([]);
}

/** Opens the sample, sets roles, picks a method and moves to Parameters. */
export async function toParameters(page: Page, roles: Record<string, string>, method: RegExp): Promise<void> {
  await page.getByRole('button', { name: /Use the sample data/ }).click();
  await page.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
  await page.getByRole('button', { name: /Next: Columns/ }).click();
  for (const [column, role] of Object.entries(roles)) await page.getByLabel(`Role of ${column}`).selectOption(role);
  await page.getByRole('button', { name: /Next: Method/ }).click();
  await chooseMethod(page, method);
  await page.getByRole('button', { name: /Next: Parameters/ }).click();
}

/** From Parameters to Results: the risk preview (its review accepted when it fails), the run, and its heading. */
export async function runToResults(page: Page, timeout = 30_000): Promise<void> {
  await acceptReview(page);
  await page.getByRole('button', { name: /Next: Run/ }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('heading', { name: '7. Results' }).waitFor({ timeout });
}

/** Adult's ARX hierarchy file for each column. */
export async function useArxHierarchies(page: Page, columns: readonly string[]): Promise<void> {
  for (const column of columns) {
    await page.getByLabel(`Hierarchy of ${column}`).selectOption('file');
    await page.getByLabel(`Hierarchy file of ${column}`).fill(resolve(`resources/adult/adult_hierarchy_${column}.csv`));
  }
}

/** The fewest records of any class of these columns in the released CSV (read back from the file, as a data user would). */
export function smallestReleasedClass(out: string, columns: readonly string[]): number {
  const rows = readFileSync(join(out, 'release.csv'), 'utf8').trim().split(/\r?\n/).map((line) => line.split(','));
  const at = columns.map((c) => rows[0]!.indexOf(c));
  expect(at.every((i) => i >= 0)).toBe(true);
  const classes = new Map<string, number>();
  for (const row of rows.slice(1)) {
    const key = at.map((i) => row[i]).join('\u0000');
    classes.set(key, (classes.get(key) ?? 0) + 1);
  }
  return Math.min(...classes.values());
}

/**
 * The keyboard's way to an element. A pattern: Tab until the focused element's accessible text
 * matches. A locator: Tab, or Shift+Tab when the element comes before the focus, until it has the focus.
 */
export async function tabTo(page: Page, target: RegExp | Locator, limit = target instanceof RegExp ? 80 : 150): Promise<void> {
  if (target instanceof RegExp) {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      const label = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el ? `${el.getAttribute('aria-label') ?? ''} ${el.innerText ?? ''} ${(el as HTMLInputElement).labels?.[0]?.innerText ?? ''}` : '';
      });
      if (target.test(label)) return;
    }
    throw new Error(`no focusable element matches ${target}`);
  }
  const handle = await target.elementHandle();
  for (let i = 0; i < limit; i++) {
    const where = await page.evaluate((el) => (document.activeElement === el ? 'here' : document.activeElement && document.activeElement !== document.body && el!.compareDocumentPosition(document.activeElement) & Node.DOCUMENT_POSITION_FOLLOWING ? 'after' : 'before'), handle);
    if (where === 'here') return;
    await page.keyboard.press(where === 'after' ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

/** Chooses an option of a focused closed <select> by its text with the arrow keys. */
export async function chooseByKeys(page: Page, select: Locator, text: RegExp): Promise<void> {
  await tabTo(page, select);
  const options = await select.locator('option').allTextContents();
  const want = options.findIndex((o) => text.test(o));
  if (want < 0) throw new Error(`no option ${text} in ${options.join(' | ')}`);
  const at = await select.evaluate((el) => (el as HTMLSelectElement).selectedIndex);
  for (let i = at; i < want; i++) await page.keyboard.press('ArrowDown');
  for (let i = at; i > want; i--) await page.keyboard.press('ArrowUp');
  await expect(select.locator('option:checked')).toHaveText(text);
}

/** At both sizes people use, each checked for cut-off text. */
export async function shots(page: Page, name: string): Promise<void> {
  for (const [width, height, suffix] of [[1280, 800, ''], [1920, 1080, '-1920']] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(SHOTS, `${name}${suffix}.png`) });
    expect(await clippedText(page), `clipped text on ${name} at ${width}px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
