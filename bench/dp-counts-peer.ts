/**
 * Target 1 of issue 37: `custos run` of dp-counts on the census file beside the data-frame peer
 * (bench/dp-counts-polars.py: polars group-bys, SciPy's discrete Laplace), each in its own
 * process, alternated, so the ratio is of runs taken moments apart on the same (shared) machine.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCli } from './end-to-end.js';
import { median } from './summary.js';

/** The marginals counted: 5 columns of the census file, every 1- and 2-way marginal over the values found (222 answers). */
export const DP_COLUMNS = ['sex', 'race', 'marital-status', 'workclass', 'salary-class'] as const;
export const DP_EPSILON = 1;

export function dpCountsJob(input: string, delimiter: string): object {
  return {
    version: 1,
    input: { path: input, delimiter, missing: [''] },
    attributes: {},
    method: { type: 'dp-counts', queries: 'marginals', columns: DP_COLUMNS, epsilon: DP_EPSILON, noise: 'laplace', domains: Object.fromEntries(DP_COLUMNS.map((c) => [c, 'from-data'])) },
    output: { dir: 'release', formats: ['csv'], report: ['json'] },
  };
}

export type PeerComparison =
  | { readonly ran: true; readonly custosMs: number; readonly peerMs: number; readonly ratio: number; readonly custosRss: number; readonly peerRss: number; readonly rounds: number }
  | { readonly ran: false; readonly why: string };

/** Whether python3 with polars and SciPy is here: the peer runs only then. */
function peerAvailable(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import polars, scipy'], { encoding: 'utf8' });
  if (probe.error) return `python3 not found (${probe.error.message})`;
  if (probe.status !== 0) return `python3 has no polars or SciPy (pip install polars scipy): ${probe.stderr.trim().split('\n').at(-1)}`;
  return undefined;
}

/** One peer run in its own process, with the peak RSS it reports. */
function runPeer(input: string, delimiter: string, out: string): { ms: number; peakRss: number } {
  const args = [resolve('bench/dp-counts-polars.py'), input, delimiter, out, String(DP_EPSILON), ...DP_COLUMNS];
  const t0 = performance.now();
  const result = spawnSync('python3', args, { encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (result.status !== 0) throw new Error(`the polars peer exited ${result.status}: ${result.stderr}`);
  const [, rss] = result.stdout.trim().split(/\s+/);
  return { ms, peakRss: Number(rss) };
}

/** Median over `rounds` pairs (Custos first, then the peer, alternating which goes first) of each, and the median of the pairs' ratios. */
export function compareDpCounts(cli: string, probe: string, input: string, delimiter: string, dir: string, rounds = 3): PeerComparison {
  const missing = peerAvailable();
  if (missing) return { ran: false, why: missing };
  const jobPath = join(dir, 'dp-counts-job.json');
  writeFileSync(jobPath, JSON.stringify(dpCountsJob(input, delimiter)));
  const out = join(dir, 'dp-release');
  const custosRun = () => {
    rmSync(out, { recursive: true, force: true });
    rmSync(`${out}-internal`, { recursive: true, force: true });
    return runCli(cli, probe, ['run', jobPath, '--out', out], dir);
  };
  const peerRun = () => runPeer(input, delimiter, join(dir, 'dp-peer.csv'));
  const custos: { ms: number; peakRss: number }[] = [];
  const peer: { ms: number; peakRss: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      custos.push(custosRun());
      peer.push(peerRun());
    } else {
      peer.push(peerRun());
      custos.push(custosRun());
    }
  }
  return {
    ran: true,
    custosMs: median(custos.map((c) => c.ms)),
    peerMs: median(peer.map((p) => p.ms)),
    ratio: median(custos.map((c, i) => c.ms / peer[i]!.ms)),
    custosRss: Math.max(...custos.map((c) => c.peakRss)),
    peerRss: Math.max(...peer.map((p) => p.peakRss)),
    rounds,
  };
}
