// The rooms a tab follows, kept in step with the server (web/js/room-store.js), against
// PROTOCOL.md sections 9 to 12: events applied strictly in seq order, old ones ignored, a gap
// answered by one `sync` from the last seq held, `synced` checked, a room gone or lost
// forgotten, spectators watching again after a reconnection, and a resume that waits for the
// snapshots of the rooms it remembers.

import test from 'node:test';
import assert from 'node:assert/strict';
import { RoomStore, roomKey, parseRoomId, roomInHash } from '../../../web/js/room-store.js';
import { fakeHost, fakeStorage } from './fakes.mjs';

const ANN = { id: 'pk3x9abqz', name: 'Ann' };
const BO = { id: 'pq4mnbvcx', name: 'Bo' };

function snapshot(room, seq, { you = 0, status = 'playing' } = {}) {
  return {
    type: 'room', room, seq, name: `Room ${room}`, rules: {}, clock_rules: { move_ms: 60000, claim_ms: 10000 }, status,
    players: [{ seat: 0, ...ANN, connected: true }, { seat: 1, ...BO, connected: true }], spectators: 0, tournament: null,
    you: { seat: you },
    game: { board: new Array(16).fill(null), available: [...Array(16).keys()], phase: 'give', turn: 0, in_hand: null,
      clock: { remaining_ms: [60000, 60000], running: 0 }, claim: null, moves: [], result: null, first: 0, id: null },
  };
}

const give = (room, seq, piece) => ({ type: 'given', room, seq, seat: 0, piece, clock: { remaining_ms: [60000, 60000], running: 1 }, claim: null });

/** A store whose clock the test moves (`clock.now`), and the host it talks through. */
function setup({ welcomed = true } = {}) {
  const storage = fakeStorage();
  const host = fakeHost();
  const clock = { now: 100000 };
  const store = new RoomStore(host, { welcomed }, () => clock.now);
  return { storage, host, clock, store };
}

test('events apply strictly in seq order; old ones are ignored', () => {
  const { host, store } = setup();
  store.snapshot(snapshot('k3x9abqz', 7));
  assert.equal(store.event(give('k3x9abqz', 8, 10)), true);
  const room = store.get('k3x9abqz');
  assert.equal(room.seq, 8);
  assert.equal(room.inHand, 10);
  assert.equal(store.event(give('k3x9abqz', 8, 11)), false, 'the same seq again (a sync replays it)');
  assert.equal(store.event(give('k3x9abqz', 5, 12)), false);
  assert.equal(room.inHand, 10);
  assert.deepEqual(host.ofType('sync'), [], 'nothing was missed');
  assert.deepEqual(host.announced, ['Ann gave a piece.']);
});

test('a gap is not applied: one sync asks for everything after the last seq held', () => {
  const { host, clock, store } = setup();
  store.snapshot(snapshot('k3x9abqz', 7));
  assert.equal(store.event(give('k3x9abqz', 9, 10)), false);
  assert.equal(store.get('k3x9abqz').seq, 7);
  assert.deepEqual(host.ofType('sync'), [{ type: 'sync', room: 'k3x9abqz', since: 7 }]);
  assert.equal(host.sent[0].ctx.kind, 'sync');
  // More of the gap while the answer is on its way: no second request for a few seconds...
  store.event(give('k3x9abqz', 10, 11));
  assert.equal(host.ofType('sync').length, 1);
  // ...then one more, should the first have gone unanswered.
  clock.now += 3000;
  store.event(give('k3x9abqz', 11, 12));
  assert.equal(host.ofType('sync').length, 2);
  // The answer: the missing events in order, then `synced`.
  store.event({ type: 'placed', room: 'k3x9abqz', seq: 8, seat: 1, square: 0, piece: 5, clock: { remaining_ms: [60000, 60000], running: 1 } });
  store.event(give('k3x9abqz', 9, 10));
  store.synced({ type: 'synced', room: 'k3x9abqz', seq: 9 });
  assert.equal(store.get('k3x9abqz').seq, 9);
  assert.equal(store.get('k3x9abqz').board[0], 5);
  assert.equal(host.ofType('sync').length, 2, 'caught up: nothing more to ask');
});

