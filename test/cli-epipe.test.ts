/**
 * A reader that closes the pipe early (`custos verify DIR | head -1`, `| grep -q`): the command
 * ends quietly, with the exit status it has with a reader, and no EPIPE stack trace.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = resolve('dist/cli/custos.mjs');
const ENV = { ...process.env, CUSTOS_TEST_RANDOMNESS: undefined };

/** The command with its output's reader gone before it writes anything. */
function withClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: ENV });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe('stdout closed early (EPIPE)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-epipe-'));
  writeFileSync(join(dir, 'people.csv'), ['age,sex', ...Array.from({ length: 2000 }, (_, i) => `${20 + (i % 50)},${i % 2 ? 'F' : 'M'}`)].join('\n'));
  const commands: [string, string[]][] = [
    ['help', ['help']],
    ['--version', ['--version']],
    ['inspect --json', ['inspect', join(dir, 'people.csv'), '--json']],
    ['verify of a missing folder (its JSON error on stdout, exit 3)', ['verify', join(dir, 'missing'), '--json']],
  ];
  for (const [name, args] of commands) {
    it(`${name}: exits quietly with its own status`, async () => {
      const expected = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: ENV }).status;
      const closed = await withClosedPipe(args);
      expect(closed.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|at /);
      expect(closed.code).toBe(expected);
    });
  }
});
