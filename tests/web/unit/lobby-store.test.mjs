// The lobby's list of rooms (web/js/lobby-store.js): asked only once the server has welcomed
// us (PROTOCOL.md section 5, list_rooms), kept as the last answer says, with the ids as the
// server spells them remembered for joining.

import test from 'node:test';
import assert from 'node:assert/strict';
import { LobbyStore, LOBBY_PAGE } from '../../../web/js/lobby-store.js';
import { RoomStore } from '../../../web/js/room-store.js';
import { fakeHost, fakeStorage } from './fakes.mjs';

test('the list is asked once welcomed, a page at a time', () => {
  fakeStorage();
  const host = fakeHost();
  const session = { welcomed: false };
  const lobby = new LobbyStore(host, session, new RoomStore(host, session));
  lobby.list();
  assert.deepEqual(host.sent, []);
  session.welcomed = true;
  lobby.list();
  assert.deepEqual(host.ofType('list_rooms'), [{ type: 'list_rooms', limit: LOBBY_PAGE }]);
  assert.ok(LOBBY_PAGE >= 1 && LOBBY_PAGE <= 200, 'a limit the server takes (1..200)');
});

test('the answer replaces the list; the ids are kept as the server spells them', () => {
  fakeStorage();
  const host = fakeHost();
  const rooms = new RoomStore(host, { welcomed: true });
  const lobby = new LobbyStore(host, { welcomed: true }, rooms);
  assert.equal(lobby.rooms, null, 'nothing yet');
  lobby.listed({ type: 'rooms', rooms: [{ id: 'k3x9abqz', name: 'Friday' }, { id: 42, name: 'Numbered' }], total: 7 });
  assert.equal(lobby.rooms.length, 2);
  assert.equal(lobby.total, 7);
  assert.ok(lobby.at > 0);
  assert.equal(rooms.idTypes.get('42'), 42);
  lobby.listed({ type: 'rooms', rooms: 'not a list' });
  assert.deepEqual(lobby.rooms, []);
  assert.equal(lobby.total, 0);
});
