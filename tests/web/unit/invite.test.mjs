// An invitation in words (web/js/invite.js), from a room's summary as GET /api/rooms/{id}
// answers it (PROTOCOL.md section 15): a free seat is an invitation, a player gone for now
// (`host_away`) is said, taken seats offer to watch, a finished or missing room says so; and
// the rules and clock of the room in a sentence.

import test from 'node:test';
import assert from 'node:assert/strict';
import { invitation, rulesWords, clockWords } from '../../../web/js/invite.js';

const summary = (overrides) => ({ id: 'k3x9abqz', name: 'Friday', status: 'waiting', players: ['Ann'], tournament: null,
  rules: {}, clock: { move_ms: 60000, claim_ms: 10000 }, ...overrides });

test('a free seat: who invites, to which room, with which clock', () => {
  const inv = invitation(summary());
  assert.equal(inv.state, 'open');
  assert.match(inv.title, /Ann invites you to “Friday”/);
  assert.match(inv.title, /60 s per move/);
  assert.equal(invitation(summary({ players: [] })).state, 'open');
});

test('its player gone for now: still joinable, and said', () => {
  const inv = invitation(summary({ host_away: true }));
  assert.equal(inv.state, 'away');
  assert.match(inv.title, /Ann/);
});

test('seats taken: watch; a tournament\'s game is never an open seat', () => {
  assert.equal(invitation(summary({ status: 'playing', players: ['Ann', 'Bo'] })).state, 'playing');
  const t = invitation(summary({ players: ['Ann'], tournament: 'tk1' }));
  assert.equal(t.state, 'playing');
  assert.match(t.text, /tournament/);
});

test('over, or gone', () => {
  assert.equal(invitation(summary({ status: 'finished', players: ['Ann', 'Bo'] })).state, 'finished');
  assert.equal(invitation(null).state, 'missing');
});

test('the clock and rules in words', () => {
  assert.equal(clockWords({ move_ms: null }), 'untimed');
  assert.equal(clockWords(null), 'untimed');
  assert.equal(clockWords({ move_ms: 120000 }), '2 min per move');
  assert.match(rulesWords({}, { move_ms: 60000, claim_ms: 10000 }), /^Standard rules · 60 s per move · 10 s to claim a missed Quarto$/);
  assert.match(rulesWords({ squares: true }, {}), /^Advanced rules/);
  assert.match(rulesWords({ attributes: ['height', 'color'] }, {}), /^Beginner rules: only colour and height count/);
  assert.match(rulesWords({ attributes: ['shape'], false_claim: 'lose' }, {}), /^Only shape count · a wrong Quarto call loses/);
  assert.doesNotMatch(rulesWords({}, { move_ms: 60000 }, false), /per move/, 'not twice where a heading says it');
});
