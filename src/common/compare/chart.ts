import { esc } from '../report/format.js';
import type { CandidateResult } from './comparison.js';
import { QUERY_ERROR_AXIS, type UtilityAxis } from './axes.js';

const WIDTH = 640;
const HEIGHT = 420;
const LEFT = 70;
const BOTTOM = 50;
const TOP = 20;
const RIGHT = 20;
/** Risk 0 is drawn this far right of the axis, so points there do not sit on it or on its tick labels. */
const INSET = 14;

/** Where the chart puts things: its size, margins, scales and ticks (shared by the report's SVG and the app's chart). */
export interface ChartLayout {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly bottom: number;
  readonly top: number;
  readonly right: number;
  readonly logScale: boolean;
  readonly maxRisk: number;
  readonly riskTicks: readonly number[];
  readonly errorTicks: readonly number[];
  readonly x: (risk: number) => number;
  readonly y: (error: number) => number;
  /** The candidates that can be placed (a risk and an error to place them by). */
  readonly placed: readonly CandidateResult[];
}

export function percent(v: number): string {
  return `${(100 * v).toFixed(v < 0.01 && v > 0 ? 2 : 1)}%`;
}

/** An error tick's text: a power of ten on the log scale, three decimals on the linear one. */
export function errorTickText(layout: ChartLayout, e: number): string {
  return layout.logScale ? String(Number(e.toPrecision(1))) : e.toFixed(3);
}

/**
 * The scales: risk linear from 0; error linear from 0, or logarithmic when the
 * errors differ more than twentyfold (generalized releases err a hundred times
 * more than randomized ones on Adult, and all but the worst would sit on the axis).
 */
export function chartLayout(candidates: readonly CandidateResult[], axis: UtilityAxis = QUERY_ERROR_AXIS): ChartLayout {
  const placed = candidates.filter((c) => axis.value(c.utility) !== undefined && Number.isFinite(c.risk.share));
  const maxRisk = Math.max(1e-9, ...placed.map((c) => c.risk.share)) * 1.08;
  const errors = placed.map((c) => axis.value(c.utility)!);
  const maxError = Math.max(1e-9, ...errors) * 1.08;
  const positive = errors.filter((e) => e > 0);
  const minError = positive.length ? Math.min(...positive) : maxError;
  const logScale = maxError / minError > 20;
  const low = logScale ? 10 ** Math.floor(Math.log10(minError)) : 0;
  const high = logScale ? 10 ** Math.ceil(Math.log10(maxError)) : maxError;
  const x = (risk: number) => LEFT + INSET + (risk / maxRisk) * (WIDTH - LEFT - RIGHT - INSET);
  const share = (error: number) => (logScale ? (Math.log10(Math.max(error, low)) - Math.log10(low)) / (Math.log10(high) - Math.log10(low)) : error / high);
  const y = (error: number) => HEIGHT - BOTTOM - share(error) * (HEIGHT - BOTTOM - TOP);
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const errorTicks = logScale ? Array.from({ length: Math.round(Math.log10(high / low)) + 1 }, (_, i) => low * 10 ** i) : ticks.map((t) => t * high);
  return { width: WIDTH, height: HEIGHT, left: LEFT, bottom: BOTTOM, top: TOP, right: RIGHT, logScale, maxRisk, riskTicks: ticks.map((t) => t * maxRisk), errorTicks, x, y, placed };
}

/** A point's parameters and guarantee in words (its hover text). */
export function pointTitle(c: CandidateResult, axis: UtilityAxis = QUERY_ERROR_AXIS, onFrontier = c.frontier): string {
  const value = axis.value(c.utility);
  return `${c.id}. ${c.label}: ${c.parameters}; ${c.guarantee.label}; risk ${percent(c.risk.share)}, ${axis.words.toLowerCase()} ${value === undefined ? 'n/a' : axis.text(value)}${onFrontier ? ' (on the frontier)' : ''}`;
}

/**
 * Risk against error as inline SVG (no scripts): one point per candidate,
 * labelled with its number, the frontier drawn as a line through its points
 * and its points filled. Each point carries a <title> with its parameters and
 * guarantee, which browsers show on hover.
 */
export function riskErrorChart(candidates: readonly CandidateResult[]): string {
  const layout = chartLayout(candidates);
  const { placed, x, y, maxRisk, logScale, errorTicks } = layout;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const axes =
    `<line x1="${LEFT}" y1="${HEIGHT - BOTTOM}" x2="${WIDTH - RIGHT}" y2="${HEIGHT - BOTTOM}" stroke="#444"/>` +
    `<line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${HEIGHT - BOTTOM}" stroke="#444"/>` +
    ticks.map((t) => `<text x="${x(t * maxRisk).toFixed(1)}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle" font-size="11">${esc(percent(t * maxRisk))}</text>`).join('') +
    errorTicks.map((e) => `<text x="${LEFT - 6}" y="${(y(e) + 4).toFixed(1)}" text-anchor="end" font-size="11">${esc(errorTickText(layout, e))}</text>`).join('') +
    `<text x="${(LEFT + WIDTH - RIGHT) / 2}" y="${HEIGHT - 12}" text-anchor="middle" font-size="12">risk: share of records recovered by the method's attack (lower is better)</text>` +
    `<text transform="translate(16 ${(TOP + HEIGHT - BOTTOM) / 2}) rotate(-90)" text-anchor="middle" font-size="12">common-pool query error${logScale ? ', log scale' : ''} (lower is better)</text>`;
  const front = placed.filter((c) => c.frontier).sort((a, b) => a.risk.share - b.risk.share);
  const line = front.length > 1 ? `<polyline fill="none" stroke="#1b6e3a" stroke-width="2" points="${front.map((c) => `${x(c.risk.share).toFixed(1)},${y(c.utility.relativeError!).toFixed(1)}`).join(' ')}"/>` : '';
  const points = placed
    .map((c) => {
      const cx = x(c.risk.share).toFixed(1);
      const cy = y(c.utility.relativeError!).toFixed(1);
      const title = pointTitle(c);
      return (
        `<g><title>${esc(title)}</title>` +
        `<circle cx="${cx}" cy="${cy}" r="6" fill="${c.frontier ? '#1b6e3a' : '#fff'}" stroke="${c.frontier ? '#1b6e3a' : '#3a5a8c'}" stroke-width="2"/>` +
        `<text x="${(Number(cx) + 8).toFixed(1)}" y="${(Number(cy) - 8).toFixed(1)}" font-size="11">${c.id}</text></g>`
      );
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="Risk against common-pool query error per candidate; filled points are on the non-dominated frontier">${axes}${line}${points}</svg>`;
}
