import { chartLayout, errorTickText, percent, pointTitle } from '../../common/compare/chart.js';
import { QUERY_ERROR_AXIS, type UtilityAxis } from '../../common/compare/axes.js';
import { frontier } from '../../common/compare/frontier.js';
import type { ComparisonMessage } from '../../common/ipc/compare-api.js';

type Candidate = ComparisonMessage['candidates'][number];

/**
 * The comparison's chart in the app: the same scales as the internal report's
 * SVG (chartLayout), but every point is a button: focus or hover shows its
 * parameters and guarantee beside the chart, Enter or a click selects it.
 */
export function RiskErrorChart(props: { candidates: readonly Candidate[]; shown: number | undefined; onShow: (id: number | undefined) => void; onSelect: (id: number) => void; axis?: UtilityAxis }) {
  const axis = props.axis ?? QUERY_ERROR_AXIS;
  const layout = chartLayout(props.candidates, axis);
  const { x, y, placed, width, height, left, bottom, top, right } = layout;
  const valueOf = (c: Candidate): number => axis.value(c.utility)!;
  // The frontier on the axis shown: the comparison's own flags are the query error's.
  const flags = frontier(placed.map((c) => ({ risk: c.risk.share, error: valueOf(c) })));
  const onFrontier = new Set(placed.filter((_, i) => flags[i]).map((c) => c.id));
  const front = placed.filter((c) => onFrontier.has(c.id)).sort((a, b) => a.risk.share - b.risk.share);
  return (
    <svg className="risk-chart" viewBox={`0 0 ${width} ${height}`} width="100%" style={{ maxWidth: width }} role="group" aria-label={`Risk against ${axis.words.toLowerCase()}, one point per candidate; filled points are on the non-dominated frontier`}>
      <line x1={left} y1={height - bottom} x2={width - right} y2={height - bottom} className="axis" />
      <line x1={left} y1={top} x2={left} y2={height - bottom} className="axis" />
      {layout.riskTicks.map((t) => (
        <g key={`r${t}`} aria-hidden="true">
          <line x1={x(t)} y1={top} x2={x(t)} y2={height - bottom} className="gridline" />
          <text x={x(t)} y={height - bottom + 16} textAnchor="middle" className="tick">
            {percent(t)}
          </text>
        </g>
      ))}
      {layout.errorTicks.map((e) => (
        <g key={`e${e}`} aria-hidden="true">
          <line x1={left} y1={y(e)} x2={width - right} y2={y(e)} className="gridline" />
          <text x={left - 6} y={y(e) + 4} textAnchor="end" className="tick">
            {errorTickText(layout, e)}
          </text>
        </g>
      ))}
      <text x={(left + width - right) / 2} y={height - 12} textAnchor="middle" className="axis-label" aria-hidden="true">
        Risk: share of records the method&apos;s attack recovers (lower is better)
      </text>
      <text transform={`translate(16 ${(top + height - bottom) / 2}) rotate(-90)`} textAnchor="middle" className="axis-label" aria-hidden="true">
        {axis.words}
        {layout.logScale ? ', log scale' : ''} (lower is better)
      </text>
      {front.length > 1 && <polyline className="frontier-line" points={front.map((c) => `${x(c.risk.share)},${y(valueOf(c))}`).join(' ')} aria-hidden="true" />}
      {placed.map((c) => {
        const cx = x(c.risk.share);
        const cy = y(valueOf(c));
        const shown = props.shown === c.id;
        return (
          <g
            key={c.id}
            className={`point${onFrontier.has(c.id) ? ' on-frontier' : ''}${shown ? ' shown' : ''}`}
            role="button"
            tabIndex={0}
            aria-label={pointTitle(c, axis, onFrontier.has(c.id))}
            aria-describedby="compare-point-detail"
            onFocus={() => props.onShow(c.id)}
            onMouseEnter={() => props.onShow(c.id)}
            onClick={() => props.onSelect(c.id)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                props.onSelect(c.id);
              }
            }}
          >
            <circle cx={cx} cy={cy} r={shown ? 9 : 7} />
            <text x={cx + 10} y={cy - 9} className="point-label" aria-hidden="true">
              {c.id}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
