// The game in words (web/js/words.js): squares named as on the board's frame (columns A to D
// left to right, rows 1 to 4 top to bottom, PROTOCOL.md section 2), a room's rules and clock,
// a move, a result with the traits its four pieces share, the score of a pair, and ratings.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  squareName, rulesSummary, formatSeconds, patternKind, lineWords, moveText, scoreText, resultText, BOT_LEVELS, DEFAULT_BOT_LEVEL,
  ratingText, deviationText, changeText, poolOf, ratedProblem, RATED_PROBLEMS, profileHref, isBot, POOLS,
} from '../../../web/js/words.js';

// Pieces by their bits (section 2): 1 dark, 2 tall, 4 square, 8 hollow.
const DARK = 1;
const TALL = 2;
const SQUARE = 4;
const HOLLOW = 8;

test('squares: 0 top-left A1, 3 top-right D1, 12 bottom-left A4, 15 bottom-right D4', () => {
  assert.equal(squareName(0), 'A1');
  assert.equal(squareName(3), 'D1');
  assert.equal(squareName(5), 'B2');
  assert.equal(squareName(12), 'A4');
  assert.equal(squareName(15), 'D4');
});

test('seconds in words: whole minutes from two minutes on, tenths when not whole', () => {
  assert.equal(formatSeconds(60000), '60 s');
  assert.equal(formatSeconds(90000), '90 s');
  assert.equal(formatSeconds(120000), '2 min');
  assert.equal(formatSeconds(150000), '150 s');
  assert.equal(formatSeconds(3600000), '60 min');
  assert.equal(formatSeconds(1500), '1.5 s');
  assert.equal(formatSeconds(100), '0.1 s');
});

test('a room\'s rules and clock in a line', () => {
  assert.equal(rulesSummary({}, {}), 'standard rules');
  const standard = rulesSummary({ squares: false, attributes: ['color', 'height', 'shape', 'fill'], false_claim: 'reject' },
    { move_ms: 60000, claim_ms: 10000 });
  assert.match(standard, /60 s per move/);
  assert.match(standard, /10 s to claim/);
  assert.doesNotMatch(standard, /only|squares|loses/, 'nothing said of the variants not chosen');
  const beginner = rulesSummary({ attributes: ['height', 'color'] }, {});
  assert.match(beginner, /only/);
  assert.match(beginner, /colour/);
  assert.match(beginner, /height/);
  assert.doesNotMatch(beginner, /shape|fill/);
  assert.match(rulesSummary({ squares: true }, {}), /2×2 squares/);
  assert.match(rulesSummary({ false_claim: 'lose' }, {}), /wrong call loses/);
  assert.match(rulesSummary({}, { move_ms: null }), /untimed/);
  assert.match(rulesSummary({}, { move_ms: 120000 }), /2 min per move/);
});

test('a winning pattern is a line or a 2x2 square, and is named by its squares', () => {
  assert.equal(patternKind([0, 1, 2, 3]), 'line');
  assert.equal(patternKind([3, 6, 9, 12]), 'line');
  assert.equal(patternKind([5, 1, 4, 0]), 'square', 'in any order');
  assert.equal(patternKind([3, 4, 7, 8]), 'line', 'no square wraps around the edge');
  assert.equal(lineWords([[0, 1, 2, 3]]), 'the line A1 B1 C1 D1');
  assert.equal(lineWords([[5, 6, 9, 10]]), 'the square B2 C2 B3 C3');
  assert.equal(lineWords([[0, 1, 2, 3], [0, 5, 10, 15]]), 'the lines A1 B1 C1 D1 and A1 B2 C3 D4');
  assert.equal(lineWords([[0, 1, 2, 3], [0, 1, 4, 5]]), 'the line A1 B1 C1 D1 and the square A1 B1 A2 B2');
});

