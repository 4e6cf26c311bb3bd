// The rating chart's geometry (web/js/rating-chart.js): round rating ticks, time ticks on local
// hours, midnights, months and years, the scales that put the oldest game on the left and the
// highest rating at the top, labels kept inside the chart at a phone's width, and the chart in words.

import test from 'node:test';
import assert from 'node:assert/strict';
import { niceStep, ratingAxis, timeTicks, chartGeometry, chartSummary, dayWords } from '../../../web/js/rating-chart.js';

const DAY = 86400000;
const T0 = Date.UTC(2026, 2, 3, 12, 0); // 3 Mar 2026, 12:00 UTC

test('steps are 1, 2 or 5 times a power of ten', () => {
  assert.equal(niceStep(100, 4), 50);
  assert.equal(niceStep(100, 5), 20);
  assert.equal(niceStep(100, 10), 10);
  assert.equal(niceStep(700, 4), 200);
  assert.equal(niceStep(3, 3), 1);
});

test('the rating axis covers the ratings on whole steps', () => {
  const a = ratingAxis(1432, 1618, 5);
  assert.equal(a.step, 50);
  assert.equal(a.lo, 1400);
  assert.equal(a.hi, 1650);
  assert.deepEqual(a.ticks, [1400, 1450, 1500, 1550, 1600, 1650]);
  assert.ok(a.ticks.length <= 5 + 2);
});

test('one rating, or a flat line, gets 40 points around it', () => {
  const a = ratingAxis(1500, 1500, 4);
  assert.ok(a.lo <= 1480 && a.hi >= 1520, `${a.lo}..${a.hi}`);
  assert.ok(a.ticks.includes(1500));
  const b = ratingAxis(1503, 1507, 4);
  assert.ok(b.hi - b.lo >= 40);
});

test('hours across a day, the midnight named by its date', () => {
  const ticks = timeTicks(Date.UTC(2026, 2, 3, 13, 10), Date.UTC(2026, 2, 4, 11, 0), 4);
  assert.deepEqual(ticks.map((t) => t.label), ['18:00', '4 Mar', '06:00']);
  assert.equal(ticks[1].t, Date.UTC(2026, 2, 4));
});

test('ticks fall on local times: a midnight in Paris (UTC+1) is 23:00 UTC', () => {
  const ticks = timeTicks(Date.UTC(2026, 2, 1), Date.UTC(2026, 2, 8), 4, 60);
  for (const t of ticks) assert.equal(new Date(t.t + 3600000).getUTCHours(), 0, `${t.label} at local midnight`);
  assert.deepEqual(ticks.map((t) => t.label), ['2 Mar', '4 Mar', '6 Mar', '8 Mar']);
});

test('months, and the year at January', () => {
  const ticks = timeTicks(Date.UTC(2025, 9, 20), Date.UTC(2026, 3, 10), 8);
  assert.deepEqual(ticks.map((t) => t.label), ['Nov', 'Dec', '2026', 'Feb', 'Mar', 'Apr']);
  const years = timeTicks(Date.UTC(2019, 5, 1), Date.UTC(2026, 5, 1), 4);
  assert.deepEqual(years.map((t) => t.label), ['2020', '2022', '2024', '2026']);
});

test('never more ticks than asked', () => {
  for (const span of [DAY / 3, DAY, 3 * DAY, 20 * DAY, 90 * DAY, 400 * DAY, 3000 * DAY]) {
    for (const max of [2, 3, 4, 6, 9]) {
      const n = timeTicks(T0, T0 + span, max).length;
      assert.ok(n <= max, `${n} ticks over ${span / DAY} days, at most ${max}`);
      assert.ok(n >= 1, `at least one tick over ${span / DAY} days`);
    }
  }
});

const series = [
  { pool: 'standard', points: [
    { at_ms: T0, rating: 1500, rd: 350 }, { at_ms: T0 + DAY, rating: 1580, rd: 250 }, { at_ms: T0 + 10 * DAY, rating: 1612, rd: 120 }] },
  { pool: 'advanced', points: [{ at_ms: T0 + 5 * DAY, rating: 1450, rd: 300 }] },
];

test('the oldest game on the left, the newest on the right, the highest rating at the top', () => {
  const g = chartGeometry(series, { width: 600, height: 220 });
  const [std, adv] = g.lines;
  assert.equal(std.pool, 'standard');
  assert.equal(std.points[0].x, g.plot.left);
  assert.equal(std.points[2].x, g.plot.right);
  assert.ok(std.points[2].y < std.points[0].y, 'a higher rating is higher up');
  assert.ok(adv.points[0].x > std.points[1].x && adv.points[0].x < std.points[2].x, 'both pools share the time axis');
  assert.equal(std.d, `M${std.points[0].x},${std.points[0].y}L${std.points[1].x},${std.points[1].y}L${std.points[2].x},${std.points[2].y}`);
  const labels = g.yTicks.map((t) => Number(t.label));
  assert.ok(Math.min(...labels) <= 1450 && Math.max(...labels) >= 1612, 'the axis covers every rating');
  for (const p of [...std.points, ...adv.points]) assert.ok(p.y >= g.plot.top - 0.1 && p.y <= g.plot.bottom + 0.1);
});

test('on a phone (320 px of chart) the labels stay inside the chart and do not overlap', () => {
  for (const span of [DAY / 2, 2 * DAY, 30 * DAY, 200 * DAY, 900 * DAY]) {
    const s = [{ pool: 'standard', points: [{ at_ms: T0, rating: 1500 }, { at_ms: T0 + span, rating: 1700 }] }];
    const g = chartGeometry(s, { width: 320, height: 200 });
    const boxes = g.xTicks.map((t) => {
      const w = t.label.length * 6.6;
      const left = t.anchor === 'start' ? t.x : t.anchor === 'end' ? t.x - w : t.x - w / 2;
      return [left, left + w];
    });
    for (const [l, r] of boxes) assert.ok(l >= 0 && r <= 320, `a label from ${l} to ${r} over ${span / DAY} days`);
    for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i][0] > boxes[i - 1][1], `labels ${i - 1} and ${i} apart`);
    assert.ok(g.yTicks.length >= 2 && g.yTicks.length <= 7, `${g.yTicks.length} rating ticks`);
  }
});

test('one game is a point in the middle; no history is no chart', () => {
  const g = chartGeometry([{ pool: 'advanced', points: [{ at_ms: T0, rating: 1500 }] }], { width: 400 });
  const p = g.lines[0].points[0];
  assert.equal(p.x, Math.round(((g.plot.left + g.plot.right) / 2) * 10) / 10);
  assert.equal(g.lines[0].d, `M${p.x},${p.y}`);
  assert.equal(chartGeometry([{ pool: 'standard', points: [] }], { width: 400 }), null);
  assert.equal(chartGeometry([], { width: 400 }), null);
});

test('the chart in words, per pool', () => {
  const words = { standard: 'Standard', advanced: 'Advanced' };
  assert.equal(chartSummary(series, words),
    'Standard: from 1500 to 1612 in 3 rated games, 3 Mar 2026 to 13 Mar 2026. Advanced: from 1450 to 1450 in 1 rated game, 8 Mar 2026.');
  assert.equal(dayWords(Date.UTC(2026, 0, 31, 23, 30), 60), '1 Feb 2026', 'in local time');
});
