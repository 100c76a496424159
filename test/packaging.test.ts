import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listPackage } from '@electron/asar';
import { build, Platform, type Configuration } from 'electron-builder';

// The installers themselves need Electron's binaries, which cannot be downloaded here. What can be
// checked is checked: the configuration validates, and electron-builder's own packaging, run on a
// stand-in Electron folder, puts exactly the app into app.asar and the sample data beside it.
const require = createRequire(import.meta.url);
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as { validateConfiguration: (config: Configuration, logger: unknown) => Promise<void> };
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const config = JSON.parse(readFileSync('electron-builder.json', 'utf8')) as Configuration & { $schema?: string };
delete config.$schema;

describe('desktop packaging (electron-builder)', () => {
  let files: readonly string[] = [];
  let resources: readonly string[] = [];

  beforeAll(async () => {
    const app = spawnSync(process.execPath, [resolve('node_modules/electron-vite/bin/electron-vite.js'), 'build'], { encoding: 'utf8' });
    expect(app.status, app.stderr).toBe(0);
    const work = mkdtempSync(join(tmpdir(), 'custos-pack-'));
    const fakeElectron = join(work, 'electron-dist');
    mkdirSync(fakeElectron);
    writeFileSync(join(fakeElectron, 'electron'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(fakeElectron, 'electron'), 0o755);
    // Fuses are flipped in the real binary only; the stand-in has none to flip.
    // Given as a file so electron-builder reads it instead of (not merged with) electron-builder.json.
    const packConfig = join(work, 'electron-builder.json');
    writeFileSync(packConfig, JSON.stringify({ ...config, electronDist: fakeElectron, electronFuses: null, directories: { ...config.directories, output: join(work, 'out') } }));
    await build({ targets: Platform.LINUX.createTarget('dir'), config: packConfig, projectDir: resolve('.') });
    const unpacked = join(work, 'out', 'linux-unpacked', 'resources');
    files = listPackage(join(unpacked, 'app.asar'), { isPack: false }).map((f) => f.replaceAll('\\', '/'));
    resources = readdirSync(unpacked);
    expect(existsSync(join(unpacked, 'adult', 'adult.csv'))).toBe(true);
  }, 240_000);

  it('validates against electron-builder\'s schema, and a misspelt key does not', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, linux: { ...config.linux, tagret: 'deb' } } as Configuration, new DebugLogger(false))).rejects.toThrow(/Invalid configuration object[\s\S]*configuration.linux/);
  });

  it('targets every platform, publishes nowhere and hardens the Electron binary', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.win?.target).toEqual(['nsis', 'portable']);
    expect(config.mac?.target).toEqual(['dmg']);
    // No auto-update: nothing to publish, so no app-update.yml and no update check at run time.
    expect(config.publish).toBeNull();
    expect(resources).not.toContain('app-update.yml');
    expect(config.electronFuses).toMatchObject({ runAsNode: false, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false, onlyLoadAppFromAsar: true, enableEmbeddedAsarIntegrityValidation: true });
  });

  it('packages the renderer, preload, main, worker, fonts and sample data', () => {
    for (const needed of ['/package.json', '/out/main/index.js', '/out/main/job-worker.js', '/out/main/helper-worker.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/out/renderer/app.js', '/out/renderer/styles.css', '/node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf', '/node_modules/pdfkit/package.json', '/node_modules/xlsx/package.json', '/node_modules/zod/package.json', '/node_modules/electron-store/package.json']) {
      expect(files, needed).toContain(needed);
    }
    expect(resources).toContain('adult');
  });

  it('packages nothing from the sources, tests, benchmarks, scripts or development packages', () => {
    const top = new Set(files.map((f) => f.split('/')[1]));
    expect([...top].sort()).toEqual(['node_modules', 'out', 'package.json']);
    expect(files.filter((f) => f.endsWith('.map') && f.startsWith('/out/'))).toEqual([]);
    for (const dev of ['electron', 'electron-builder', 'vitest', 'typescript', 'playwright-core', 'react', 'esbuild', 'fast-check', 'postject', 'electron-updater']) {
      expect(files, dev).not.toContain(`/node_modules/${dev}`);
    }
  });
});
