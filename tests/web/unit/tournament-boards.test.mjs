// The boards of a tournament's round (web/js/tournament-boards.js), from pairings shaped as in
// PROTOCOL.md section 19: which round is shown when none was picked, what each pairing's Result
// cell says, and the link each of its games gets (Play, Watch, View or Replay; none for a bye
// or a forfeit).

import test from 'node:test';
import assert from 'node:assert/strict';
import { defaultRound, resultWords, gameLinks, roomHref } from '../../../web/js/tournament-boards.js';

const ANN = 'pk3x9abqz';
const BO = 'pq4mnbvcx';
const CY = 'pz8w2rt5m';

const twoGames = { settings: { games_per_pairing: 2 } };
const oneGame = { settings: { games_per_pairing: 1 } };

test('the round shown by default: the latest, or while the next one waits, the one just played', () => {
  const r1 = { round: 1, starts_at_ms: null, pairings: [] };
  const r2 = { round: 2, starts_at_ms: null, pairings: [] };
  assert.equal(defaultRound({ rounds: [r1, r2] }), r2);
  const waiting = { round: 2, starts_at_ms: 1e13, pairings: [] };
  assert.equal(defaultRound({ rounds: [r1, waiting] }), r1);
  assert.equal(defaultRound({ rounds: [waiting] }), waiting, 'no round before it');
});

test('a bye\'s result: its points', () => {
  assert.deepEqual(resultWords(oneGame, { room: null, players: [CY, null], score: [1, 0] }), { bye: '1 (bye)' });
  assert.deepEqual(resultWords(twoGames, { room: null, players: [CY, null], score: null }), { bye: '2 (bye)' });
});

test('a pairing\'s result: the score, the reasons its games ended, what is being played', () => {
  assert.deepEqual(resultWords(oneGame, { room: 'm7p2xq4d', players: [ANN, BO], results: [], score: null }),
    { score: '', reasons: '', live: 'playing' });
  assert.deepEqual(resultWords(oneGame, { room: null, players: [ANN, BO], results: [], score: null }),
    { score: '', reasons: '', live: 'waiting' });
  assert.deepEqual(resultWords(twoGames, { room: 'r2', players: [ANN, BO], results: [{ room: 'r1', winner: ANN, reason: 'quarto' }], score: null }),
    { score: '1 – 0', reasons: 'Quarto', live: 'game 2 playing' });
  assert.deepEqual(resultWords(twoGames, { room: 'r2', players: [ANN, BO],
    results: [{ room: 'r1', winner: ANN, reason: 'quarto' }, { room: 'r2', winner: null, reason: 'board_full' }], score: [1.5, 0.5] }),
  { score: '1½ – ½', reasons: 'Quarto, board full', live: '' });
});

test('one link per game: Play for the player\'s own game on, Watch for another\'s, View for a room left open', () => {
  const on = { room: 'm7p2xq4d', rooms: ['m7p2xq4d'], players: [ANN, BO], results: [], score: null };
  assert.deepEqual(gameLinks(on, true), [{ room: 'm7p2xq4d', label: 'Play', nth: null, game: null }]);
  assert.deepEqual(gameLinks(on, false), [{ room: 'm7p2xq4d', label: 'Watch', nth: null, game: null }]);
  const unarchived = { ...on, results: [], score: [1, 0] };
  assert.deepEqual(gameLinks(unarchived, true), [{ room: 'm7p2xq4d', label: 'View', nth: null, game: null }]);
});

test('a finished game is replayed from the archive; a forfeit has nothing to show; nor has a bye', () => {
  const second = { room: 'r2', rooms: ['r1', 'r2'], players: [ANN, BO],
    results: [{ room: 'r1', game: 'a7k2m9x4q3zt', winner: ANN, reason: 'quarto' }], score: null };
  assert.deepEqual(gameLinks(second, false), [
    { room: 'r1', label: 'Replay 1', nth: 1, game: 'a7k2m9x4q3zt' },
    { room: 'r2', label: 'Watch', nth: 2, game: null }]);
  const forfeit = { room: 'r1', rooms: ['r1'], players: [ANN, BO], results: [{ room: 'r1', winner: ANN, reason: 'forfeit' }], score: [1, 0] };
  assert.deepEqual(gameLinks(forfeit, true), []);
  assert.deepEqual(gameLinks({ room: null, players: [CY, null], score: [1, 0] }, true), []);
  assert.deepEqual(gameLinks({ room: null, rooms: [], players: [ANN, BO], results: [], score: null }, true), [], 'not started yet');
});

test('a room\'s address in this client', () => {
  assert.equal(roomHref('k3x9abqz'), '#/room/k3x9abqz');
  assert.equal(roomHref(42), '#/room/42');
});
