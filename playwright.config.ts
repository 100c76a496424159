import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, requireChromium } from './e2e/browser.js';

// The e2e journeys: Debian's Chromium (Playwright's own browser download cannot run here), one
// worker (the machines have two cores and the journeys run real jobs), traces and screenshots kept
// for failures, an HTML report in test-output/. The bundles are built first (e2e/global-setup.ts).
export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  outputDir: 'test-output/playwright',
  reporter: [['list'], ['html', { outputFolder: 'test-output/playwright-report', open: 'never' }]],
  workers: 1,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  forbidOnly: !!process.env.CI,
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: requireChromium(), args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
