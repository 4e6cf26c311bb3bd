// What a profile page (web/js/profile.js) makes of the archive: a game seen from the player's
// side (won, lost or drawn, against whom, the rating it gave), found by id, or by name for a
// record that has no id of theirs; and the chart's series, one per pool with history.

import test from 'node:test';
import assert from 'node:assert/strict';
import { gameFromSide, historySeries } from '../../../web/js/profile.js';

const ANN = { id: 'pAnn', name: 'Ann' };
const BO = { id: 'pBo', name: 'Bo' };

function summary(overrides = {}) {
  return {
    id: 'g7mq2x9kbn4a', players: [{ seat: 0, ...BO }, { seat: 1, ...ANN }],
    rules: { squares: false, attributes: ['color', 'height', 'shape', 'fill'], false_claim: 'reject' },
    clock: { move_ms: 60000, claim_ms: 10000 }, first: 0,
    result: { result: 'win', winner: 1, reason: 'quarto', line: [0, 1, 2, 3] },
    started_ms: 1760000000000, ended_ms: 1760000000900, move_count: 9, rated: false,
    ...overrides,
  };
}

test('a game won, from the winner\'s side: the opponent, the reason', () => {
  const side = gameFromSide(summary(), 'pAnn', 'Ann');
  assert.equal(side.seat, 1);
  assert.equal(side.outcome, 'won');
  assert.deepEqual(side.opponent, { seat: 0, ...BO });
  assert.equal(side.reason, 'Quarto');
  assert.equal(side.change, '');
  assert.equal(side.rating, null);
});

test('lost, and drawn; found by name when the id is not theirs', () => {
  assert.equal(gameFromSide(summary(), 'pBo', 'Bo').outcome, 'lost');
  const draw = summary({ result: { result: 'draw', winner: null, reason: 'board_full' } });
  assert.equal(gameFromSide(draw, 'pBo', 'Bo').outcome, 'draw');
  assert.equal(gameFromSide(draw, 'pBo', 'Bo').reason, 'board full');
  assert.equal(gameFromSide(summary(), 'someone-else', 'ann').seat, 1, 'the name, in any case');
});

test('a rated game: the change and the rating after it, for this player\'s seat', () => {
  const g = summary({ rated: true, ratings: [
    { seat: 0, player: 'pBo', before: 1600, after: 1588, rd: 70, provisional: false },
    { seat: 1, player: 'pAnn', before: 1500, after: 1512, rd: 190, provisional: true }] });
  const ann = gameFromSide(g, 'pAnn', 'Ann');
  assert.equal(ann.change, '+12');
  assert.deepEqual(ann.rating, { rating: 1512, provisional: true });
  assert.equal(gameFromSide(g, 'pBo', 'Bo').change, '-12');
});

test('the chart\'s series: a pool with history, oldest first; none without', () => {
  const history = {
    standard: [{ game: 'a', at_ms: 1, rating: 1500, rd: 350 }, { game: 'b', at_ms: 2, rating: 1520.5, rd: 300 }],
    advanced: [],
  };
  assert.deepEqual(historySeries(history), [{ pool: 'standard', points: history.standard }]);
  assert.deepEqual(historySeries({}), []);
  assert.deepEqual(historySeries(undefined), []);
  assert.deepEqual(historySeries({ advanced: [{ game: 'c', at_ms: 5, rating: null }] }), [], 'points without a rating are left out');
});
