import { formatNumber } from '../../common/format/numbers.js';

export interface Bar {
  readonly label: string;
  readonly value: number;
  readonly tone: 'danger' | 'safe' | 'neutral' | 'muted';
  readonly text?: string;
}

/** A label cut to the room it has (about 6.6 px a character at 12 px), the whole of it kept for hover and screen readers. */
/** Room for a value written after its bar (chart text is about 6.6px a character, plus the gap). */
function valueRoom(texts: readonly string[]): number {
  return Math.max(...texts.map((t) => t.length), 4) * 7 + 12;
}

export function fitLabel(label: string, room: number): string {
  const chars = Math.max(4, Math.floor(room / 6.6));
  return label.length <= chars ? label : `${label.slice(0, chars - 1)}…`;
}

/** Horizontal bars as SVG with a text alternative for screen readers. */
export function BarChart(props: { title: string; bars: readonly Bar[]; width?: number }) {
  const width = props.width ?? 560;
  const labelWidth = 190;
  const row = 28;
  const height = props.bars.length * row + 8;
  const max = Math.max(...props.bars.map((b) => (Number.isFinite(b.value) ? b.value : 0)), 1e-12);
  const room = valueRoom(props.bars.map((b) => b.text ?? formatNumber(b.value)));
  return (
    <figure className="chart">
      <figcaption>{props.title}</figcaption>
      <svg role="img" aria-label={`${props.title}: ${props.bars.map((b) => `${b.label} ${b.text ?? formatNumber(b.value)}`).join('; ')}`} viewBox={`0 0 ${width} ${height}`} width="100%" style={{ maxWidth: width }}>
        {props.bars.map((b, i) => {
          const w = Math.max(2, ((Number.isFinite(b.value) ? b.value : 0) / max) * (width - labelWidth - room));
          const y = 4 + i * row;
          return (
            <g key={b.label}>
              <text x={labelWidth - 8} y={y + 15} textAnchor="end" className="chart-label">
                <title>{b.label}</title>
                {fitLabel(b.label, labelWidth - 12)}
              </text>
              <rect x={labelWidth} y={y + 3} width={w} height={16} rx={2} className={`bar ${b.tone}`} />
              <text x={labelWidth + w + 6} y={y + 15} className="chart-value">
                {b.text ?? formatNumber(b.value)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** Paired bars per value: original versus reconstructed frequency. */
export function PairedBars(props: { title: string; rows: readonly { label: string; a: number; b: number }[]; aLabel: string; bLabel: string }) {
  const width = 560;
  const labelWidth = 170;
  const row = 30;
  const height = props.rows.length * row + 8;
  const max = Math.max(...props.rows.flatMap((r) => [r.a, r.b]).filter(Number.isFinite), 1e-12);
  const room = valueRoom(props.rows.map((r) => `${formatNumber(r.a, 3)} / ${formatNumber(r.b, 3)}`));
  const scale = (v: number) => Math.max(1, (Math.max(0, v) / max) * (width - labelWidth - room));
  return (
    <figure className="chart">
      <figcaption>
        {props.title} <span className="legend"><i className="swatch neutral" /> {props.aLabel} <i className="swatch safe" /> {props.bLabel}</span>
      </figcaption>
      <svg role="img" aria-label={`${props.title}: ${props.rows.map((r) => `${r.label} ${formatNumber(r.a, 3)} / ${formatNumber(r.b, 3)}`).join('; ')}`} viewBox={`0 0 ${width} ${height}`} width="100%" style={{ maxWidth: width }}>
        {props.rows.map((r, i) => {
          const y = 4 + i * row;
          return (
            <g key={r.label}>
              <text x={labelWidth - 8} y={y + 16} textAnchor="end" className="chart-label">
                <title>{r.label}</title>
                {fitLabel(r.label, labelWidth - 12)}
              </text>
              <rect x={labelWidth} y={y + 3} width={scale(r.a)} height={10} className="bar neutral" />
              <rect x={labelWidth} y={y + 14} width={scale(r.b)} height={10} className="bar safe" />
              <text x={labelWidth + Math.max(scale(r.a), scale(r.b)) + 6} y={y + 16} className="chart-value">
                {formatNumber(r.a, 3)} / {formatNumber(r.b, 3)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** A tiny distribution of a column's most frequent values. */
export function Sparkline(props: { counts: readonly number[]; label: string }) {
  const shown = props.counts.slice(0, 12);
  const max = Math.max(...shown, 1);
  const w = 96;
  const h = 22;
  const barW = w / Math.max(shown.length, 1);
  return (
    <svg className="sparkline" role="img" aria-label={props.label} viewBox={`0 0 ${w} ${h}`} width={w} height={h}>
      {shown.map((c, i) => (
        <rect key={i} x={i * barW + 0.5} y={h - (c / max) * h} width={Math.max(1, barW - 1.5)} height={(c / max) * h} />
      ))}
    </svg>
  );
}

/** The (ε, δ) curve as bars of −log₁₀ δ: longer bars are stronger guarantees. */
export function DeltaCurveChart(props: { title: string; curve: readonly { readonly epsilon: number; readonly delta: number }[] }) {
  return (
    <BarChart
      title={props.title}
      bars={props.curve.map((c) => ({ label: `ε = ${c.epsilon.toFixed(3)}`, value: -Math.log10(Math.max(c.delta, 1e-300)), tone: 'safe' as const, text: `δ = ${c.delta.toExponential(2)}` }))}
    />
  );
}
