// The bounds the forms check before sending (web/js/limits.js), against PROTOCOL.md: names in
// bytes of UTF-8 after trimming (sections 5, 14 and 19), and the clock's bounds and defaults
// (create_room's `clock`, section 5), which the forms ask for in seconds.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  utf8Length, tooLong, MAX_PLAYER_NAME_BYTES, MAX_ROOM_NAME_BYTES, MAX_TOURNAMENT_NAME_BYTES, MOVE_SECONDS, CLAIM_SECONDS,
  SWISS_ROUNDS, TOURNAMENT_PLAYERS, ROUND_PAUSE_SECONDS,
} from '../../../web/js/limits.js';

test('names are counted in bytes of UTF-8, as the server counts them', () => {
  assert.equal(utf8Length('Ann'), 3);
  assert.equal(utf8Length('é'), 2);
  assert.equal(utf8Length('€'), 3);
  assert.equal(utf8Length('😀'), 4);
  assert.equal(MAX_PLAYER_NAME_BYTES, 32);
  assert.equal(MAX_ROOM_NAME_BYTES, 32);
  assert.equal(MAX_TOURNAMENT_NAME_BYTES, 64);
});

test('a name fits up to the limit exactly, and one byte more is too long', () => {
  assert.equal(tooLong('Your name', 'a'.repeat(32), 32), null);
  assert.equal(tooLong('Your name', 'é'.repeat(16), 32), null);
  const over = tooLong('Your name', `${'é'.repeat(16)}a`, 32);
  assert.match(over, /^Your name is too long/);
  assert.match(over, /32/);
});

test('the clock\'s bounds are the server\'s, in seconds: move 100..3600000 ms, claim 100..600000 ms', () => {
  assert.equal(Math.round(MOVE_SECONDS.min * 1000), 100);
  assert.equal(MOVE_SECONDS.max * 1000, 3600000);
  assert.equal(Math.round(CLAIM_SECONDS.min * 1000), 100);
  assert.equal(CLAIM_SECONDS.max * 1000, 600000);
  assert.equal(MOVE_SECONDS.initial * 1000, 60000, 'the server\'s default move time');
  assert.equal(CLAIM_SECONDS.initial * 1000, 10000, 'the server\'s default claim window');
});

test('a tournament\'s settings are bounded as create_tournament is', () => {
  assert.deepEqual([SWISS_ROUNDS.min, SWISS_ROUNDS.max], [1, 20]);
  assert.deepEqual([TOURNAMENT_PLAYERS.min, TOURNAMENT_PLAYERS.max, TOURNAMENT_PLAYERS.initial], [2, 64, 16]);
  assert.deepEqual([ROUND_PAUSE_SECONDS.min, ROUND_PAUSE_SECONDS.max, ROUND_PAUSE_SECONDS.initial], [0, 600, 20]);
});
