import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';

test.use({ viewport: { width: 1100, height: 900 } });

test.describe('the HTML report in a browser', () => {
  let reportUrl: string;

  test.beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-e2e-'));
    const job = join(dir, 'job.json');
    writeFileSync(
      job,
      JSON.stringify({
        version: 1,
        input: { path: resolve('resources/adult/adult.csv') },
        attributes: { occupation: 'sensitive', 'salary-class': 'insensitive' },
        method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { occupation: 'from-data' } },
        output: { dir: 'out', formats: ['csv'] },
      }),
    );
    const run = spawnSync(process.execPath, ['dist/cli/custos.mjs', 'run', job, '--test-seed', '1'], {
      encoding: 'utf8',
      env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' },
    });
    expect(run.status, run.stderr).toBe(0);
    // The internal report has the charts of the confidential data; the published one leaves them out.
    reportUrl = pathToFileURL(join(dir, 'out-internal', 'internal-report.html')).toString();
  });

  test('renders the summary, the guarantee and the charts without any request or error', async ({ page }) => {
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(reportUrl);
    await expect(page.locator('h1').textContent()).resolves.toContain('Privacy report');
    await expect(page.locator('.verdict.ok').count()).resolves.toBe(1);
    expect(await page.locator('svg.chart').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('.notice').textContent()).toContain('NOT A PROTECTED RELEASE');
    expect(await page.locator('.confidential').textContent()).toContain('CONFIDENTIAL');
    const svgBox = await page.locator('svg.chart').first().boundingBox();
    expect(svgBox!.width).toBeGreaterThan(300);
    mkdirSync('test-output', { recursive: true });
    await page.screenshot({ path: 'test-output/report.png', fullPage: true });
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
  });
});