test('a move in words names who, the piece by its traits and the square', () => {
  const seatName = (s) => ['Ann', 'Bo'][s];
  const give = moveText({ kind: 'give', seat: 0, piece: DARK | TALL }, seatName);
  assert.match(give, /^Ann gave /);
  assert.match(give, /dark/);
  assert.match(give, /tall/);
  const place = moveText({ kind: 'place', seat: 1, piece: 0, square: 15 }, seatName);
  assert.match(place, /^Bo placed .*light.* on D4$/);
  assert.equal(moveText({ kind: 'pass', seat: 1 }, seatName), 'Bo passed');
  assert.equal(moveText({ kind: 'resign', seat: 0 }, seatName), 'Ann resigned');
  assert.equal(moveText({ kind: 'quarto', seat: 0, line: [0, 1, 2, 3] }, seatName), 'Ann called Quarto on A1 B1 C1 D1');
  assert.equal(moveText({ kind: 'pass', seat: 0, name: 'Cy' }, seatName), 'Cy passed', 'a move keeps the name of who made it');
});

/** A finished room as the result words read it. */
function finished(result, { you = null, board = new Array(16).fill(null), attributes } = {}) {
  return {
    result, you, board, rules: attributes ? { attributes } : {}, score: null,
    seatName: (s) => ['Ann', 'Bo'][s],
  };
}

test('a Quarto\'s result names the winner and the traits the four pieces share', () => {
  // Row 0: four dark solid pieces, two tall and two short, two round and two square.
  const board = [DARK, DARK | TALL, DARK | SQUARE, DARK | TALL | SQUARE, ...new Array(12).fill(null)];
  const text = resultText(finished({ result: 'win', winner: 0, reason: 'quarto', line: [0, 1, 2, 3] }, { board }));
  assert.match(text, /^Ann wins/);
  assert.match(text, /Quarto/);
  assert.match(text, /dark/);
  assert.match(text, /solid/);
  assert.doesNotMatch(text, /tall|short|round|square pieces/, 'only what all four share');
  assert.match(text, /line/);
  const counted = resultText(finished({ result: 'win', winner: 0, reason: 'quarto', line: [0, 1, 2, 3] }, { board, attributes: ['color', 'height'] }));
  assert.match(counted, /dark/);
  assert.doesNotMatch(counted, /solid/, 'a trait that does not count in these rules is not named');
});

