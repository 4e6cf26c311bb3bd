// The pieces (web/js/pieces.js) by their four bits, as PROTOCOL.md section 2 defines them:
// 1 dark, 2 tall, 4 square, 8 hollow; and the traits a set of pieces shares.

import test from 'node:test';
import assert from 'node:assert/strict';
import { pieceName, sharedTraits, ATTRIBUTES } from '../../../web/js/pieces.js';

test('the examples of section 2: 0, 15 and 5', () => {
  assert.equal(pieceName(0), 'light short round solid');
  assert.equal(pieceName(15), 'dark tall square hollow');
  assert.equal(pieceName(5), 'dark short square solid');
});

test('the attribute names are the protocol\'s, one bit each', () => {
  assert.deepEqual(ATTRIBUTES.map((a) => [a.key, a.bit]), [['color', 1], ['height', 2], ['shape', 4], ['fill', 8]]);
});

test('shared traits: every value all the pieces have, of the counted attributes only', () => {
  assert.deepEqual(sharedTraits([1, 3, 5, 7]), ['dark', 'solid']);
  assert.deepEqual(sharedTraits([0, 2, 8, 10]), ['light', 'round']);
  assert.deepEqual(sharedTraits([0, 15, 5, 10]), []);
  assert.deepEqual(sharedTraits([1, 3, 5, 7], ['shape', 'fill']), ['solid']);
  assert.deepEqual(sharedTraits([1, 3, 5, 7], ['height']), []);
});
