import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

const require = createRequire(import.meta.url);

/**
 * The Electron binary npm installed, if it could be downloaded. Read from the package's path.txt
 * rather than by loading the package, which would try to download a missing binary.
 */
function electronBinary(): string | undefined {
  const dir = dirname(require.resolve('electron/package.json'));
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

const binary = electronBinary();

test.describe('the desktop app (Electron)', () => {
  test.skip(!binary, 'no Electron binary: it cannot be downloaded on this machine (ELECTRON_SKIP_BINARY_DOWNLOAD); the same renderer and IPC handlers run in the journeys through the loopback dev host');

  test('starts hardened, shows the wizard and opens the bundled sample', async () => {
    const built = spawnSync(process.execPath, [resolve('node_modules/electron-vite/bin/electron-vite.js'), 'build'], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    const app = await electron.launch({ executablePath: binary!, args: [resolve('out/main/index.js')] });
    try {
      const window = await app.firstWindow();
      await window.getByRole('heading', { name: '1. Open' }).waitFor();
      // getLastWebPreferences is Electron's own (undocumented in its types): the preferences the window really got.
      const preferences = await app.evaluate(({ BrowserWindow }) => (BrowserWindow.getAllWindows()[0]!.webContents as unknown as { getLastWebPreferences(): object }).getLastWebPreferences());
      expect(preferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
      expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
      await window.getByRole('button', { name: /Use the sample data/ }).click();
      await window.getByRole('status').filter({ hasText: '9 columns' }).waitFor();
    } finally {
      await app.close();
    }
  });
});
