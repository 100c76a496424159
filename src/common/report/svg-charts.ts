import { esc } from './format.js';
import { formatNumber } from '../format/numbers.js';

export interface Bar {
  readonly label: string;
  readonly value: number;
  readonly tone: 'danger' | 'safe' | 'neutral' | 'muted';
  /** The value as written after its bar (else `format` of it). */
  readonly text?: string;
}

const TONES = { danger: '#b3261e', safe: '#1b6e3a', neutral: '#3a5a8c', muted: '#8a919c' } as const;

/** A horizontal bar chart as inline SVG (no scripts, prints as drawn). */
export function barChart(title: string, bars: readonly Bar[], format: (v: number) => string = (v) => formatNumber(v)): string {
  const width = 560;
  const rowHeight = 30;
  const labelWidth = 210;
  const height = bars.length * rowHeight + 34;
  const finite = bars.map((b) => (Number.isFinite(b.value) ? b.value : 0));
  const max = Math.max(...finite, 1e-12);
  const rows = bars
    .map((b, i) => {
      const y = 28 + i * rowHeight;
      const w = Math.max(1, ((Number.isFinite(b.value) ? b.value : 0) / max) * (width - labelWidth - 90));
      return (
        `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${esc(b.label)}</text>` +
        `<rect x="${labelWidth}" y="${y + 2}" width="${w.toFixed(1)}" height="18" fill="${TONES[b.tone]}" rx="2"/>` +
        `<text x="${(labelWidth + w + 6).toFixed(1)}" y="${y + 15}">${esc(b.text ?? format(b.value))}</text>`
      );
    })
    .join('');
  return (
    `<svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">` +
    `<text x="0" y="16" class="chart-title">${esc(title)}</text>${rows}</svg>`
  );
}

/** Paired dots on a 0..1 axis: truth versus an adversary's estimate, per row. */
export function estimatePlot(
  title: string,
  rows: readonly { label: string; truth: number; before: number; after?: number }[],
): string {
  const width = 560;
  const left = 210;
  const right = width - 30;
  const rowHeight = 26;
  const height = rows.length * rowHeight + 60;
  const x = (v: number): number => left + Math.min(1.1, Math.max(-0.1, v)) / 1.2 * (right - left) + (0.1 / 1.2) * (right - left);
  const axis = [0, 0.25, 0.5, 0.75, 1]
    .map((t) => `<line x1="${x(t)}" y1="24" x2="${x(t)}" y2="${height - 26}" class="grid"/><text x="${x(t)}" y="${height - 10}" text-anchor="middle">${t}</text>`)
    .join('');
  const marks = rows
    .map((r, i) => {
      const y = 36 + i * rowHeight;
      const dot = (v: number | undefined, color: string, shape: 'circle' | 'square'): string => {
        if (v === undefined || !Number.isFinite(v)) return '';
        return shape === 'circle'
          ? `<circle cx="${x(v).toFixed(1)}" cy="${y}" r="6" fill="${color}"/>`
          : `<rect x="${(x(v) - 5).toFixed(1)}" y="${y - 5}" width="10" height="10" fill="${color}"/>`;
      };
      return (
        `<text x="${left - 8}" y="${y + 4}" text-anchor="end">${esc(r.label)}</text>` +
        dot(r.truth, '#222', 'square') + dot(r.before, TONES.danger, 'circle') + dot(r.after, TONES.safe, 'circle')
      );
    })
    .join('');
  return (
    `<svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">` +
    `<text x="0" y="16" class="chart-title">${esc(title)}</text>${axis}${marks}</svg>`
  );
}
