// The fields of the new-room and new-tournament forms read into what the server takes
// (web/js/form-fields.js): seconds into whole milliseconds within the clock's bounds, whole
// numbers within theirs, an empty field as its default, and anything else refused (undefined).

import test from 'node:test';
import assert from 'node:assert/strict';
import { secondsToMs, wholeNumber, clockMessages } from '../../../web/js/form-fields.js';
import { MOVE_SECONDS, CLAIM_SECONDS, TOURNAMENT_PLAYERS } from '../../../web/js/limits.js';

test('seconds into milliseconds, decimals allowed', () => {
  assert.equal(secondsToMs('60', MOVE_SECONDS, null), 60000);
  assert.equal(secondsToMs(' 2.5 ', MOVE_SECONDS, null), 2500);
  assert.equal(secondsToMs('0.1234', MOVE_SECONDS, null), 123, 'whole milliseconds');
});

test('the bounds are inclusive: 0.1 and 3600 s per move are taken, a hair beyond is not', () => {
  assert.equal(secondsToMs('0.1', MOVE_SECONDS, null), 100);
  assert.equal(secondsToMs('3600', MOVE_SECONDS, null), 3600000);
  assert.equal(secondsToMs('0.09', MOVE_SECONDS, null), undefined);
  assert.equal(secondsToMs('3600.5', MOVE_SECONDS, null), undefined);
  assert.equal(secondsToMs('600', CLAIM_SECONDS, 10000), 600000);
  assert.equal(secondsToMs('601', CLAIM_SECONDS, 10000), undefined);
  assert.equal(secondsToMs('-5', CLAIM_SECONDS, 10000), undefined);
});

test('an empty field is its default; what is no number is refused', () => {
  assert.equal(secondsToMs('', MOVE_SECONDS, null), null, 'no move clock: untimed');
  assert.equal(secondsToMs('   ', CLAIM_SECONDS, 10000), 10000);
  assert.equal(secondsToMs('abc', MOVE_SECONDS, null), undefined);
  assert.equal(secondsToMs('Infinity', MOVE_SECONDS, null), undefined);
});

test('whole numbers: fractions and out-of-range values refused, empty is the default', () => {
  assert.equal(wholeNumber('16', TOURNAMENT_PLAYERS, 16), 16);
  assert.equal(wholeNumber('2', TOURNAMENT_PLAYERS, 16), 2);
  assert.equal(wholeNumber('64', TOURNAMENT_PLAYERS, 16), 64);
  assert.equal(wholeNumber('1', TOURNAMENT_PLAYERS, 16), undefined);
  assert.equal(wholeNumber('65', TOURNAMENT_PLAYERS, 16), undefined);
  assert.equal(wholeNumber('2.5', TOURNAMENT_PLAYERS, 16), undefined);
  assert.equal(wholeNumber('', TOURNAMENT_PLAYERS, 16), 16);
  assert.equal(wholeNumber('', TOURNAMENT_PLAYERS, null), null);
});

test('the complaints name the bounds they check', () => {
  const { move, claim } = clockMessages('no clock');
  assert.match(move, /0\.1 and 3600 seconds/);
  assert.match(move, /empty for no clock/);
  assert.match(claim, /0\.1 and 600 seconds/);
});
