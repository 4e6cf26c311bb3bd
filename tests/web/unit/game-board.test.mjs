// How each square of the game view's board looks (web/js/game-board.js): what its label says to
// a screen reader (the square, its piece, why it is marked), its classes, and whether it does
// anything now: a free square while placing, an occupied one while choosing a Quarto call.

import test from 'node:test';
import assert from 'node:assert/strict';
import { squareLook } from '../../../web/js/game-board.js';
import { Room } from '../../../web/js/room.js';

const ANN = { id: 'pk3x9abqz', name: 'Ann' };
const BO = { id: 'pq4mnbvcx', name: 'Bo' };

/** A game between Ann and Bo with piece 5 on A1, 0 on B1 and 15 on B2, the last placed on B2. */
function room() {
  const board = new Array(16).fill(null);
  board[0] = 5;
  board[1] = 0;
  board[5] = 15;
  return new Room({
    type: 'room', room: 'k3x9abqz', seq: 9, name: 'Friday', rules: {}, clock_rules: { move_ms: 60000, claim_ms: 10000 }, status: 'playing',
    players: [{ seat: 0, ...ANN, connected: true }, { seat: 1, ...BO, connected: true }], spectators: 0, tournament: null, you: { seat: 0 },
    game: { board, available: [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14], phase: 'place', turn: 0, in_hand: 3,
      clock: { remaining_ms: [60000, 60000], running: 0 }, claim: null, result: null, first: 0, id: null,
      moves: [{ type: 'give', seat: 1, piece: 5, t_ms: 0 }, { type: 'place', seat: 0, square: 0, t_ms: 1 },
        { type: 'give', seat: 0, piece: 0, t_ms: 2 }, { type: 'place', seat: 1, square: 1, t_ms: 3 },
        { type: 'give', seat: 1, piece: 15, t_ms: 4 }, { type: 'place', seat: 0, square: 5, t_ms: 5 },
        { type: 'give', seat: 0, piece: 3, t_ms: 6 }] },
  });
}

test('a square says where it is and what is on it', () => {
  const r = room();
  assert.equal(squareLook(r, 0).label, 'A1: dark short square solid');
  assert.equal(squareLook(r, 0).piece, 5);
  assert.equal(squareLook(r, 1).piece, 0, 'piece 0 is a piece');
  assert.equal(squareLook(r, 2).label, 'C1: empty');
  assert.equal(squareLook(r, 2).piece, null);
  assert.equal(squareLook(r, 0).classes, 'square occupied');
  assert.equal(squareLook(r, 5).classes, 'square last occupied', 'the last placement is marked');
  assert.equal(squareLook(r, 2).classes, 'square');
});

test('placing: the free squares do something, the occupied ones do not', () => {
  const r = room();
  assert.equal(squareLook(r, 2, { placing: true }).enabled, true);
  assert.equal(squareLook(r, 0, { placing: true }).enabled, false);
  assert.equal(squareLook(r, 2, { placing: false }).enabled, false, 'not placing: nothing does');
  assert.equal(squareLook(r, 2).chosen, null, 'no call: no pressed state');
});

test('choosing a Quarto call: the occupied squares do something, the chosen ones say so', () => {
  const r = room();
  const selecting = [0];
  assert.equal(squareLook(r, 0, { selecting }).enabled, true);
  assert.equal(squareLook(r, 0, { selecting }).chosen, true);
  assert.equal(squareLook(r, 0, { selecting }).classes, 'square selected occupied');
  assert.equal(squareLook(r, 0, { selecting }).label, 'A1: dark short square solid, chosen for the Quarto call');
  assert.equal(squareLook(r, 1, { selecting }).chosen, false);
  assert.equal(squareLook(r, 2, { selecting, placing: true }).enabled, false, 'a free square is no part of a call');
});

test('the winning line and the squares the claim prompt names are marked and said', () => {
  const r = room();
  const line = [0, 1, 2, 3];
  assert.equal(squareLook(r, 0, { line }).classes, 'square win occupied');
  assert.equal(squareLook(r, 0, { line }).label, 'A1: dark short square solid, part of the winning line');
  assert.equal(squareLook(r, 0, { line: [0, 1, 4, 5] }).label, 'A1: dark short square solid, part of the winning square');
  const prompted = new Set([0, 1, 2, 3]);
  assert.equal(squareLook(r, 1, { prompted }).classes, 'square occupied prompted');
  assert.equal(squareLook(r, 1, { prompted }).label, 'B1: light short round solid, named in the claim prompt');
  assert.equal(squareLook(r, 1, { prompted, line }).label, 'B1: light short round solid, part of the winning line', 'the win says it all');
});
