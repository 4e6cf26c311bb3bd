// What a tab knows of tournaments (web/js/tournaments.js), against PROTOCOL.md section 19: the
// snapshot with the highest seq kept, and the first after a reconnection whatever its seq (it
// starts again at 1 after a server restart); the rooms of a tournament's games; and the line
// that tells a player their pairing.

import test from 'node:test';
import assert from 'node:assert/strict';
import { TournamentBook, pairingText } from '../../../web/js/tournaments.js';
import { fakeStorage } from './fakes.mjs';

const ANN = { id: 'pk3x9abqz', name: 'Ann' };
const BO = { id: 'pq4mnbvcx', name: 'Bo' };

function tournament(seq, overrides = {}) {
  return {
    type: 'tournament', tournament: 'tk3x9abqz', seq, name: 'Club night', format: 'swiss', status: 'running',
    director: 'pd1r3ct0r', settings: { rounds: 3, games_per_pairing: 1 }, players: [{ ...ANN, active: true }, { ...BO, active: true }],
    rounds: [], standings: [], ...overrides,
  };
}

test('the book keeps the newest snapshot; after a reconnection the first one wins whatever its seq', () => {
  fakeStorage();
  const book = new TournamentBook();
  assert.equal(book.accept(tournament(5)), true);
  assert.equal(book.accept(tournament(4)), false, 'older');
  assert.equal(book.accept(tournament(5)), false, 'the same');
  assert.equal(book.accept(tournament(6, { status: 'paused' })), true);
  assert.equal(book.get('tk3x9abqz').status, 'paused');
  book.connectionLost();
  assert.equal(book.accept(tournament(1, { status: 'running' })), true, 'a restarted server counts from 1 again');
  assert.equal(book.get('tk3x9abqz').status, 'running');
});

test('a snapshot\'s pairings tell which rooms are the tournament\'s games, and which round and game', () => {
  fakeStorage();
  const book = new TournamentBook();
  book.accept(tournament(3, { rounds: [{ round: 1, pairings: [{ room: 'r2', rooms: ['r1', 'r2'], players: [ANN.id, BO.id], results: [], score: null }] }] }));
  assert.deepEqual(book.roomLink('r1'), { tournament: 'tk3x9abqz', round: 1, game: 1 });
  assert.deepEqual(book.roomLink('r2'), { tournament: 'tk3x9abqz', round: 1, game: 2 });
  assert.equal(book.roomLink('elsewhere'), null);
});

test('the rooms of tournament games are remembered across reloads', () => {
  const storage = fakeStorage();
  const book = new TournamentBook();
  book.notePairing({ tournament: 'tk3x9abqz', round: 2, room: 'm7p2xq4d', opponent: BO.id, game: 1, you_start: true });
  assert.ok(storage.getItem('quarto.tournamentRooms'));
  const again = new TournamentBook();
  assert.deepEqual(again.roomLink('m7p2xq4d'), { tournament: 'tk3x9abqz', round: 2, game: 1, youStart: true, opponent: BO.id });
});

test('the pairing line names the round, the game of two, the opponent and who starts', () => {
  const link = { tournament: 'tk', round: 2, game: 2, youStart: false, opponent: BO.id };
  const t = { players: [ANN, BO], settings: { games_per_pairing: 2 } };
  assert.equal(pairingText(link, null, t), 'Round 2, game 2: you play Bo, Bo starts.');
  assert.equal(pairingText({ tournament: 'tk', round: 1, game: 1, youStart: true }, null, null), 'Round 1: you play your opponent, you start.');
});
