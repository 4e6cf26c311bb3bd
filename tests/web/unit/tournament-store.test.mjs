// Tournaments as a tab follows them (web/js/tournament-store.js), against PROTOCOL.md section
// 19: requests pending until answered, pages watched again after a reconnection, a pairing that
// takes the player to their board and tells them whom they play, and the notice of a round
// that waits for its start.

import test from 'node:test';
import assert from 'node:assert/strict';
import { TournamentStore } from '../../../web/js/tournament-store.js';
import { RoomStore } from '../../../web/js/room-store.js';
import { fakeHost, fakeStorage } from './fakes.mjs';

const ANN = { id: 'pk3x9abqz', name: 'Ann' };
const BO = { id: 'pq4mnbvcx', name: 'Bo' };

function tournament(seq, overrides = {}) {
  return {
    type: 'tournament', tournament: 'tk3x9abqz', seq, name: 'Club night', format: 'swiss', status: 'running',
    director: 'pd1r3ct0r', settings: { rounds: 3, games_per_pairing: 1 }, players: [{ ...ANN, active: true }, { ...BO, active: true }],
    rounds: [], standings: [], ...overrides,
  };
}

/** Ann's tab: welcomed, following nothing yet, with the server's clock 10 s ahead of hers. */
function setup({ hash = '#/' } = {}) {
  fakeStorage();
  const host = fakeHost({ hash });
  const session = { welcomed: true, me: { id: ANN.id, name: 'Ann' }, serverNow: () => Date.now() + 10000 };
  const rooms = new RoomStore(host, session);
  const store = new TournamentStore(host, session, rooms);
  return { host, session, rooms, store };
}

function roomSnapshot(room, seq, you = 0) {
  return {
    type: 'room', room, seq, name: 'Club night, round 2', rules: {}, clock_rules: { move_ms: 60000, claim_ms: 10000 }, status: 'playing',
    players: [{ seat: 0, ...ANN, connected: true }, { seat: 1, ...BO, connected: true }], spectators: 0, tournament: 'tk3x9abqz',
    you: { seat: you },
    game: { board: new Array(16).fill(null), available: [...Array(16).keys()], phase: 'give', turn: 0, in_hand: null,
      clock: { remaining_ms: [60000, 60000], running: 0 }, claim: null, moves: [], result: null, first: 0, id: null },
  };
}

test('a request in flight is pending until its answer, and a lost connection ends them all', () => {
  const { host, store } = setup();
  store.act('tk3x9abqz', 'join_tournament');
  assert.deepEqual(host.ofType('join_tournament'), [{ type: 'join_tournament', tournament: 'tk3x9abqz' }]);
  assert.equal(store.book.isPending('tk3x9abqz', 'join_tournament'), true);
  store.snapshot(tournament(2), host.sent[0].ctx);
  assert.equal(store.book.isPending('tk3x9abqz', 'join_tournament'), false);
  store.act('tk3x9abqz', 'remove_player', { player: BO.id });
  assert.equal(store.book.isPending('tk3x9abqz', 'remove_player', BO.id), true);
  store.connectionLost();
  assert.equal(store.book.isPending('tk3x9abqz', 'remove_player', BO.id), false);
});

test('the pages on screen, and the tournaments we play in, are watched again after a reconnection', () => {
  const { host, store } = setup();
  store.watch('tk1');
  store.book.accept(tournament(3, { tournament: 'tk2' })); // Ann plays in it
  store.book.accept(tournament(3, { tournament: 'tk3', players: [{ ...BO, active: true }] })); // not hers
  store.book.accept(tournament(3, { tournament: 'tk4', status: 'finished' }));
  host.sent.length = 0;
  store.welcome(true);
  assert.deepEqual(host.ofType('watch_tournament').map((m) => m.tournament), ['tk1', 'tk2']);
  host.sent.length = 0;
  store.welcome(false);
  assert.deepEqual(host.ofType('watch_tournament').map((m) => m.tournament), ['tk1'], 'a new player is in no tournament');
});

