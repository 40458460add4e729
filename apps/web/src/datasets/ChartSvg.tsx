import { tickLabel, valueScale } from './chartScale';

export type ChartKind = 'bar' | 'line';

interface ChartPoint {
  label: string;
  value: number;
}

const MARGIN = { top: 12, right: 16, bottom: 36, left: 56 };
const LABEL_CHARS = 14;
/** About how wide a character of an axis label is (text-xs), and the gap kept between two labels. */
const CHAR_WIDTH = 7;
const LABEL_GAP = 12;
const MAX_BAR_WIDTH = 72;

const shortLabel = (label: string) => (label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label);

interface ChartSvgProps {
  kind: ChartKind;
  points: ChartPoint[];
  width: number;
  height: number;
  /** Said to screen readers: "Bar chart of total by region". */
  label: string;
}

/** The points as bars or a line over their labels, drawn to the given size; colours from the palette, so both themes work. */
export function ChartSvg({ kind, points, width, height, label }: ChartSvgProps) {
  const plotWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const plotHeight = Math.max(0, height - MARGIN.top - MARGIN.bottom);
  const scale = valueScale(points.map((point) => point.value));
  const y = (value: number) => MARGIN.top + plotHeight - ((value - scale.min) / (scale.max - scale.min)) * plotHeight;
  const band = points.length > 0 ? plotWidth / points.length : 0;
  const x = (index: number) => MARGIN.left + band * (index + 0.5);
  // Each label gets the room the longest one needs; labels in between are left out when they do not all fit.
  const longest = points.reduce((most, point) => Math.max(most, shortLabel(point.label).length), 1);
  const labelSpace = longest * CHAR_WIDTH + LABEL_GAP;
  const labelEvery = Math.max(1, Math.ceil(points.length / Math.max(1, Math.floor(plotWidth / labelSpace))));
  // A few bars across a wide chart would be slabs: they keep to a width a bar reads as.
  const barWidth = Math.min(MAX_BAR_WIDTH, Math.max(1, band * 0.7));

  return (
    <svg role="img" aria-label={label} width={width} height={height} className="block text-xs">
      {scale.ticks.map((tick) => (
        <g key={tick}>
          <line
            x1={MARGIN.left}
            x2={MARGIN.left + plotWidth}
            y1={y(tick)}
            y2={y(tick)}
            className={tick === 0 ? 'stroke-slate-400' : 'stroke-slate-200'}
          />
          <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" className="fill-slate-500">
            {tickLabel(tick)}
          </text>
        </g>
      ))}
      {kind === 'bar' &&
        points.map((point, i) => (
          <rect
            // biome-ignore lint/suspicious/noArrayIndexKey: a bar is its place in the result.
            key={i}
            x={x(i) - barWidth / 2}
            y={Math.min(y(point.value), y(0))}
            width={barWidth}
            height={Math.abs(y(point.value) - y(0))}
            className="fill-sky-600"
          >
            <title>{`${point.label}: ${point.value}`}</title>
          </rect>
        ))}
      {kind === 'line' && (
        <>
          <polyline
            points={points.map((point, i) => `${x(i)},${y(point.value)}`).join(' ')}
            fill="none"
            strokeWidth={2}
            strokeLinejoin="round"
            className="stroke-sky-600"
          />
          {points.map((point, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a point is its place in the result.
            <circle key={i} cx={x(i)} cy={y(point.value)} r={points.length > 60 ? 1.5 : 3} className="fill-sky-600">
              <title>{`${point.label}: ${point.value}`}</title>
            </circle>
          ))}
        </>
      )}
      {points.map((point, i) =>
        i % labelEvery === 0 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a label is its place in the result.
          <text key={i} x={x(i)} y={MARGIN.top + plotHeight + 18} textAnchor="middle" className="fill-slate-600">
            {shortLabel(point.label)}
          </text>
        ) : null,
      )}
    </svg>
  );
}