test('a sync that leaves the room behind the server is asked again, three times at most', () => {
  const { host, store } = setup();
  store.snapshot(snapshot('k3x9abqz', 7));
  for (let i = 0; i < 3; i++) store.synced({ type: 'synced', room: 'k3x9abqz', seq: 12 });
  assert.deepEqual(host.ofType('sync').map((m) => m.since), [7, 7, 7]);
  assert.deepEqual(host.notices, []);
  store.synced({ type: 'synced', room: 'k3x9abqz', seq: 12 });
  assert.equal(host.ofType('sync').length, 3);
  assert.match(host.notices[0].text, /reload/);
});

test('events of rooms not followed are dropped', () => {
  const { host, store } = setup();
  assert.equal(store.event(give('elsewhere', 3, 1)), false);
  assert.deepEqual(host.sent, []);
});

test('a room we created opens when its snapshot comes, not before', () => {
  const { host, store } = setup();
  store.created({ type: 'room_created', room: 'k3x9abqz' });
  assert.equal(store.expectRoom, 'k3x9abqz');
  assert.deepEqual(host.opened, []);
  store.snapshot(snapshot('k3x9abqz', 1, { status: 'waiting' }));
  assert.deepEqual(host.opened, ['room:k3x9abqz']);
  assert.equal(store.expectRoom, null);
});

test('the rooms followed are remembered across reloads, watched ones apart', () => {
  const { storage, store } = setup();
  store.snapshot(snapshot('seat', 3, { you: 0 }));
  store.join('watch', 'spectator');
  store.snapshot(snapshot('watch', 3, { you: null }));
  assert.deepEqual(JSON.parse(storage.getItem('quarto.rooms')).sort(), ['seat', 'watch']);
  assert.deepEqual(JSON.parse(storage.getItem('quarto.watching')), ['watch']);
  const again = new RoomStore(fakeHost(), { welcomed: false });
  assert.deepEqual([...again.remembered].sort(), ['seat', 'watch']);
  assert.deepEqual([...again.watching], ['watch']);
});

test('leaving forgets the room', () => {
  const { host, storage, store } = setup();
  store.snapshot(snapshot('k3x9abqz', 3));
  store.leave(store.get('k3x9abqz'));
  assert.deepEqual(host.ofType('leave'), [{ type: 'leave', room: 'k3x9abqz' }]);
  assert.equal(store.get('k3x9abqz'), null);
  assert.deepEqual(JSON.parse(storage.getItem('quarto.rooms')), []);
});

test('a game action carries the phase it was meant for, to explain a refusal', () => {
  const { host, store } = setup();
  store.snapshot(snapshot('k3x9abqz', 3));
  store.act(store.get('k3x9abqz'), 'give', { piece: 4 });
  assert.deepEqual(host.ofType('give'), [{ type: 'give', room: 'k3x9abqz', piece: 4 }]);
  assert.deepEqual(host.sent[0].ctx, { kind: 'give', key: 'k3x9abqz', phase: 'give' });
});

test('a room the server no longer has is forgotten and said; a spectator not in it watches again', () => {
  const { host, store } = setup();
  store.snapshot(snapshot('gone', 3));
  store.snapshot(snapshot('seen', 3, { you: null }));
  store.syncRefused({ type: 'error', code: 'no_such_room' }, { kind: 'sync', key: 'gone' });
  assert.equal(store.get('gone'), null);
  assert.equal(host.notices[0].kind, 'info');
  store.syncRefused({ type: 'error', code: 'not_in_room' }, { kind: 'sync', key: 'seen' });
  assert.equal(store.get('seen'), null);
  assert.deepEqual(host.ofType('join'), [{ type: 'join', room: 'seen', as: 'spectator' }]);
  assert.equal(host.notices.length, 1, 'watching again needs no word');
  store.syncRefused({ type: 'error', code: 'rate_limited' }, { kind: 'sync', key: 'seen' });
  assert.equal(host.notices.length, 1, 'too fast: the next sync will do');
});

test('a room closed for idleness is dropped with a word', () => {
  const { host, store } = setup();
  store.snapshot(snapshot('k3x9abqz', 3, { status: 'finished' }));
  store.closed({ type: 'room_closed', room: 'k3x9abqz' });
  assert.equal(store.get('k3x9abqz'), null);
  assert.match(host.notices[0].text, /Room k3x9abqz was closed/);
});

test('welcomed back: every room followed is synced from its last seq', () => {
  const { host, store } = setup();
  store.snapshot(snapshot('a', 4));
  store.snapshot(snapshot('b', 9, { you: null }));
  host.sent.length = 0;
  store.connectionLost(false);
  store.welcome(true);
  assert.deepEqual(host.ofType('sync').map((m) => [m.room, m.since]), [['a', 4], ['b', 9]]);
});

