// The game view's status line and the players' presence (web/js/game-status.js): the player
// on turn is told what to do (give, place, call or pass, PROTOCOL.md sections 6 and 7), the
// other whom they wait for, a spectator who is doing what; a finished game offers the rematch
// or, in a tournament, says what comes next; an absent opponent's time to come back counts down.

import test from 'node:test';
import assert from 'node:assert/strict';
import { statusText, awayText } from '../../../web/js/game-status.js';
import { Room } from '../../../web/js/room.js';

const ANN = { id: 'pk3x9abqz', name: 'Ann' };
const BO = { id: 'pq4mnbvcx', name: 'Bo' };

/** Ann (seat 0) and Bo (seat 1) in a game; `you`: whose page it is (null: a spectator's). */
function room({ you = 0, status = 'playing', phase = 'give', turn = 0, board = new Array(16).fill(null),
  available = [...Array(16).keys()], claim = null, rematch = [false, false], players } = {}) {
  return new Room({
    type: 'room', room: 'k3x9abqz', seq: 5, name: 'Friday', rules: {}, clock_rules: { move_ms: 60000, claim_ms: 10000 }, status,
    players: players ?? [{ seat: 0, ...ANN, connected: true }, { seat: 1, ...BO, connected: true }], spectators: 0, tournament: null,
    you: { seat: you },
    game: { board, available, phase, turn, in_hand: phase === 'place' ? 3 : null, clock: { remaining_ms: [60000, 60000], running: turn },
      claim, moves: [], result: status === 'finished' ? { result: 'win', winner: 0, reason: 'quarto' } : null, first: 0, id: null, rematch },
  });
}

const placedOnce = [5, ...new Array(15).fill(null)];

test('the first give of a game: a piece to give, no Quarto to call yet', () => {
  const text = statusText(room());
  assert.match(text, /^Your move: give Bo a piece/);
  assert.doesNotMatch(text, /Quarto/);
});

test('after a placement the player may give or call', () => {
  assert.match(statusText(room({ board: placedOnce })), /give Bo a piece .* call Quarto!/);
});

test('placing: the piece in hand on an empty square', () => {
  assert.match(statusText(room({ phase: 'place' })), /^Your move: place the piece/);
});

test('waiting on the opponent, in their name', () => {
  assert.equal(statusText(room({ turn: 1 })), 'Bo is choosing a piece to give you.');
  assert.equal(statusText(room({ turn: 1, phase: 'place' })), 'Bo is placing the piece you gave.');
});

test('a spectator is told who does what', () => {
  assert.equal(statusText(room({ you: null, turn: 1 })), 'Bo is choosing a piece to give.');
  assert.equal(statusText(room({ you: null, phase: 'place' })), 'Ann is placing a piece.');
});

test('the board full: call or pass, and in the final window, claim the missed line or pass', () => {
  const full = { board: [...Array(16).keys()], available: [] };
  assert.match(statusText(room(full)), /board is full: call Quarto! if you made a line, or pass/);
  assert.match(statusText(room({ ...full, claim: { seat: 0, remaining_ms: 9000 } })), /if Bo missed a line, or pass to end the game/);
  assert.match(statusText(room({ ...full, you: null })), /Ann may call Quarto or pass/);
});

test('while calling Quarto: how many squares are chosen of the four, and how to cancel', () => {
  const text = statusText(room({ board: placedOnce }), { selecting: [0, 1] });
  assert.match(text, /2 of 4 chosen/);
  assert.match(text, /Escape/);
});

test('a waiting room: the player sends the link; a spectator waits for a second player', () => {
  const seat = [{ seat: 0, ...ANN, connected: true }, null];
  assert.match(statusText(room({ status: 'waiting', phase: 'waiting', turn: null, players: seat })), /Waiting for an opponent — send them the link/);
  assert.match(statusText(room({ status: 'waiting', phase: 'waiting', turn: null, players: seat, you: null })), /Waiting for a second player/);
});

test('game over: the rematch offered, asked, or waited for', () => {
  const over = { status: 'finished', phase: 'finished', turn: null };
  assert.match(statusText(room(over)), /rematch\?$/);
  assert.match(statusText(room({ ...over, rematch: [true, false] })), /Waiting for Bo to accept the rematch/);
  assert.match(statusText(room({ ...over, rematch: [false, true] })), /Bo wants a rematch!/);
  assert.equal(statusText(room({ ...over, you: null })), 'Game over.');
});

test('game over in a tournament: no rematch; the next game comes by itself, or that was the last', () => {
  const over = room({ status: 'finished', phase: 'finished', turn: null });
  assert.match(statusText(over, { tournamentGame: true }), /next tournament game opens by itself/);
  assert.match(statusText(over, { tournamentGame: true, tournamentOver: true }), /tournament's last game/);
  assert.equal(statusText(over, { tournamentGame: true, nextRound: true }), 'Game over.', 'the countdown to the next round says the rest');
});

test('presence: online, reconnecting for oneself, and an absent opponent\'s time to come back', () => {
  const r = room();
  assert.equal(awayText(r, 1, true, 0), 'online');
  assert.equal(awayText(r, 0, false, 0), 'reconnecting…');
  assert.equal(awayText(r, 1, false, 0), 'offline', 'away, with no claim to count down to');
  r.applyEvent({ type: 'disconnected', room: 'k3x9abqz', seq: 6, player: BO, claim_victory_in_ms: 90000 });
  assert.match(awayText(r, 1, false, 0), /^left the game — 1:30 to come back$/);
  r.applyEvent({ type: 'reconnected', room: 'k3x9abqz', seq: 7, player: BO });
  r.applyEvent({ type: 'disconnected', room: 'k3x9abqz', seq: 8, player: BO, claim_victory_in_ms: 0 });
  assert.equal(awayText(r, 1, false, 0), 'not here', 'never came since the game started');
});
