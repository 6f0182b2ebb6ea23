/**
 * @module crawler/report/svg
 * The report's charts as plain SVG strings: horizontal bars with their
 * numbers, a histogram over given bin edges, and a line chart of several
 * series. No script is needed to view them, and each chart has a <title>
 * and text labels, so the numbers are readable without the picture.
 */
import { escapeHtml } from '../../shared/escape.js';

const PALETTE = ['#3b6ea8', '#d08c2f', '#4c9a5b', '#b5483f', '#7a5ba6', '#5b8f99', '#a66f3b', '#888888'];
export const seriesColor = (i: number) => PALETTE[i % PALETTE.length]!;

const fmt = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(n < 10 ? 2 : 1));

/** Horizontal bars, one per row, the label left and the value right of its bar. */
export function barChart(title: string, rows: { label: string; value: number; color?: string }[], width = 640): string {
  const labelW = 230;
  const numW = 70;
  const rowH = 22;
  const max = Math.max(1, ...rows.map((r) => r.value));
  const barMax = width - labelW - numW;
  const bars = rows.map((r, i) => {
    const y = i * rowH;
    const w = Math.max(r.value > 0 ? 1 : 0, (r.value / max) * barMax);
    const label = r.label.length > 34 ? `${r.label.slice(0, 33)}…` : r.label;
    return (
      `<text x="${labelW - 6}" y="${y + 15}" text-anchor="end">${escapeHtml(label)}</text>` +
      `<rect x="${labelW}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowH - 8}" fill="${r.color ?? seriesColor(0)}"/>` +
      `<text x="${labelW + w + 6}" y="${y + 15}">${fmt(r.value)}</text>`
    );
  });
  return svg(title, width, Math.max(rowH, rows.length * rowH), bars.join(''));
}

/** Counts of `values` per bin: [edges[i], edges[i+1]); the last bin is open-ended. */
export function binCounts(values: number[], edges: number[]): number[] {
  const counts = edges.map(() => 0);
  for (const v of values) {
    let i = edges.length - 1;
    while (i > 0 && v < edges[i]!) i--;
    counts[i]!++;
  }
  return counts;
}

/** Vertical bars over bins labelled by `labels`, with the count above each bar. */
export function histogram(title: string, counts: number[], labels: string[], width = 640): string {
  const h = 160;
  const top = 18;
  const bottom = 34;
  const slot = width / Math.max(1, counts.length);
  const max = Math.max(1, ...counts);
  const parts = counts.map((c, i) => {
    const bh = (c / max) * (h - top - bottom);
    const x = i * slot;
    return (
      `<rect x="${(x + 4).toFixed(1)}" y="${(h - bottom - bh).toFixed(1)}" width="${(slot - 8).toFixed(1)}" height="${bh.toFixed(1)}" fill="${seriesColor(0)}"/>` +
      `<text x="${(x + slot / 2).toFixed(1)}" y="${(h - bottom - bh - 4).toFixed(1)}" text-anchor="middle">${fmt(c)}</text>` +
      `<text x="${(x + slot / 2).toFixed(1)}" y="${h - bottom + 16}" text-anchor="middle" class="axis">${escapeHtml(labels[i] ?? '')}</text>`
    );
  });
  return svg(title, width, h, `<line x1="0" y1="${h - bottom}" x2="${width}" y2="${h - bottom}" class="rule"/>${parts.join('')}`);
}

/**
 * Lines of (x, y) points, one per series, with axes labelled by their
 * maxima. The unit of y stands above the plot, where no line reaches, and
 * the first series is drawn last: a short first round (often one point at
 * the start) stays in sight on top of the longer rounds after it.
 */
export function lineChart(title: string, series: { name: string; points: [number, number][] }[], xUnit: string, yUnit: string, width = 640): string {
  const h = 236;
  const left = 48;
  const bottom = 30;
  const top = 26;
  const all = series.flatMap((s) => s.points);
  const maxX = Math.max(1, ...all.map((p) => p[0]));
  const maxY = Math.max(1e-9, ...all.map((p) => p[1]));
  const sx = (x: number) => left + (x / maxX) * (width - left - 10);
  const sy = (y: number) => h - bottom - (y / maxY) * (h - bottom - top);
  // Dots as well as the line: a round of one time bucket is a single point. A white edge keeps a dot apart from the line under it.
  const lines = series
    .map(
      (s, i) =>
        `<g class="series" data-series="${i + 1}" fill="${seriesColor(i)}" stroke="${seriesColor(i)}"><title>${escapeHtml(s.name)}</title><polyline fill="none" stroke-width="2" points="${s.points
          .map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`)
          .join(' ')}"/>${s.points.map(([x, y]) => `<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="${i === 0 ? 4 : 3}" stroke="#fff" stroke-width="1"/>`).join('')}</g>`,
    )
    .reverse();
  const axes =
    `<line x1="${left}" y1="${h - bottom}" x2="${width - 10}" y2="${h - bottom}" class="rule"/><line x1="${left}" y1="${top}" x2="${left}" y2="${h - bottom}" class="rule"/>` +
    `<text x="${left - 4}" y="${top + 4}" text-anchor="end" class="axis">${fmt(maxY)}</text><text x="${left - 4}" y="${h - bottom}" text-anchor="end" class="axis">0</text>` +
    `<text x="${width - 10}" y="${h - 8}" text-anchor="end" class="axis">${fmt(maxX)} ${escapeHtml(xUnit)}</text><text x="${left}" y="${h - 8}" class="axis">0</text>` +
    `<text x="${left}" y="${top - 10}" class="axis unit">${escapeHtml(yUnit)}</text>`;
  return svg(title, width, h, axes + lines.join(''));
}

function svg(title: string, width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><title>${escapeHtml(title)}</title>${body}</svg>`;
}
