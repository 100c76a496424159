#!/usr/bin/env node
// `npx custos` and a global install run the bundled command line; a fresh checkout bundles it first
// (esbuild, well under a second), so the command works right after `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli/custos.mjs', import.meta.url);
if (!existsSync(cli)) {
  const built = spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/build-cli.mjs', import.meta.url)), '--quiet'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(cli.href);
