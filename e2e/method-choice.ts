import type { Page } from '@playwright/test';

/**
 * On the Method step, picks a method from its card under "All methods" (the step asks the goal
 * first; a journey that is about another step chooses its method directly).
 */
export async function chooseMethod(page: Page, card: RegExp): Promise<void> {
  const all = page.locator('details.all-methods');
  if (!(await all.evaluate((d) => (d as HTMLDetailsElement).open))) await all.locator('summary').click();
  await page.getByRole('group', { name: 'All methods' }).getByRole('radio', { name: card }).check();
}
