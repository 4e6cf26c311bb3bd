// A tournament in words (web/js/tournament-words.js), from snapshots shaped as in PROTOCOL.md
// section 19: its settings in a line, what is happening now (the page's summary and the
// invitation's status) at each step of its life, and a player's place.

import test from 'node:test';
import assert from 'node:assert/strict';
import { formatStart, settingsText, summaryText, ordinal } from '../../../web/js/tournament-words.js';

const ANN = 'pk3x9abqz';
const BO = 'pq4mnbvcx';
const CY = 'pz8w2rt5m';

const done = (a, b, score) => ({ room: `r${a}${b}`, rooms: [`r${a}${b}`], players: [a, b], results: [], score });
const playing = (a, b) => ({ room: `r${a}${b}`, rooms: [`r${a}${b}`], players: [a, b], results: [], score: null });

/** A round robin of three, `status`, with `list` as its rounds. */
function tournament(status, list = [], standings = []) {
  return {
    type: 'tournament', tournament: 'tk3x9abqz', seq: 4, name: 'Club night', format: 'round_robin', status,
    director: ANN, director_name: 'Ann',
    settings: { rounds: 3, games_per_pairing: 1, max_players: 16, start_at_ms: null, round_pause_seconds: 20,
      rules: {}, clock: { move_ms: 60000, claim_ms: 10000 } },
    players: [{ id: ANN, name: 'Ann', active: true }, { id: BO, name: 'Bo', active: true }, { id: CY, name: 'Cy', active: true }],
    rounds: list, standings,
  };
}

test('the settings in a line: format, rounds, games per pairing, the pause, the rules and clock', () => {
  assert.equal(settingsText(tournament('running')),
    'Round robin · 3 rounds · 1 game per pairing · 20 s between rounds · 60 s per move · 10 s to claim');
  assert.equal(settingsText({ format: 'swiss', status: 'registering', settings: { games_per_pairing: 2 } }),
    'Swiss · rounds set at the start · 2 games per pairing (each starts once) · standard rules');
  assert.equal(settingsText({ format: 'round_robin', status: 'registering', settings: {} }),
    'Round robin · everyone meets everyone · 1 game per pairing · standard rules');
  assert.equal(settingsText({ format: 'round_robin', status: 'registering', settings: { rated: true, clock: { move_ms: 30000 } } }),
    'Round robin · everyone meets everyone · 1 game per pairing · 30 s per move · rated', 'a rated tournament says so');
});

test('registering: how many have registered, and how it starts', () => {
  assert.equal(summaryText(tournament('registering')),
    'Registration is open: 3 players registered (at most 16). The director starts it when everybody is here.');
  const timed = tournament('registering');
  timed.settings.start_at_ms = Date.UTC(2030, 0, 1, 19, 30);
  timed.settings.max_players = null;
  timed.players = [{ id: ANN, name: 'Ann', active: true }];
  assert.equal(summaryText(timed), `Registration is open: 1 player registered. It starts by itself at ${formatStart(timed.settings.start_at_ms)
  } if at least 2 players have registered, or when the director starts it.`);
});

test('running: the round being played, or the next one paired and waiting for its start', () => {
  assert.equal(summaryText(tournament('running')), 'Starting…');
  const r1 = { round: 1, starts_at_ms: null, pairings: [playing(ANN, BO), { room: null, players: [CY, null], score: [1, 0] }] };
  assert.equal(summaryText(tournament('running', [r1])), 'Round 1 of 3 is being played.');
  const over = { ...r1, pairings: [done(ANN, BO, [1, 0])] };
  const r2 = { round: 2, starts_at_ms: 1e13, pairings: [playing(ANN, CY)] };
  assert.equal(summaryText(tournament('running', [over, r2])),
    'Round 1 of 3 is over. Round 2 is paired: its games start after a short pause.');
});

test('paused: before a waiting round, while a round is played out, or between rounds', () => {
  const over = { round: 1, starts_at_ms: null, pairings: [done(ANN, BO, [1, 0])] };
  const r2 = { round: 2, starts_at_ms: 1e13, pairings: [playing(ANN, CY)] };
  assert.equal(summaryText(tournament('paused', [over, r2])),
    'Paused by the director before round 2 of 3: its games start when the director resumes.');
  const on = { round: 1, starts_at_ms: null, pairings: [playing(ANN, BO)] };
  assert.equal(summaryText(tournament('paused', [on])),
    'Paused by the director: the games of round 1 are played out, then the tournament waits for the director to resume it.');
  assert.equal(summaryText(tournament('paused', [over])),
    'Paused by the director after round 1 of 3: the next round starts when the director resumes.');
});

test('finished: the winner, or those who share first place, with their points', () => {
  const row = (player, name, rank, points) => ({ rank, player, name, points, tiebreaks: {} });
  assert.equal(summaryText(tournament('finished', [], [row(ANN, 'Ann', 1, 2), row(BO, 'Bo', 2, 1)])),
    'The tournament is over: Ann wins with 2 points.');
  assert.equal(summaryText(tournament('finished', [], [row(ANN, 'Ann', 1, 1.5), row(BO, 'Bo', 1, 1.5)])),
    'The tournament is over: Ann and Bo share first place with 1½ points.');
  assert.equal(summaryText(tournament('finished', [], [row(ANN, 'Ann', 1, 1)])), 'The tournament is over: Ann wins with 1 point.');
  assert.equal(summaryText(tournament('finished')), 'The tournament is over.');
});

test('places in English: 1st, 2nd, 3rd, 4th, and the teens', () => {
  assert.deepEqual([1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal),
    ['1st', '2nd', '3rd', '4th', '10th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th', '112th']);
});

test('a start time is said in the reader\'s own words, with its year', () => {
  assert.match(formatStart(Date.UTC(2030, 0, 1, 19, 30)), /2030/);
});
