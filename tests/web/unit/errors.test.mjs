// Server error codes in words (web/js/errors.js): every code of PROTOCOL.md sections 13 and 19
// a player can meet is said in a sentence; where the server's own message says more (which
// squares, what is missing) it comes first; the same code reads differently after different
// requests; an unknown code still says what the server said.

import test from 'node:test';
import assert from 'node:assert/strict';
import { describeError } from '../../../web/js/errors.js';

test('every code a player can meet has words of our own beside the server\'s sentence', () => {
  // Section 13: every error carries `message`, a sentence for people that may change.
  for (const code of ['bad_json', 'bad_message', 'unknown_type', 'hello_required', 'no_such_room', 'room_full', 'not_in_room',
    'not_a_player', 'not_your_turn', 'wrong_phase', 'square_taken', 'piece_unavailable', 'invalid_claim', 'rate_limited',
    'unknown_token', 'no_such_tournament', 'not_director', 'registration_closed', 'tournament_full', 'not_registered',
    'wrong_status', 'not_enough_players', 'bot_already_registered']) {
    const text = describeError({ code, message: 'Refused' });
    assert.notEqual(text, 'The server refused: Refused', code);
    assert.ok(text.replace('Refused.', '').trim().length > 10, `${code}: ${text}`);
  }
});

test('the server\'s own message first where it says more, then ours', () => {
  const text = describeError({ code: 'invalid_claim', message: 'Those 4 pieces share no attribute' });
  assert.ok(text.startsWith('Those 4 pieces share no attribute. '), text);
  assert.match(text, /line of four pieces that share a trait/);
  const ended = describeError({ code: 'invalid_claim', message: 'Too late: the chance to call that Quarto has passed.' });
  assert.ok(ended.startsWith('Too late: the chance to call that Quarto has passed. '), 'no second full stop');
  assert.match(describeError({ code: 'rate_limited', message: 'Too many joins, leaves, renames or new rooms; slow down.' }), /^Too many joins/);
});

test('the same code after different requests', () => {
  const start = describeError({ code: 'wrong_status' }, { kind: 'start_tournament' });
  const pause = describeError({ code: 'wrong_status' }, { kind: 'pause_tournament' });
  assert.match(start, /already started/);
  assert.match(pause, /running/);
  assert.notEqual(start, describeError({ code: 'wrong_status' }), 'a request without words of its own gets the general ones');
  assert.match(describeError({ code: 'tournament_full' }, { kind: 'add_bot' }), /computer/);
  assert.match(describeError({ code: 'not_allowed', message: 'Refused' }, { kind: 'create' }), /rated games are for accounts/,
    'a rated room refused');
  assert.match(describeError({ code: 'not_allowed', message: 'Refused' }, { kind: 'create_tournament' }),
    /^This tournament cannot be rated: it needs an account to direct it, all four traits and a clock\.$/, 'a rated tournament refused, in words');
});

test('a move in the wrong phase says what to do instead', () => {
  assert.match(describeError({ code: 'wrong_phase' }, { phase: 'give' }), /give a piece/);
  assert.match(describeError({ code: 'wrong_phase' }, { phase: 'place' }), /place the piece/);
});

test('an unknown code: what the server said, or the code itself', () => {
  assert.equal(describeError({ code: 'too_many_tournaments', message: 'You direct 5 tournaments already' }),
    'The server refused: You direct 5 tournaments already');
  assert.equal(describeError({ code: 'something_new' }), 'The server refused (something_new).');
  assert.equal(describeError(null), 'Something went wrong.');
});