test('welcomed as a new player: the seats of the old identity are dropped, the rooms watched kept', () => {
  const { host, store } = setup();
  store.snapshot(snapshot('seat', 4));
  store.snapshot(snapshot('watch', 9, { you: null }));
  host.sent.length = 0;
  store.welcome(false);
  assert.equal(store.get('seat'), null);
  assert.notEqual(store.get('watch'), null);
  assert.deepEqual(host.ofType('sync').map((m) => m.room), ['watch']);
  assert.deepEqual([...store.remembered], ['watch']);
});

test('a resume waits for the rooms it remembers, then watches again those that did not come back', () => {
  const storage = fakeStorage();
  storage.setItem('quarto.rooms', JSON.stringify(['seat', 'watch']));
  storage.setItem('quarto.watching', JSON.stringify(['watch']));
  const host = fakeHost();
  const store = new RoomStore(host, { welcomed: true });
  store.welcome(true);
  store.awaitResume(true);
  assert.equal(store.resuming, true, 'the rooms are on their way');
  store.snapshot(snapshot('seat', 12));
  // The watched room's snapshot does not come (spectators lose their place when away): watch it again.
  assert.equal(store.resuming, true);
  store.finishResume();
  assert.equal(store.resuming, false);
  assert.deepEqual(host.ofType('join'), [{ type: 'join', room: 'watch', as: 'spectator' }]);
  assert.equal(host.sent.at(-1).ctx.silent, true);
});

test('the resume ends as soon as the last remembered room is back', () => {
  const storage = fakeStorage();
  storage.setItem('quarto.rooms', JSON.stringify(['a', 'b']));
  const store = new RoomStore(fakeHost(), { welcomed: true });
  store.awaitResume(true);
  store.snapshot(snapshot('b', 2));
  assert.equal(store.resuming, true);
  store.snapshot(snapshot('a', 5));
  assert.equal(store.resuming, false);
});

test('a lost token leaves no room; whether a seat was lost is told', () => {
  const { store } = setup();
  store.snapshot(snapshot('watch', 3, { you: null }));
  assert.equal(store.dropAll(), false);
  store.snapshot(snapshot('seat', 3));
  assert.equal(store.dropAll(), true);
  assert.equal(store.rooms.size, 0);
  assert.equal(store.remembered.size, 0);
});

test('a server restart freezes the clocks until the rooms come back', () => {
  const { store } = setup();
  store.snapshot(snapshot('k3x9abqz', 3));
  store.connectionLost(true);
  assert.equal(store.get('k3x9abqz').clock.frozen, true);
  const other = setup().store;
  other.snapshot(snapshot('k3x9abqz', 3));
  other.connectionLost(false);
  assert.notEqual(other.get('k3x9abqz').clock.frozen, true, 'a lost connection does not stop the game');
});

test('an invitation waits for the welcome, joins once, and a refusal leaves its page to say why', () => {
  fakeStorage();
  const host = fakeHost();
  const session = { welcomed: false };
  const store = new RoomStore(host, session);
  store.invite('k3x9abqz', 'player');
  assert.deepEqual(host.ofType('join'), []);
  session.welcomed = true;
  store.sendInvite();
  store.sendInvite();
  assert.deepEqual(host.ofType('join'), [{ type: 'join', room: 'k3x9abqz', as: 'player' }]);
  assert.equal(store.joinRefused({ kind: 'join', key: 'k3x9abqz', as: 'player' }), false, 'said as any refusal');
  assert.equal(store.inviting.failed, true);
  assert.equal(store.joining.has('k3x9abqz'), false);
  store.dropInvite('k3x9abqz');
  assert.equal(store.inviting, null);
});

test('room ids: keys are strings, an address names its room', () => {
  assert.equal(roomKey(42), '42');
  assert.equal(parseRoomId('%C3%A9t%C3%A9'), 'été');
  assert.equal(parseRoomId('%E0%A4%A'), '%E0%A4%A', 'a broken escape is kept as it is');
  assert.equal(roomInHash('#/room/k3x9abqz'), 'k3x9abqz');
  assert.equal(roomInHash('#/room/k3x9abqz/whatever'), 'k3x9abqz');
  assert.equal(roomInHash('#/tournament/tk3x9abqz'), null);
  assert.equal(roomInHash(''), null);
});
