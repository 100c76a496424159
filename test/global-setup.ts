import { execFileSync } from 'node:child_process';

/** CLI tests run the bundled command exactly as users do; build it once. */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-cli.mjs', '--quiet'], { stdio: 'inherit' });
}