test('a result says "(you)" to the winner, and why the other lost', () => {
  assert.match(resultText(finished({ result: 'win', winner: 1, reason: 'timeout' }, { you: 1 })), /^Bo \(you\) wins — Ann ran out of time/);
  assert.match(resultText(finished({ result: 'win', winner: 0, reason: 'resign' })), /Bo resigned/);
  assert.match(resultText(finished({ result: 'win', winner: 1, reason: 'missed_quarto' })), /Bo claimed the Quarto that Ann missed/);
  assert.match(resultText(finished({ result: 'win', winner: 0, reason: 'false_claim' })), /Bo called a Quarto that wasn't there/);
  assert.match(resultText(finished({ result: 'win', winner: 1, reason: 'abandoned' })), /Ann left the game/);
  assert.match(resultText(finished({ result: 'win', winner: 0, reason: 'resign', left: true }, { you: 0 })), /^You win — Bo left/);
});

test('a draw says so first, and why', () => {
  const text = resultText(finished({ result: 'draw', winner: null, reason: 'board_full' }));
  assert.match(text, /^Draw/);
  assert.match(text, /board is full/);
  assert.equal(resultText(finished(null)), '', 'no result yet, nothing to say');
});

test('the score of the seated pair, with their names, once a game has ended', () => {
  const room = (score) => ({ score, seatName: (s) => ['Ann', 'Bo'][s] });
  assert.equal(scoreText(room(null)), '');
  assert.equal(scoreText(room({ wins: [0, 0], draws: 0 })), '');
  assert.equal(scoreText(room({ wins: [2, 1], draws: 0 })), 'Ann 2 – 1 Bo');
  assert.equal(scoreText(room({ wins: [2, 1], draws: 1 })), 'Ann 2 – 1 Bo (1 draw)');
  assert.equal(scoreText(room({ wins: [0, 0], draws: 2 })), 'Ann 0 – 0 Bo (2 draws)');
});

test('the computer\'s levels are 1 to 5, as create_room accepts them', () => {
  assert.deepEqual(BOT_LEVELS.map((l) => l.level), [1, 2, 3, 4, 5]);
  assert.ok(BOT_LEVELS.some((l) => l.level === DEFAULT_BOT_LEVEL));
});

// Ratings: a rating in whole points with "?" while provisional, its deviation, a game's change;
// the pool of a room's rules and why a room cannot be rated (create_room's "rated": an account,
// all four traits, a clock); a profile's address.

const ALL = ['color', 'height', 'shape', 'fill'];

test('a rating in whole points, "?" while provisional; nothing for a guest', () => {
  assert.equal(ratingText({ rating: 1500, provisional: true }), '1500?');
  assert.equal(ratingText({ rating: 1612.4999, provisional: false }), '1612', 'the server sends unrounded doubles');
  assert.equal(ratingText({ rating: 1612.5, rd: 60 }), '1613');
  assert.equal(ratingText(null), '');
  assert.equal(ratingText(undefined), '');
  assert.equal(ratingText({ rating: null, provisional: false }), '');
});

test('the deviation as ±, in whole points', () => {
  assert.equal(deviationText(85.3), '±85');
  assert.equal(deviationText(350), '±350');
  assert.equal(deviationText(undefined), '');
});

test('a game\'s change: +12, -12, ±0; nothing without both ratings', () => {
  assert.equal(changeText(1500, 1512), '+12');
  assert.equal(changeText(1500, 1488), '-12');
  assert.equal(changeText(1500, 1500), '±0');
  assert.equal(changeText(1500.4, 1511.6), '+12', 'rounded before subtracting, as the ratings shown');
  assert.equal(changeText(null, 1500), '');
  assert.equal(changeText(1500, undefined), '');
});

test('the pools: all four traits, the 2×2 squares decide between standard and advanced', () => {
  assert.deepEqual(POOLS, ['standard', 'advanced']);
  assert.equal(poolOf({ squares: false, attributes: ALL, false_claim: 'reject' }), 'standard');
  assert.equal(poolOf({ squares: true, attributes: ['fill', 'shape', 'height', 'color'] }), 'advanced', 'in any order');
  assert.equal(poolOf({ squares: false, attributes: ALL, false_claim: 'lose' }), 'standard', 'a wrong call that loses is still rated');
  assert.equal(poolOf({ squares: false, attributes: ['color', 'height'] }), null, 'the beginner variant is never rated');
  assert.equal(poolOf({ squares: true, attributes: ['color', 'height', 'shape'] }), null);
  assert.equal(poolOf({}), 'standard', 'the server\'s default rules count every trait');
});

test('a rated room: an account, all four traits and a clock; each refusal says why', () => {
  const rules = { squares: false, attributes: ALL };
  const timed = { move_ms: 60000, claim_ms: 10000 };
  assert.equal(ratedProblem({ account: true, rules, clock: timed }), null);
  assert.equal(ratedProblem({ account: true, rules: { ...rules, squares: true }, clock: timed }), null);
  assert.equal(ratedProblem({ account: false, rules, clock: timed }), 'account');
  assert.equal(ratedProblem({ account: true, rules: { attributes: ['color'] }, clock: timed }), 'traits');
  assert.equal(ratedProblem({ account: true, rules, clock: { move_ms: null, claim_ms: 10000 } }), 'clock');
  assert.equal(ratedProblem({ account: true, rules, clock: { move_ms: undefined } }), null,
    'a clock field still being typed is left to the form\'s own check');
  assert.equal(ratedProblem({ account: false, rules: { attributes: ['color'] }, clock: { move_ms: null } }), 'account',
    'the account first: nothing else would make it rated');
  for (const why of ['account', 'traits', 'clock']) assert.ok(RATED_PROBLEMS[why].length < 40, `"${RATED_PROBLEMS[why]}" fits a phone's line`);
});

test('a profile\'s address, and the computer that has none', () => {
  assert.equal(profileHref('Ann'), '#/player/Ann');
  assert.equal(profileHref('Zoë / Bo'), '#/player/Zo%C3%AB%20%2F%20Bo');
  assert.equal(isBot('bot-3'), true);
  assert.equal(isBot('pk3x9abqz'), false);
  assert.equal(isBot(null), false);
});
