// npm run bundle:offline [-- --out FILE]
// Writes a tarball from which `npm ci --offline` installs every dependency on a machine with Node
// only: an npm cache holding exactly what package-lock.json needs (for this platform: optional
// native packages such as esbuild's are per platform), the manifest and the lock, and how to use
// them. The cache is filled from the registry and checked by installing from it with the registry
// unreachable.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { npm, UNREACHABLE_NETWORK } from './offline-npm.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string', default: 'custos-offline-deps.tgz' } } });
const out = resolve(values.out);

function run(args, cwd, env = {}) {
  const result = spawnSync(npm, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', shell: process.platform === 'win32' });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${result.stderr || result.stdout}`);
  return result.stdout;
}

function projectCopy(dir) {
  mkdirSync(dir, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(root, file), join(dir, file));
  return dir;
}

const work = mkdtempSync(join(tmpdir(), 'custos-offline-'));
try {
  const bundle = join(work, 'custos-offline');
  const cache = join(bundle, 'npm-cache');
  // 1. Every package of the lock, fetched from the registry into a cache of its own (only what the lock needs).
  run(['ci', '--cache', cache, '--ignore-scripts', '--no-audit', '--no-fund'], projectCopy(join(work, 'fill')));
  // 2. The proof: the same install with the registry unreachable and only that cache.
  run(['ci', '--offline', '--cache', cache, '--ignore-scripts', '--no-audit', '--no-fund'], projectCopy(join(work, 'check')), UNREACHABLE_NETWORK);
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(root, file), join(bundle, file));
  writeFileSync(
    join(bundle, 'INSTALL-OFFLINE.txt'),
    [
      'Custos dependencies for a machine without network access.',
      '',
      '1. Copy the Custos source folder and this folder to the machine (Node 20.19 or later installed).',
      '2. In the Custos folder:  npm ci --offline --cache PATH/TO/custos-offline/npm-cache',
      '3. Then:  npm test   or   npx custos --help',
      '',
      `Made on ${process.platform}-${process.arch}: platform packages (esbuild's binary) are this platform's;`,
      'make the bundle on the platform it is for. The Electron binary is not included: the command line',
      'and the browser wizard (npm run dev:web) work without it; the desktop app needs an installer.',
      '',
    ].join('\n'),
  );
  const tar = spawnSync('tar', ['-czf', `${out}.tmp`, '-C', work, 'custos-offline'], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
  renameSync(`${out}.tmp`, out);
  process.stdout.write(`wrote ${out}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
