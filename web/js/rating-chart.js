// A player's rating over time, drawn as SVG at the width it is shown at (so that its labels keep
// their size on a phone): one line per pool, time across, the rating up. The geometry (scales,
// round ticks, the lines' paths) is pure and computed apart from the drawing.
//
// Times are unix ms; `offsetMin` is the local time's offset from UTC in minutes (east positive,
// -new Date().getTimezoneOffset()), so that the ticks fall on local midnights and months.

const HOUR = 3600000;
const DAY = 24 * HOUR;
const MONTH = 30.44 * DAY; // for choosing a step only
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const CHAR_PX = 6.6; // an estimate of a label character's width at the chart's 12 px
export const CHART_HEIGHT = 220;
const MARGIN = { left: 42, right: 10, top: 10, bottom: 26 };
const MAX_MARKERS = 40; // more points than this are drawn as a line only

/** The round step (1, 2 or 5 × 10^k) that cuts `span` into at most `maxTicks` parts. */
export function niceStep(span, maxTicks) {
  const raw = span / Math.max(1, maxTicks);
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5]) if (m * mag >= raw - 1e-9) return m * mag;
  return 10 * mag;
}

/** The rating axis: [lo, hi] around [min, max] on whole steps, and its ticks. A flat or short
 *  range is widened to 40 points, so that a change of a few points is not drawn as a cliff. */
export function ratingAxis(min, max, maxTicks) {
  if (max - min < 40) {
    const mid = (min + max) / 2;
    [min, max] = [mid - 20, mid + 20];
  }
  const step = niceStep(max - min, maxTicks);
  const lo = Math.floor(min / step) * step;
  const hi = Math.ceil(max / step) * step;
  const ticks = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Math.round(v));
  return { lo, hi, step, ticks };
}

const TIME_STEPS = [
  { hours: 1 }, { hours: 3 }, { hours: 6 }, { hours: 12 },
  { days: 1 }, { days: 2 }, { days: 7 }, { days: 14 },
  { months: 1 }, { months: 3 }, { months: 6 }, { months: 12 }, { months: 24 }, { months: 60 },
];
const stepMs = (s) => (s.hours ? s.hours * HOUR : s.days ? s.days * DAY : s.months * MONTH);

const pad2 = (n) => String(n).padStart(2, '0');

