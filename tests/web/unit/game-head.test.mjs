// The game view's header (web/js/game-head.js): a tournament's game room named
// "<tournament> · round N" takes its tournament's name in the title as the link back; another
// says its round and game on a line of its own.

import test from 'node:test';
import assert from 'node:assert/strict';

// press.js, which the header's Leave question needs, listens to the page's pointers when loaded.
globalThis.addEventListener ??= () => {};
const { titledByTournament, roundWords } = await import('../../../web/js/game-head.js');

test('the room named after its tournament and round is titled by it', () => {
  assert.equal(titledByTournament('Club night · round 2', 'Club night'), true);
  assert.equal(titledByTournament('Club night · round 2, game 2', 'Club night'), true);
});

test('a name that does not start with the tournament\'s, or no tournament known: a line apart', () => {
  assert.equal(titledByTournament('Friday', 'Club night'), false);
  assert.equal(titledByTournament('Club nights · round 2', 'Club night'), false);
  assert.equal(titledByTournament('Club night', 'Club night'), false);
  assert.equal(titledByTournament('Club night · round 2', null), false);
});

test('the line apart says the round, and the game when a pairing plays two', () => {
  assert.equal(roundWords({ tournament: 't1', round: 2, game: 1 }), ' · round 2');
  assert.equal(roundWords({ tournament: 't1', round: 2, game: 2 }), ' · round 2, game 2');
  assert.equal(roundWords({ tournament: 't1' }), '', 'a spectator knows the tournament only');
});
