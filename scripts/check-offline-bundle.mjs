// Part of `npm test`, after vitest (it installs packages, so it runs alone): makes the offline
// bundle, unpacks it elsewhere and installs every dependency from it with the network closed
// (`npm ci --offline`, proxies pointing at a closed port). Fails if anything is missing.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { npm, UNREACHABLE_NETWORK } from './offline-npm.mjs';

const work = mkdtempSync(join(tmpdir(), 'custos-offline-check-'));
const fail = (message) => {
  process.stderr.write(`offline bundle check failed: ${message}\n`);
  process.exitCode = 1;
};
// Making the bundle needs the registry. On a machine without it (an air-gapped one, installed from
// this very bundle) the check cannot run and says so; in CI a missing registry is a failure.
const ping = spawnSync(npm, ['ping', '--fetch-timeout=8000', '--fetch-retries=0'], { encoding: 'utf8', shell: process.platform === 'win32' });
const offline = ping.status !== 0;
try {
  if (offline && !process.env.CI) {
    process.stdout.write('offline bundle check skipped: the npm registry is unreachable from here (making the bundle needs it)\n');
    rmSync(work, { recursive: true, force: true });
    process.exit(0);
  }
  if (offline) throw new Error('CI: the npm registry is unreachable, so the offline bundle cannot be made and checked');
  const tarball = join(work, 'bundle.tgz');
  const made = spawnSync(process.execPath, [resolve('scripts/bundle-offline.mjs'), '--out', tarball], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`bundle:offline failed: ${made.stderr}`);
  const unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  const tar = spawnSync('tar', ['-xzf', tarball, '-C', unpacked], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
  const bundle = join(unpacked, 'custos-offline');
  const project = join(work, 'project');
  mkdirSync(project);
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(bundle, file), join(project, file));
  const install = spawnSync(npm, ['ci', '--offline', '--cache', join(bundle, 'npm-cache'), '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, ...UNREACHABLE_NETWORK },
    shell: process.platform === 'win32',
  });
  if (install.status !== 0) fail(`npm ci --offline from the bundle: ${install.stderr}`);
  else if (!['zod', 'xlsx', 'pdfkit', 'vitest', 'esbuild'].every((name) => existsSync(join(project, 'node_modules', name, 'package.json')))) fail('packages missing after the offline install');
  else if (!existsSync(join(bundle, 'INSTALL-OFFLINE.txt'))) fail('INSTALL-OFFLINE.txt missing');
  else process.stdout.write('offline bundle: every dependency installs from it with the network closed\n');
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  rmSync(work, { recursive: true, force: true });
}