/** A moment in local words: "3 Mar 2026" (`withYear`) or "3 Mar". */
export function dayWords(t, offsetMin = 0, withYear = true) {
  const d = new Date(t + offsetMin * 60000);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}${withYear ? ` ${d.getUTCFullYear()}` : ''}`;
}

/** A tick's label: the hour ("14:00"), the day at midnight ("3 Mar"), a month ("Mar"), and the
 *  year at January ("2026"). */
function tickLabel(t, step, offsetMin) {
  const d = new Date(t + offsetMin * 60000);
  if (step.months) return d.getUTCMonth() === 0 ? String(d.getUTCFullYear()) : MONTHS[d.getUTCMonth()];
  if (step.hours && (d.getUTCHours() !== 0 || d.getUTCMinutes() !== 0)) return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
  return dayWords(t, offsetMin, false);
}

/** The time axis over [t0, t1]: at most `maxTicks` ticks on round local times, {t, label}. */
export function timeTicks(t0, t1, maxTicks, offsetMin = 0) {
  const span = Math.max(t1 - t0, 1);
  // The finest step that makes few enough ticks (months are not all as long: counted, not guessed).
  for (const step of TIME_STEPS) {
    if (span / stepMs(step) > maxTicks + 1) continue;
    const ticks = stepTicks(t0, t1, step, offsetMin);
    if (ticks.length <= maxTicks || step === TIME_STEPS[TIME_STEPS.length - 1]) return ticks;
  }
  return [];
}

function stepTicks(t0, t1, step, offsetMin) {
  const off = offsetMin * 60000;
  const out = [];
  if (step.months) {
    const start = new Date(t0 + off);
    let y = start.getUTCFullYear();
    let m = start.getUTCMonth();
    // Months on multiples of the step (Jan, Apr, Jul, Oct for 3), years on multiples of theirs.
    if (step.months >= 12) [y, m] = [Math.ceil(y / (step.months / 12)) * (step.months / 12), 0];
    else m = Math.ceil(m / step.months) * step.months;
    for (let t = Date.UTC(y, m, 1) - off; ; t = Date.UTC(y, m, 1) - off) {
      if (t >= t0 && t <= t1) out.push(t);
      if (t > t1) break;
      m += step.months;
      if (m >= 12) { y += Math.floor(m / 12); m %= 12; }
    }
  } else {
    const ms = stepMs(step);
    for (let t = Math.ceil((t0 + off) / ms) * ms - off; t <= t1; t += ms) out.push(t);
  }
  return out.map((t) => ({ t, label: tickLabel(t, step, offsetMin) }));
}

const round1 = (x) => Math.round(x * 10) / 10;

/**
 * Where everything goes in a chart `width` × `height` px of `series`
 * ([{pool, points: [{at_ms, rating, rd}]}], oldest first; series without points are left out):
 * {width, height, plot: {left, top, right, bottom}, xTicks: [{x, label, anchor}],
 *  yTicks: [{y, label}], lines: [{pool, d, points: [{x, y}]}]}, or null when there is nothing to draw.
 */
export function chartGeometry(series, { width, height = CHART_HEIGHT, offsetMin = 0 } = {}) {
  const drawn = series.filter((s) => Array.isArray(s.points) && s.points.length);
  if (!drawn.length) return null;
  const all = drawn.flatMap((s) => s.points);
  let t0 = Math.min(...all.map((p) => p.at_ms));
  let t1 = Math.max(...all.map((p) => p.at_ms));
  // A day at least, the games in its middle: one game is a point in the middle of its day.
  if (t1 - t0 < DAY) {
    const mid = (t0 + t1) / 2;
    [t0, t1] = [mid - DAY / 2, mid + DAY / 2];
  }
  const plot = { left: MARGIN.left, top: MARGIN.top, right: width - MARGIN.right, bottom: height - MARGIN.bottom };
  const plotW = Math.max(1, plot.right - plot.left);
  const plotH = Math.max(1, plot.bottom - plot.top);
  const axis = ratingAxis(Math.min(...all.map((p) => p.rating)), Math.max(...all.map((p) => p.rating)), Math.max(2, Math.floor(plotH / 36)));
  const x = (t) => plot.left + ((t - t0) / (t1 - t0)) * plotW;
  const y = (r) => plot.top + ((axis.hi - r) / (axis.hi - axis.lo)) * plotH;
  const xTicks = timeTicks(t0, t1, Math.max(2, Math.floor(plotW / 72)), offsetMin).map(({ t, label }) => {
    const at = round1(x(t));
    const half = (label.length * CHAR_PX) / 2;
    // A label that would stick out of the chart is set against its tick instead of around it.
    const anchor = at + half > width ? 'end' : at - half < 0 ? 'start' : 'middle';
    return { x: at, label, anchor };
  });
  const yTicks = axis.ticks.map((v) => ({ y: round1(y(v)), label: String(v) }));
  const lines = drawn.map((s) => {
    const points = s.points.map((p) => ({ x: round1(x(p.at_ms)), y: round1(y(p.rating)) }));
    return { pool: s.pool, d: points.map((p, i) => `${i ? 'L' : 'M'}${p.x},${p.y}`).join(''), points };
  });
  return { width, height, plot, xTicks, yTicks, lines };
}

/** The chart in words, for those who do not see it: "Standard: from 1500 to 1612 in 14 games,
 *  3 Mar 2026 to 2 Apr 2026." per pool. `words` names the pools. */
export function chartSummary(series, words, offsetMin = 0) {
  return series.filter((s) => s.points && s.points.length).map((s) => {
    const first = s.points[0];
    const last = s.points[s.points.length - 1];
    const games = `${s.points.length} rated game${s.points.length === 1 ? '' : 's'}`;
    const from = dayWords(first.at_ms, offsetMin);
    const to = dayWords(last.at_ms, offsetMin);
    return `${words[s.pool] ?? s.pool}: from ${Math.round(first.rating)} to ${Math.round(last.rating)} in ${games}, ${from === to ? from : `${from} to ${to}`}.`;
  }).join(' ');
}

// ---- drawing (needs a document) ----

const SVG = 'http://www.w3.org/2000/svg';

function el(tag, attrs = {}, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  return e;
}

/** A marker of a point: a circle on the standard pool's line, a square on the advanced one's. */
function marker(pool, p) {
  return pool === 'advanced'
    ? el('rect', { x: p.x - 3, y: p.y - 3, width: 6, height: 6, class: 'chart-marker' })
    : el('circle', { cx: p.x, cy: p.y, r: 3.2, class: 'chart-marker' });
}

/** The chart of `series` as an <svg> `width` px wide (see chartGeometry), named by `label`. */
export function ratingChart(series, { width, height = CHART_HEIGHT, offsetMin = 0, label = '' }) {
  const g = chartGeometry(series, { width, height, offsetMin });
  const svg = el('svg', { class: 'rating-chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label });
  if (!g) return svg;
  const grid = el('g', { class: 'chart-grid', 'aria-hidden': 'true' });
  for (const t of g.yTicks) {
    grid.append(el('line', { x1: g.plot.left, x2: g.plot.right, y1: t.y, y2: t.y }),
      el('text', { x: g.plot.left - 6, y: t.y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, t.label));
  }
  for (const t of g.xTicks) {
    grid.append(el('line', { class: 'chart-tick', x1: t.x, x2: t.x, y1: g.plot.bottom, y2: g.plot.bottom + 4 }),
      el('text', { x: t.x, y: g.plot.bottom + 17, 'text-anchor': t.anchor }, t.label));
  }
  grid.append(el('line', { class: 'chart-axis', x1: g.plot.left, x2: g.plot.right, y1: g.plot.bottom, y2: g.plot.bottom }));
  svg.append(grid);
  for (const line of g.lines) {
    const group = el('g', { class: `chart-series series-${line.pool}`, 'aria-hidden': 'true' });
    group.append(el('path', { d: line.d, class: 'chart-line' }));
    // Few points: each is marked; many: only the last (where the rating is now).
    const marked = line.points.length <= MAX_MARKERS ? line.points : line.points.slice(-1);
    for (const p of marked) group.append(marker(line.pool, p));
    svg.append(group);
  }
  return svg;
}
