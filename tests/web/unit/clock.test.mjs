// The move clocks in words (web/js/clock.js): tenths under ten seconds, where a player counts
// them, minutes and seconds above, hours past the hour; never more time shown than is left
// under ten seconds, and a dash or "untimed" where there is no clock (PROTOCOL.md section 8).

import test from 'node:test';
import assert from 'node:assert/strict';
import { formatMs, clockText } from '../../../web/js/clock.js';
import { makeClock } from '../../../web/js/room.js';

test('under ten seconds: tenths, rounded down so that the last tenth shows as 0.0', () => {
  assert.equal(formatMs(0), '0.0 s');
  assert.equal(formatMs(99), '0.0 s');
  assert.equal(formatMs(100), '0.1 s');
  assert.equal(formatMs(5000), '5.0 s');
  assert.equal(formatMs(9999), '9.9 s');
});

test('from ten seconds: minutes and seconds, rounded up so that a full allowance shows whole', () => {
  assert.equal(formatMs(10000), '0:10');
  assert.equal(formatMs(10001), '0:11');
  assert.equal(formatMs(59000), '0:59');
  assert.equal(formatMs(59001), '1:00');
  assert.equal(formatMs(60000), '1:00');
  assert.equal(formatMs(61000), '1:01');
  assert.equal(formatMs(600000), '10:00');
});

test('an hour and more: hours, then minutes and seconds on two digits', () => {
  assert.equal(formatMs(3599000), '59:59');
  assert.equal(formatMs(3600000), '1:00:00');
  assert.equal(formatMs(3661000), '1:01:01');
});

test('no time to show: a dash', () => {
  assert.equal(formatMs(null), '—');
  assert.equal(formatMs(undefined), '—');
});

test('a seat\'s clock: untimed in an untimed game, the time left otherwise', () => {
  const untimed = { clock: makeClock({ remaining_ms: [null, null], running: 0 }), clockRules: { move_ms: null, claim_ms: 10000 } };
  assert.equal(clockText(untimed, 0), 'untimed');
  const timed = { clock: makeClock({ remaining_ms: [59000, 7500], running: 0 }), clockRules: { move_ms: 60000, claim_ms: 10000 } };
  assert.equal(clockText(timed, 1), '7.5 s', 'the seat not moving shows what it has');
  const unknown = { clock: makeClock(null), clockRules: {} };
  assert.equal(clockText(unknown, 0), '—', 'no clock known yet');
});
