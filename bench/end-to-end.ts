/**
 * What a user waits for: `custos run` as a separate process, from the CSV on disk to the release
 * folder, timed against a naive scan of the same file measured in the same run, so the figures
 * are ratios that do not depend on how fast the machine is today.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SCAN_CHUNK = 4 << 20;

/**
 * The floor any tool pays: read the file, split it into lines and fields, count one column's values.
 * Streams in 4 MiB chunks, so it also stands for a scan of a file larger than memory.
 */
export function naiveScan(path: string, column: number, delimiter = ','): { ms: number; distinct: number } {
  const t0 = performance.now();
  const counts = new Map<string, number>();
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(SCAN_CHUNK);
  const decoder = new TextDecoder();
  let rest = '';
  for (;;) {
    const n = readSync(fd, buffer, 0, SCAN_CHUNK, null);
    const text = rest + decoder.decode(buffer.subarray(0, n), { stream: n > 0 });
    const lines = text.split('\n');
    rest = n > 0 ? lines.pop()! : '';
    for (const line of lines) {
      if (line === '') continue;
      const value = line.split(delimiter)[column]!;
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    if (n === 0) break;
  }
  closeSync(fd);
  return { ms: performance.now() - t0, distinct: counts.size };
}

/** Writes a preload script that records the process's peak resident set size when it exits. */
export function writeRssProbe(dir: string): string {
  const probe = join(dir, 'rss-probe.cjs');
  writeFileSync(
    probe,
    "process.on('exit', () => { const f = process.env.CUSTOS_RSS_PROBE; if (f) require('fs').writeFileSync(f, String(process.resourceUsage().maxRSS * 1024)); });\n",
  );
  return probe;
}

export interface EndToEnd {
  readonly ms: number;
  readonly peakRss: number;
}

/** One `custos run` in its own Node process (worker thread included in its peak RSS). */
export function runCli(cli: string, probe: string, args: readonly string[], dir: string): EndToEnd {
  const rssFile = join(dir, 'rss.txt');
  rmSync(rssFile, { force: true });
  const t0 = performance.now();
  const result = spawnSync(process.execPath, ['--require', probe, cli, ...args], { encoding: 'utf8', env: { ...process.env, CUSTOS_RSS_PROBE: rssFile, NO_COLOR: '1' }, maxBuffer: 64 << 20 });
  const ms = performance.now() - t0;
  if (result.status !== 0) throw new Error(`custos ${args.join(' ')} exited ${result.status}: ${result.stderr || result.stdout}`);
  return { ms, peakRss: Number(readFileSync(rssFile, 'utf8')) };
}

/** The job: reconstruction privacy on occupation of the census file, with the given outputs. */
export function censusJob(input: string, delimiter: string, formats: readonly string[], report: readonly string[]): object {
  return {
    version: 1,
    input: { path: input, delimiter, missing: [''] },
    attributes: { occupation: 'sensitive' },
    method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, bound: 'simplified' },
    output: { dir: 'release', formats, report },
  };
}
