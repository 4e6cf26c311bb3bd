// What the game view says of each seated player's presence (web/js/game-players.js): our own
// seat is as connected as this page is, nobody else's presence is known while the page is
// disconnected, and an absent opponent's time to come back is counted down.

import test from 'node:test';
import assert from 'node:assert/strict';
import { presence } from '../../../web/js/game-players.js';
import { Room } from '../../../web/js/room.js';

const ANN = { id: 'pk3x9abqz', name: 'Ann' };
const BO = { id: 'pq4mnbvcx', name: 'Bo' };

/** Ann's page (seat 0) in a game against Bo; `bo`: fields of Bo's seat. */
function room({ you = 0, bo = {}, players } = {}) {
  return new Room({
    type: 'room', room: 'k3x9abqz', seq: 5, name: 'Friday', rules: {}, clock_rules: { move_ms: 60000, claim_ms: 10000 }, status: 'playing',
    players: players ?? [{ seat: 0, ...ANN, connected: true }, { seat: 1, ...BO, connected: true, ...bo }], spectators: 0, tournament: null,
    you: { seat: you },
    game: { board: new Array(16).fill(null), available: [...Array(16).keys()], phase: 'give', turn: 0, in_hand: null,
      clock: { remaining_ms: [60000, 60000], running: 0 }, claim: null, moves: [], result: null, first: 0, id: null },
  });
}

test('both here, the page connected: online', () => {
  for (const seat of [0, 1]) {
    const p = presence(room(), seat, true);
    assert.equal(p.state, 'online');
    assert.equal(p.title, 'connected');
    assert.equal(p.text, 'online');
    assert.equal(p.connected, true);
    assert.equal(p.known, true);
  }
});

test('this page disconnected: our own seat is reconnecting, the other one\'s presence unknown', () => {
  const mine = presence(room(), 0, false);
  assert.equal(mine.state, 'offline');
  assert.equal(mine.connected, false);
  assert.equal(mine.text, 'reconnecting…');
  const theirs = presence(room(), 1, false);
  assert.equal(theirs.state, 'unknown');
  assert.equal(theirs.known, false);
  assert.equal(theirs.title, 'not known while this page is disconnected');
  assert.equal(theirs.text, '');
});

test('the opponent away: offline, then the time left to come back, then gone', () => {
  assert.equal(presence(room({ bo: { connected: false } }), 1, true).text, 'offline');
  const away = presence(room({ bo: { connected: false, claim_victory_in_ms: 27000 } }), 1, true);
  assert.equal(away.state, 'offline');
  assert.equal(away.title, 'disconnected');
  assert.match(away.text, /^left the game — 0:2[67] to come back$/);
  assert.equal(presence(room({ bo: { connected: false, claim_victory_in_ms: 0 } }), 1, true).text, 'left the game');
});

test('a spectator\'s page knows both players\' presence while connected', () => {
  assert.equal(presence(room({ you: null }), 0, true).state, 'online');
  assert.equal(presence(room({ you: null }), 1, false).state, 'unknown');
});

test('a free seat has nothing to say', () => {
  const p = presence(room({ players: [{ seat: 0, ...ANN, connected: true }, null] }), 1, true);
  assert.equal(p.connected, false);
  assert.equal(p.text, '');
});
