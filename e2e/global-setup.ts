import { execFileSync } from 'node:child_process';

/** The journeys drive the built dev host and CLI exactly as users run them; build them once. */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-cli.mjs', '--quiet'], { stdio: 'inherit' });
}
