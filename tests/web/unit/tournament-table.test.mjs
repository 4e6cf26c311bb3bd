// The tables of a tournament page (web/js/tournament-table.js), from snapshots shaped as in
// PROTOCOL.md section 19: points in chess notation, each game's mark, the crosstable, the
// leaders, and the round that waits for its start.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  formatPoints, formatTiebreak, totalRounds, gamesPerPairing, isBye, pairingDone, resultMark, pairingMarks, crosstable,
  describeCell, scoreText, pairingOf, roundComplete, leaders, waitingRound, roundBefore, reasonWords,
} from '../../../web/js/tournament-table.js';

const ANN = 'pk3x9abqz';
const BO = 'pq4mnbvcx';
const CY = 'pz8w2rt5m';
const DI = 'pm5n7bc2x';

/** Section 19's example: a round robin of four after its first round, the second one under way. */
function clubNight() {
  return {
    type: 'tournament', tournament: 'tk3x9abqz', seq: 7, name: 'Club night', format: 'round_robin', status: 'running',
    director: 'pd1r3ct0r', director_name: 'Dee',
    settings: { rounds: 3, games_per_pairing: 1, max_players: 16, start_at_ms: null, round_pause_seconds: 20 },
    players: [{ id: ANN, name: 'Ann', active: true }, { id: BO, name: 'Bo', active: true },
      { id: CY, name: 'Cy', active: true }, { id: DI, name: 'Di', active: true }],
    rounds: [
      { round: 1, starts_at_ms: null, pairings: [
        { room: 'm7p2xq4d', rooms: ['m7p2xq4d'], players: [ANN, DI],
          results: [{ room: 'm7p2xq4d', game: 'a7k2m9x4q3zt', first: DI, winner: ANN, reason: 'quarto' }], score: [1, 0] },
        { room: 'x4c8vb2n', rooms: ['x4c8vb2n'], players: [BO, CY],
          results: [{ room: 'x4c8vb2n', game: 'h3n8b2v6c9wd', first: BO, winner: null, reason: 'board_full' }], score: [0.5, 0.5] }] },
      { round: 2, starts_at_ms: null, pairings: [
        { room: 'h2j4k6m8', rooms: ['h2j4k6m8'], players: [DI, CY], results: [], score: null },
        { room: 'q9w8e7r6', rooms: ['q9w8e7r6'], players: [ANN, BO], results: [], score: null }] }],
    standings: [
      { rank: 1, player: ANN, name: 'Ann', points: 1, tiebreaks: { sonneborn_berger: 0 } },
      { rank: 2, player: BO, name: 'Bo', points: 0.5, tiebreaks: { sonneborn_berger: 0.25 } },
      { rank: 2, player: CY, name: 'Cy', points: 0.5, tiebreaks: { sonneborn_berger: 0.25 } },
      { rank: 4, player: DI, name: 'Di', points: 0, tiebreaks: { sonneborn_berger: 0 } }],
  };
}

test('points in chess notation: halves as ½', () => {
  assert.equal(formatPoints(0), '0');
  assert.equal(formatPoints(0.5), '½');
  assert.equal(formatPoints(1), '1');
  assert.equal(formatPoints(1.5), '1½');
  assert.equal(formatPoints(12.5), '12½');
  assert.equal(formatPoints(undefined), '—');
  assert.equal(formatPoints(Number.NaN), '—');
});

test('tie-breaks may be quarters: plain decimals', () => {
  assert.equal(formatTiebreak(0.25), '0.25');
  assert.equal(formatTiebreak(2.75), '2.75');
  assert.equal(formatTiebreak(3), '3');
  assert.equal(formatTiebreak(null), '—');
});

test('each finished game\'s mark for a player: 1, 0, ½, and + or − for a forfeit', () => {
  assert.equal(resultMark({ winner: ANN, reason: 'quarto' }, ANN), '1');
  assert.equal(resultMark({ winner: ANN, reason: 'quarto' }, DI), '0');
  assert.equal(resultMark({ winner: null, reason: 'board_full' }, BO), '½');
  assert.equal(resultMark({ winner: CY, reason: 'forfeit' }, CY), '+');
  assert.equal(resultMark({ winner: CY, reason: 'forfeit' }, BO), '−');
});

test('a pairing\'s marks, with "…" for the game being played', () => {
  const t = clubNight();
  assert.deepEqual(pairingMarks(t.rounds[0].pairings[0], ANN), ['1']);
  assert.deepEqual(pairingMarks(t.rounds[0].pairings[0], DI), ['0']);
  assert.deepEqual(pairingMarks(t.rounds[1].pairings[1], ANN), ['…']);
  // Two games a pairing: the first is over, the second under way.
  const twoGames = { room: 'r2', rooms: ['r1', 'r2'], players: [ANN, BO],
    results: [{ room: 'r1', winner: BO, reason: 'timeout' }], score: null };
  assert.deepEqual(pairingMarks(twoGames, ANN), ['0', '…']);
  assert.equal(scoreText(twoGames), '0 – 1', 'the points so far');
});