test('leaving a page unwatches it, unless we play in it or direct it: pairings come only to subscribers', () => {
  const { host, store } = setup();
  store.book.accept(tournament(3));
  store.watch('tk3x9abqz');
  store.unwatch('tk3x9abqz');
  assert.deepEqual(host.ofType('unwatch_tournament'), []);
  store.book.accept(tournament(4, { tournament: 'tkother', players: [] }));
  store.watch('tkother');
  store.unwatch('tkother');
  assert.deepEqual(host.ofType('unwatch_tournament'), [{ type: 'unwatch_tournament', tournament: 'tkother' }]);
});

test('a pairing takes the player to the board, and its snapshot tells them whom they play', () => {
  const { host, rooms, store } = setup();
  store.pairing({ type: 'tournament_pairing', tournament: 'tk3x9abqz', round: 2, room: 'm7p2xq4d', opponent: BO.id, game: 1, you_start: true });
  assert.deepEqual(host.opened, ['room:m7p2xq4d']);
  assert.equal(rooms.expectRoom, 'm7p2xq4d', 'the door says the game is on its way');
  assert.deepEqual(host.announced, [], 'not before the room is here');
  store.announcePairing(rooms.snapshot(roomSnapshot('m7p2xq4d', 3)));
  assert.equal(host.announced.length, 1);
  assert.match(host.announced[0], /Round 2/);
  assert.match(host.announced[0], /you play Bo/);
  assert.match(host.announced[0], /you start/);
  store.announcePairing('m7p2xq4d');
  assert.equal(host.announced.length, 1, 'told once');
});

test('taken from a finished game to the next, the player is told how the last one ended', () => {
  const { host, rooms, store } = setup({ hash: '#/room/r1' });
  rooms.snapshot(roomSnapshot('r1', 3));
  rooms.event({ type: 'game_over', room: 'r1', seq: 4, result: 'win', winner: 1, reason: 'timeout' });
  rooms.snapshot(roomSnapshot('r2', 3));
  store.pairing({ type: 'tournament_pairing', tournament: 'tk3x9abqz', round: 1, room: 'r2', opponent: BO.id, game: 2, you_start: false });
  const said = host.notices.find((n) => n.where && n.where.room === 'r2');
  assert.ok(said, 'a notice about the new room');
  assert.match(said.text, /^Last game: /);
  assert.match(said.text, /ran out of time/);
  assert.match(said.text, /Bo starts/);
});

test('a round that waits: a countdown notice, or only an announcement where the page counts down', () => {
  const elsewhere = setup({ hash: '#/' });
  elsewhere.store.book.accept(tournament(3));
  const startsAt = Date.now() + 10000 + 18000; // 18 s on the server's clock
  elsewhere.store.roundNotice({ type: 'tournament_round', tournament: 'tk3x9abqz', round: 3, starts_at_ms: startsAt, opponent: BO.id });
  assert.equal(elsewhere.host.notices.length, 1);
  const { text, kind } = elsewhere.host.notices[0];
  assert.equal(kind, 'info');
  assert.match(text, /^Club night: round 3 starts in 1[78] s/);
  assert.match(text, /you play Bo/);

  const onPage = setup({ hash: '#/tournament/tk3x9abqz' });
  onPage.store.roundNotice({ type: 'tournament_round', tournament: 'tk3x9abqz', round: 3, starts_at_ms: startsAt, opponent: null });
  assert.deepEqual(onPage.host.notices, []);
  assert.match(onPage.host.announced[0], /you have a bye/);
});

test('a list or a page that could not be read says so there, not in a notice', () => {
  const { store } = setup();
  assert.equal(store.refused({ code: 'rate_limited', message: 'Slow down' }, { kind: 'list_tournaments', tournament: null }), true);
  assert.match(store.book.listError, /Slow down/);
  assert.equal(store.refused({ code: 'no_such_tournament', message: 'No such tournament' }, { kind: 'watch_tournament', tournament: 'tkx' }), true);
  assert.equal(store.book.errors.get('tkx').code, 'no_such_tournament');
  assert.equal(store.refused({ code: 'not_director', message: 'No' }, { kind: 'start_tournament', tournament: 'tkx' }), false,
    'a refused action is said as any other refusal');
});
