// A bar chart as an inline <svg> string: one or more series of counts over named categories, bars
// stacked or grouped, a legend when there is more than one series, integer y ticks, and a <title> on
// every bar (the browser shows it on hover, no script needed). Pure: the same input gives the same
// string. Every text is escaped here, so callers pass raw values (origins and purposes are
// publishers' data). No xmlns attribute: the chart is meant to be inlined in an HTML5 page, which
// needs none, and so the page holds no URL of its own.
//
//   svgBarChart({ title: 'Reports per day', categories: ['2026-11-01', '2026-11-02'],
//                 series: [{ name: 'reports', values: [3, 5] }] })

export interface BarSeries {
  name: string;
  /** One non-negative count per category, in category order. */
  values: readonly number[];
  /** CSS colour; defaults to the palette entry of the series' index. */
  color?: string;
}

export interface BarChartInput {
  /** The chart's accessible name, also drawn as its caption. */
  title: string;
  categories: readonly string[];
  series: readonly BarSeries[];
  /** How several series share a category; one series looks the same either way. Default stacked. */
  layout?: 'stacked' | 'grouped';
  width?: number;
  height?: number;
}

/** Okabe–Ito: eight colours that stay distinct for the common forms of colour blindness. */
export const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#D55E00',
  '#CC79A7',
  '#56B4E9',
  '#000000',
  '#F0E442',
] as const;

/** Escapes text for HTML/SVG text and double-quoted attribute values. Shared by the report page. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const FONT = 'font-family="system-ui, sans-serif" font-size="12"';
const CHAR_WIDTH = 7; // px per character at 12px, an estimate good enough to space labels
const MAX_LABEL_CHARS = 18;

export function svgBarChart(input: BarChartInput): string {
  const width = input.width ?? 960;
  const height = input.height ?? 320;
  const layout = input.layout ?? 'stacked';
  const series = input.series.map((s, i) => ({ ...s, color: s.color ?? PALETTE[i % PALETTE.length]! }));
  const legend = series.length > 1 ? legendRow(series, width) : { svg: '', height: 0 };
  const plot = { left: 56, right: width - 16, top: 28 + legend.height, bottom: height - 40 };
  const max = maxValue(input.categories.length, series, layout);
  const step = tickStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const y = (v: number) => plot.bottom - (v / top) * (plot.bottom - plot.top);

  const parts = [
    `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" ` +
      `aria-label="${escapeHtml(input.title)}" ${FONT}>`,
    `<title>${escapeHtml(input.title)}</title>`,
    `<text x="${plot.left}" y="16" font-weight="bold">${escapeHtml(input.title)}</text>`,
    legend.svg,
    yAxis(plot, top, step, y),
  ];
  if (input.categories.length === 0 || max === 0) {
    parts.push(
      `<text x="${n((plot.left + plot.right) / 2)}" y="${n((plot.top + plot.bottom) / 2)}" ` +
        'text-anchor="middle" fill="#666">no data</text>',
    );
  } else {
    parts.push(bars(input.categories, series, layout, plot, y), xLabels(input.categories, plot));
  }
  parts.push('</svg>');
  return parts.filter((p) => p !== '').join('\n');
}

type Plot = { left: number; right: number; top: number; bottom: number };
type Colored = BarSeries & { color: string };

function maxValue(count: number, series: readonly Colored[], layout: 'stacked' | 'grouped'): number {
  let max = 0;
  for (let i = 0; i < count; i++) {
    const values = series.map((s) => s.values[i] ?? 0);
    max = Math.max(max, layout === 'stacked' ? values.reduce((a, b) => a + b, 0) : Math.max(0, ...values));
  }
  return max;
}

/** A step of 1, 2 or 5 × 10^k giving about four ticks; at least 1, since the values are counts. */
export function tickStep(max: number): number {
  if (max <= 4) return 1;
  const raw = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude;
}

function yAxis(plot: Plot, top: number, step: number, y: (v: number) => number): string {
  const lines: string[] = [];
  for (let v = 0; v <= top; v += step) {
    lines.push(
      `<line x1="${plot.left}" x2="${plot.right}" y1="${n(y(v))}" y2="${n(y(v))}" ` +
        `stroke="${v === 0 ? '#333' : '#ddd'}"/>`,
    );
    lines.push(`<text x="${plot.left - 6}" y="${n(y(v) + 4)}" text-anchor="end">${v}</text>`);
  }
  return lines.join('\n');
}

function bars(
  categories: readonly string[],
  series: readonly Colored[],
  layout: 'stacked' | 'grouped',
  plot: Plot,
  y: (v: number) => number,
): string {
  const band = (plot.right - plot.left) / categories.length;
  const barWidth = band * 0.8;
  const out: string[] = [];
  categories.forEach((category, i) => {
    const x0 = plot.left + band * i + (band - barWidth) / 2;
    let base = 0;
    series.forEach((s, j) => {
      const value = s.values[i] ?? 0;
      if (value <= 0) return;
      const tip = `<title>${escapeHtml(`${category} · ${s.name}: ${value}`)}</title>`;
      if (layout === 'stacked') {
        out.push(rect(x0, y(base + value), barWidth, y(base) - y(base + value), s.color, tip));
        base += value;
      } else {
        const w = barWidth / series.length;
        out.push(rect(x0 + w * j, y(value), w, y(0) - y(value), s.color, tip));
      }
    });
  });
  return out.join('\n');
}

const rect = (x: number, y: number, w: number, h: number, color: string, tip: string) =>
  `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${escapeHtml(color)}">${tip}</rect>`;

// Labels that would overlap are thinned to every k-th one; long ones are cut (the bars' titles keep
// the full text).
function xLabels(categories: readonly string[], plot: Plot): string {
  const band = (plot.right - plot.left) / categories.length;
  const longest = Math.min(MAX_LABEL_CHARS, Math.max(...categories.map((c) => [...c].length)));
  const every = Math.max(1, Math.ceil((longest * CHAR_WIDTH + 8) / band));
  return categories
    .map((c, i) =>
      i % every !== 0
        ? ''
        : `<text x="${n(plot.left + band * (i + 0.5))}" y="${plot.bottom + 16}" text-anchor="middle">` +
          `${escapeHtml(cut(c))}</text>`,
    )
    .filter((s) => s !== '')
    .join('\n');
}

function legendRow(series: readonly Colored[], width: number): { svg: string; height: number } {
  const items: string[] = [];
  let x = 56;
  let row = 0;
  for (const s of series) {
    const w = 18 + cut(s.name).length * CHAR_WIDTH + 16;
    if (x + w > width - 16 && x > 56) {
      x = 56;
      row++;
    }
    const ly = 26 + row * 18;
    items.push(
      `<rect x="${x}" y="${ly}" width="12" height="12" fill="${escapeHtml(s.color)}"/>` +
        `<text x="${x + 18}" y="${ly + 10}">${escapeHtml(cut(s.name))}</text>`,
    );
    x += w;
  }
  return { svg: `<g class="legend">${items.join('')}</g>`, height: (row + 1) * 18 + 8 };
}

// Cut by code points, so an emoji or other astral character is never split in half.
function cut(label: string): string {
  const chars = [...label];
  return chars.length > MAX_LABEL_CHARS ? `${chars.slice(0, MAX_LABEL_CHARS - 1).join('')}…` : label;
}

/** Coordinates rounded to 0.01 px: enough for any screen, and keeps the page small. */
const n = (v: number) => String(Math.round(v * 100) / 100);