test('a pairing\'s score: once over from `score`, else nothing before a game ends', () => {
  const t = clubNight();
  assert.equal(scoreText(t.rounds[0].pairings[0]), '1 – 0');
  assert.equal(scoreText(t.rounds[0].pairings[1]), '½ – ½');
  assert.equal(scoreText(t.rounds[1].pairings[0]), '');
  assert.ok(pairingDone(t.rounds[0].pairings[0]));
  assert.ok(!pairingDone(t.rounds[1].pairings[0]));
  assert.ok(roundComplete(t.rounds[0]));
  assert.ok(!roundComplete(t.rounds[1]));
});

test('the crosstable: players in standings order, each pair\'s games seen from both sides', () => {
  const { order, cells, byes } = crosstable(clubNight());
  assert.deepEqual(order, [ANN, BO, CY, DI]);
  assert.deepEqual(cells.get(`${ANN} ${DI}`), [{ round: 1, marks: ['1'] }]);
  assert.deepEqual(cells.get(`${DI} ${ANN}`), [{ round: 1, marks: ['0'] }]);
  assert.deepEqual(cells.get(`${BO} ${CY}`), [{ round: 1, marks: ['½'] }]);
  assert.deepEqual(cells.get(`${ANN} ${BO}`), [{ round: 2, marks: ['…'] }]);
  assert.equal(cells.get(`${ANN} ${CY}`), undefined, 'they have not met');
  assert.equal(byes.size, 0);
  assert.match(describeCell(cells.get(`${ANN} ${DI}`), 'Di'), /round 1: won against Di/);
  assert.match(describeCell(cells.get(`${ANN} ${BO}`), 'Bo'), /being played/);
});

test('a bye scores a win for each game of the pairing', () => {
  const t = clubNight();
  t.settings.games_per_pairing = 2;
  t.players.push({ id: 'pe5', name: 'Ed', active: true });
  t.rounds[0].pairings.push({ room: null, rooms: [], players: ['pe5', null], results: [], score: null });
  t.rounds[1].pairings.push({ room: null, rooms: [], players: [CY, null], results: [], score: [2, 0] });
  assert.equal(gamesPerPairing(t), 2);
  assert.ok(isBye(t.rounds[0].pairings[2]));
  assert.ok(!isBye(t.rounds[0].pairings[0]));
  const { byes } = crosstable(t);
  assert.deepEqual(byes.get('pe5'), [{ round: 1, points: 2 }]);
  assert.deepEqual(byes.get(CY), [{ round: 2, points: 2 }]);
});

test('how many rounds: the settings\' number, else a round robin\'s schedule once started', () => {
  assert.equal(totalRounds(clubNight()), 3);
  const unknown = { ...clubNight(), settings: { games_per_pairing: 1 } };
  assert.equal(totalRounds(unknown), 2, 'a round robin under way has paired all its rounds');
  assert.equal(totalRounds({ ...unknown, status: 'registering', rounds: [] }), null, 'the field is still open');
  assert.equal(totalRounds({ ...unknown, format: 'swiss' }), null);
});

test('a player\'s pairing in a round', () => {
  const t = clubNight();
  assert.deepEqual(pairingOf(t.rounds[1], BO).players, [ANN, BO]);
  assert.equal(pairingOf(t.rounds[1], 'nobody'), null);
  assert.equal(pairingOf(null, ANN), null);
});

test('the leaders: one, or those sharing first place', () => {
  assert.deepEqual(leaders(clubNight()), { names: 'Ann', shared: false, points: 1 });
  const shared = clubNight();
  shared.standings = shared.standings.map((s) => ({ ...s, rank: 1 }));
  assert.equal(leaders(shared).names, 'Ann, Bo, Cy and Di');
  assert.equal(leaders(shared).shared, true);
  assert.equal(leaders({ standings: [] }), null);
});

test('the round waiting for its start, and the one whose results stay on screen meanwhile', () => {
  const t = clubNight();
  assert.equal(waitingRound(t), null, 'every round has started');
  t.rounds.push({ round: 3, starts_at_ms: 1795000020000, pairings: [{ room: null, rooms: [], players: [ANN, CY], results: [], score: null }] });
  assert.equal(waitingRound(t).round, 3);
  assert.equal(roundBefore(t, waitingRound(t)).round, 2);
  assert.equal(roundBefore(t, t.rounds[0]), null);
});

test('the reasons of game_over in words, and a forfeit', () => {
  assert.equal(reasonWords('timeout'), 'on time');
  assert.equal(reasonWords('forfeit'), 'forfeit');
  assert.equal(reasonWords('something_new'), 'something_new', 'an unknown reason as it came');
  assert.equal(reasonWords(undefined), '');
});
