// The coin flip's line under the game (web/js/game-moves.js): said once the game has begun, or
// after a player left it, in the name of who gave first.

import test from 'node:test';
import assert from 'node:assert/strict';
import { coinText } from '../../../web/js/game-moves.js';
import { Room } from '../../../web/js/room.js';

const ANN = { id: 'pk3x9abqz', name: 'Ann' };
const BO = { id: 'pq4mnbvcx', name: 'Bo' };

function room({ you = 0, status = 'playing', first = 1 } = {}) {
  return new Room({
    type: 'room', room: 'k3x9abqz', seq: 3, name: 'Friday', rules: {}, clock_rules: { move_ms: 60000, claim_ms: 10000 }, status,
    players: [{ seat: 0, ...ANN, connected: true }, { seat: 1, ...BO, connected: true }], spectators: 0, tournament: null,
    you: { seat: you },
    game: { board: new Array(16).fill(null), available: [...Array(16).keys()], phase: status === 'waiting' ? 'waiting' : 'give',
      turn: status === 'playing' ? first : null, in_hand: null, clock: { remaining_ms: [60000, 60000], running: null }, claim: null,
      moves: [], result: null, first, id: null },
  });
}

test('who gave first, in their name, and "(you)" on their own page', () => {
  assert.equal(coinText(room()), 'Coin flip: Bo gave first.');
  assert.equal(coinText(room({ first: 0 })), 'Coin flip: Ann (you) gave first.');
  assert.equal(coinText(room({ you: null, first: 0 })), 'Coin flip: Ann gave first.');
  assert.equal(coinText(room({ status: 'finished' })), 'Coin flip: Bo gave first.');
});

test('nothing before the game begins, nor when nobody has been chosen', () => {
  assert.equal(coinText(room({ status: 'waiting', first: null })), null);
  assert.equal(coinText(room({ status: 'waiting', first: 0 })), null, 'a waiting room nobody left');
  assert.equal(coinText(room({ first: null })), null);
});

test('after a player left, the waiting room still says who gave first in the last game', () => {
  const r = room({ status: 'waiting', first: 0 });
  r.departed = { name: 'Bo' };
  assert.equal(coinText(r), 'Coin flip: Ann (you) gave first.');
});
