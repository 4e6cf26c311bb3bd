// The countdown to a tournament round's start (web/js/countdown.js): minutes and seconds,
// rounded up so that it reaches 0:00 only when the time has come, then "now".

import test from 'node:test';
import assert from 'node:assert/strict';
import { countdownText } from '../../../web/js/countdown.js';

test('minutes and seconds, rounded up', () => {
  assert.equal(countdownText(18000), '0:18');
  assert.equal(countdownText(17001), '0:18');
  assert.equal(countdownText(1), '0:01');
  assert.equal(countdownText(125000), '2:05');
  assert.equal(countdownText(600000), '10:00');
});

test('the time has come: now', () => {
  assert.equal(countdownText(0), 'now');
  assert.equal(countdownText(-4000), 'now');
});
