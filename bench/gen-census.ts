/**
 * Census-like benchmark data: Adult rows drawn with replacement (realistic
 * marginals and correlations), ages jittered by up to ±jitter years, and a
 * Zipf(1)-skewed region column over `regions` regions. Deterministic for a
 * seed; mulberry32 is fine for test data and is never used for privacy noise.
 */
import { readFileSync, writeSync } from 'node:fs';

export interface CensusOptions {
  readonly rows: number;
  readonly seed: number;
  readonly jitter: number;
  readonly regions: number;
  readonly seedFile: string;
}

export function writeCensus(fd: number, options: CensusOptions): void {
  let state = options.seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const lines = readFileSync(options.seedFile, 'utf8').split(/\r?\n/).filter((l) => l.length > 0);
  const header = lines[0]!.split(';');
  const body = lines.slice(1).map((l) => l.split(';'));
  const ageAt = header.indexOf('age');
  const cdf: number[] = [];
  for (let r = 1, total = 0; r <= options.regions; r++) cdf.push((total += 1 / r));
  const region = (): string => {
    const u = random() * cdf[cdf.length - 1]!;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return `R${String(lo + 1).padStart(3, '0')}`;
  };
  const chunk: string[] = [(options.regions > 0 ? ['region', ...header] : header).join(';')];
  const flush = (): void => {
    writeSync(fd, chunk.join('\n') + '\n');
    chunk.length = 0;
  };
  for (let i = 0; i < options.rows; i++) {
    const row = body[Math.floor(random() * body.length)]!.slice();
    if (options.jitter > 0 && ageAt >= 0) {
      const moved = Number(row[ageAt]) + Math.round((random() * 2 - 1) * options.jitter);
      row[ageAt] = String(Math.min(90, Math.max(17, moved)));
    }
    chunk.push((options.regions > 0 ? [region(), ...row] : row).join(';'));
    if (chunk.length >= 20000) flush();
  }
  flush();
}
