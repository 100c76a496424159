/**
 * What a user waits for: `custos run` as a separate process, from the CSV on disk to the release
 * folder, timed against a naive scan of the same file measured in the same run, so the figures
 * are ratios that do not depend on how fast the machine is today.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { IPC_CHANNELS } from '../src/common/ipc/ipc-contract.js';
import { OpenAccess } from '../src/main/path-access.js';
import { AppSession } from '../src/main/session.js';
import type { Ratio } from './ratios.js';
import { REVIEW_CHECKS } from '../src/common/review/release-review.js';

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
    method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, bound: 'simplified', domains: { occupation: 'from-data' } },
    output: { dir: 'release', formats, report },
    // Reconstruction privacy publishes the quasi-identifiers as collected: the disclosure review
    // refuses such a release (exit 4) unless each check is acknowledged. It still runs and is timed.
    review: { acknowledge: REVIEW_CHECKS.map((check) => ({ check, reason: 'benchmark of run time: the quasi-identifiers are published as collected by design' })) },
  };
}

/**
 * The wizard's waits at this size, through the host's own handlers (what the page calls): opening
 * the file up to the first page of the preview, the first risk preview, and one after a parameter
 * change; and the longest the host's thread was busy meanwhile (the page waits on it).
 */
export async function wizardTimings(input: string, delimiter: string, dir: string): Promise<Ratio[]> {
  const session = new AppSession({
    info: { version: 'bench', host: 'web', samplePath: input, sampleName: 'census' },
    workerUrl: pathToFileURL(resolve('dist/cli/job-worker.mjs')),
    baseDir: dir,
    access: new OpenAccess(),
    chooseFile: async () => null,
    chooseFolder: async () => null,
    revealFolder: async () => undefined,
  });
  session.warmUp();
  await new Promise((r) => setTimeout(r, 500));
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const timed = async <T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> => {
    const t0 = performance.now();
    const value = await work();
    return { ms: performance.now() - t0, value };
  };
  const open = await timed(async () => {
    const opened = (await session.dispatch(IPC_CHANNELS.inspect, { path: input, options: { missing: [''] } })) as { ok: true; value: { fileId: string } };
    await session.dispatch(IPC_CHANNELS.rows, { fileId: opened.value.fileId, offset: 0, count: 200 });
    return opened;
  });
  if (!open.value.ok) throw new Error('the bench file did not open');
  const job = censusJob(input, delimiter, ['csv'], ['json']) as { method: { retention: number } };
  const assess = async (retention: number) => {
    const result = (await session.dispatch(IPC_CHANNELS.assess, { job: { ...job, method: { ...job.method, retention } } })) as { ok: boolean };
    if (!result.ok) throw new Error(`the bench assessment failed: ${JSON.stringify(result)}`);
  };
  const first = await timed(() => assess(0.5));
  const again = await timed(() => assess(0.6));
  loop.disable();
  await session.close();
  return [
    { name: 'wizard: open → first page of the preview', ms: open.ms },
    { name: 'wizard: first risk preview', ms: first.ms },
    { name: 'wizard: risk preview after a parameter change', ms: again.ms },
    { name: "wizard: the host thread's longest busy stretch meanwhile", ms: loop.max / 1e6, unchecked: true },
  ];
}
