// The player's own game on the tournament page (web/js/tournament-my-game.js): a finished
// pairing's score is said from the player's side, whichever seat the pairing lists them in.

import test from 'node:test';
import assert from 'node:assert/strict';
import { scoreFor } from '../../../web/js/tournament-my-game.js';

const ANN = 'pk3x9abqz';
const BO = 'pq4mnbvcx';

test('the score from the player\'s side', () => {
  const p = { room: 'r1', players: [ANN, BO], results: [], score: [1, 0] };
  assert.equal(scoreFor(p, ANN), '1 – 0');
  assert.equal(scoreFor(p, BO), '0 – 1');
  const halves = { room: 'r1', players: [BO, ANN], results: [], score: [1.5, 0.5] };
  assert.equal(scoreFor(halves, ANN), '½ – 1½');
  assert.equal(scoreFor(halves, BO), '1½ – ½');
});

test('the pairing itself is left as it was', () => {
  const p = { room: 'r1', players: [ANN, BO], results: [], score: [1, 0] };
  scoreFor(p, BO);
  assert.deepEqual(p.score, [1, 0]);
});
