// What the player may do now in the game view (web/js/game-turn.js): give or place on their own
// turn only (PROTOCOL.md sections 6 and 7), pass once no piece is left, nothing else while a
// Quarto call is being made; resign during a game on; claim the victory once the opponent has
// been away long enough (section 5, claim_victory).

import test from 'node:test';
import assert from 'node:assert/strict';
import { myTurnTo, canGive, canPlace, canPass, canResign, canClaimVictory } from '../../../web/js/game-turn.js';
import { Room } from '../../../web/js/room.js';

const ANN = { id: 'pk3x9abqz', name: 'Ann' };
const BO = { id: 'pq4mnbvcx', name: 'Bo' };

/** Ann (seat 0) and Bo (seat 1); `you`: whose page it is (null: a spectator's). */
function room({ you = 0, status = 'playing', phase = 'give', turn = 0, available = [...Array(16).keys()], bo = {} } = {}) {
  return new Room({
    type: 'room', room: 'k3x9abqz', seq: 5, name: 'Friday', rules: {}, clock_rules: { move_ms: 60000, claim_ms: 10000 }, status,
    players: [{ seat: 0, ...ANN, connected: true }, { seat: 1, ...BO, connected: true, ...bo }], spectators: 0, tournament: null,
    you: { seat: you },
    game: { board: new Array(16).fill(null), available, phase, turn, in_hand: phase === 'place' ? 3 : null,
      clock: { remaining_ms: [60000, 60000], running: turn }, claim: null, moves: [], result: null, first: 0, id: null },
  });
}

test('on one\'s own turn: give when giving, place when placing', () => {
  assert.equal(myTurnTo(room(), 'give'), true);
  assert.equal(myTurnTo(room(), 'place'), false);
  assert.equal(canGive(room(), null), true);
  assert.equal(canPlace(room(), null), false);
  assert.equal(canPlace(room({ phase: 'place' }), null), true);
  assert.equal(canGive(room({ phase: 'place' }), null), false);
});

test('nothing to play on the opponent\'s turn, for a spectator, or once the game is over', () => {
  for (const r of [room({ turn: 1 }), room({ you: null }), room({ status: 'finished' })]) {
    assert.equal(canGive(r, null), false);
    assert.equal(canPlace(r, null), false);
    assert.equal(canPass(r, null), false);
  }
});

test('no piece left to give: pass instead', () => {
  assert.equal(canPass(room(), null), false);
  assert.equal(canPass(room({ available: [] }), null), true);
  assert.equal(canGive(room({ available: [] }), null), false);
});

test('while a Quarto call is being made, even with no square chosen yet, nothing else is played', () => {
  for (const selecting of [[], [0, 5]]) {
    assert.equal(canGive(room(), selecting), false);
    assert.equal(canPlace(room({ phase: 'place' }), selecting), false);
    assert.equal(canPass(room({ available: [] }), selecting), false);
  }
});

test('a seated player resigns during a game on, never before it starts, after it ends or as a spectator', () => {
  assert.equal(canResign(room()), true);
  assert.equal(canResign(room({ turn: 1 })), true, 'on the opponent\'s turn too');
  assert.equal(canResign(room({ status: 'waiting', turn: null })), false);
  assert.equal(canResign(room({ status: 'finished' })), false);
  assert.equal(canResign(room({ you: null })), false);
});

test('the victory is claimed once the absent opponent\'s time to come back has run out', () => {
  assert.equal(canClaimVictory(room()), false, 'Bo is here');
  assert.equal(canClaimVictory(room({ bo: { connected: false } })), false, 'away, with no time given');
  assert.equal(canClaimVictory(room({ bo: { connected: false, claim_victory_in_ms: 30000 } })), false, 'still time to come back');
  assert.equal(canClaimVictory(room({ bo: { connected: false, claim_victory_in_ms: 0 } })), true);
  assert.equal(canClaimVictory(room({ you: null, bo: { connected: false, claim_victory_in_ms: 0 } })), false, 'not a spectator');
});
