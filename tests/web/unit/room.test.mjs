// The room model (web/js/room.js): a `room` snapshot read as PROTOCOL.md section 10 describes
// it, and the events of section 9 applied one after the other, as a player sees a game go.

import test from 'node:test';
import assert from 'node:assert/strict';
import { Room, ROOM_EVENTS, winningLines, makeClock, clockLeft } from '../../../web/js/room.js';

const RULES = { squares: false, attributes: ['color', 'height', 'shape', 'fill'], false_claim: 'reject' };
const ANN = { id: 'pk3x9abqz', name: 'Ann' };
const BO = { id: 'pq4mnbvcx', name: 'Bo' };

/** Ann's new room, as the creator's snapshot shows it (section 10, "A waiting room"). */
function waitingSnapshot(overrides = {}) {
  return {
    type: 'room', room: 'k3x9abqz', seq: 1, name: "Ann's room", rules: RULES,
    clock_rules: { move_ms: 60000, claim_ms: 10000 }, status: 'waiting',
    players: [{ seat: 0, ...ANN, connected: true }, null], spectators: 0, tournament: null, you: { seat: 0 },
    game: {
      board: new Array(16).fill(null), available: [...Array(16).keys()], phase: 'waiting', turn: null, in_hand: null,
      clock: { remaining_ms: [60000, 60000], running: null }, claim: null, moves: [], result: null, first: null, id: null,
    },
    ...overrides,
  };
}

const clock = (a, b, running) => ({ remaining_ms: [a, b], running });

/** Ann's room after Bo sat down and the coin chose Bo (seat 1) to give first. */
function startedRoom() {
  const room = new Room(waitingSnapshot());
  room.applyEvent({ type: 'joined', room: 'k3x9abqz', seq: 2, player: BO, as: 'player', seat: 1 });
  room.applyEvent({ type: 'game_started', room: 'k3x9abqz', seq: 3, first: 1, players: [ANN, BO], clock: clock(60000, 60000, 1) });
  return room;
}

test('a waiting room: one seat taken, the empty position, nobody on turn', () => {
  const room = new Room(waitingSnapshot());
  assert.equal(room.id, 'k3x9abqz');
  assert.equal(room.seq, 1);
  assert.equal(room.status, 'waiting');
  assert.equal(room.phase, 'waiting');
  assert.equal(room.turn, null);
  assert.equal(room.mySeat, 0);
  assert.equal(room.isPlayer, true);
  assert.equal(room.freeSeat, 1);
  assert.equal(room.seatName(0), 'Ann');
  assert.equal(room.seatName(1), 'Seat 2');
  assert.deepEqual(room.board, new Array(16).fill(null));
  assert.equal(room.available.length, 16);
  assert.deepEqual(room.moves, []);
  assert.equal(room.canCall(0), false);
});

test('a spectator\'s snapshot makes no player of them', () => {
  const room = new Room(waitingSnapshot({ you: { seat: null } }));
  assert.equal(room.isPlayer, false);
  assert.equal(room.mySeat, null);
});

test('a snapshot in the middle of a game: moves, the piece in hand, the open claim window', () => {
  // Section 10's example: Ann gave piece 5, Bo placed it on square 0 and gave piece 10.
  const room = new Room(waitingSnapshot({
    seq: 7, status: 'playing', you: { seat: 1 },
    players: [{ seat: 0, ...ANN, connected: true }, { seat: 1, ...BO, connected: false }], spectators: 1,
    game: {
      board: [5, ...new Array(15).fill(null)], available: [0, 1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 15],
      phase: 'place', turn: 0, in_hand: 10, clock: clock(59000, 60000, 0), claim: { seat: 0, remaining_ms: 9000 },
      moves: [{ type: 'give', seat: 0, piece: 5, t_ms: 200 }, { type: 'place', seat: 1, square: 0, t_ms: 500 },
        { type: 'give', seat: 1, piece: 10, t_ms: 1000 }],
      result: null, first: 0, id: null,
    },
  }));
  assert.equal(room.status, 'playing');
  assert.equal(room.phase, 'place');
  assert.equal(room.turn, 0);
  assert.equal(room.inHand, 10);
  assert.equal(room.first, 0);
  assert.equal(room.spectators, 1);
  assert.equal(room.players[1].connected, false);
  assert.deepEqual(room.moves.map((m) => m.kind), ['give', 'place', 'give']);
  // The snapshot's placement names its square only: the piece is the one given before it.
  assert.equal(room.moves[1].piece, 5);
  assert.equal(room.moves[1].square, 0);
  assert.equal(room.lastSquare, 0);
  assert.equal(room.claim.seat, 0);
  // Ann may claim Bo's placement while the window is open; Bo, who gives next, may not call.
  assert.equal(room.canCall(0), true);
  assert.equal(room.canCall(1), false);
});

test('the events of a game, applied in order, move the position on', () => {
  const room = startedRoom();
  assert.equal(room.seq, 3);
  assert.equal(room.status, 'playing');
  assert.equal(room.phase, 'give');
  assert.equal(room.turn, 1, 'the coin flip chose seat 1 to give first');
  assert.equal(room.first, 1);
  assert.equal(room.freeSeat, null);

  // Bo gives piece 10: Ann places it. The first give of a game follows no placement: no window.
  assert.equal(room.applyEvent({ type: 'given', room: 'k3x9abqz', seq: 4, seat: 1, piece: 10, clock: clock(60000, 60000, 0), claim: null }),
    'Bo gave a piece.');
  assert.equal(room.seq, 4);
  assert.equal(room.phase, 'place');
  assert.equal(room.turn, 0);
  assert.equal(room.inHand, 10);
  assert.equal(room.claim, null);
  assert.ok(!room.available.includes(10));

  room.applyEvent({ type: 'placed', room: 'k3x9abqz', seq: 5, seat: 0, square: 6, piece: 10, clock: clock(58000, 60000, 0) });
  assert.equal(room.board[6], 10);
  assert.equal(room.inHand, null);
  assert.equal(room.phase, 'give');
  assert.equal(room.turn, 0, 'the placer gives next');
  assert.equal(room.lastSquare, 6);
  assert.equal(room.canCall(0), true, 'the placer may call before giving');
  assert.equal(room.canCall(1), false);

  // Ann gives after her placement: Bo's claim window opens, for claim_ms when the server does
  // not say (an older server sends no `claim`).
  room.applyEvent({ type: 'given', room: 'k3x9abqz', seq: 6, seat: 0, piece: 3, clock: clock(60000, 60000, 1) });
  assert.equal(room.claim.seat, 1);
  assert.equal(room.claim.remaining, 10000);
  assert.equal(room.canCall(1), true);
  assert.equal(room.canCall(0), false);
  assert.deepEqual(room.moves.map((m) => [m.kind, m.seat]), [['give', 1], ['place', 0], ['give', 0]]);
  assert.equal(room.moves[1].square, 6);
});

test('a pass opens the final claim window for the other seat', () => {
  const room = startedRoom();
  room.applyEvent({ type: 'passed', room: 'k3x9abqz', seq: 4, seat: 0, clock: clock(30000, 20000, null), claim: { seat: 1, remaining_ms: 10000 } });
  assert.equal(room.turn, 1);
  assert.equal(room.claim.seat, 1);
  assert.equal(room.moves.at(-1).kind, 'pass');
});

test('game over by a Quarto: the result, the line, the clocks stopped, the archive id', () => {
  const room = startedRoom();
  room.applyEvent({ type: 'given', room: 'k3x9abqz', seq: 4, seat: 1, piece: 1, clock: clock(60000, 60000, 0), claim: null });
  room.applyEvent({ type: 'placed', room: 'k3x9abqz', seq: 5, seat: 0, square: 0, piece: 1, clock: clock(58000, 60000, 0) });
  assert.equal(room.applyEvent({ type: 'game_over', room: 'k3x9abqz', seq: 6, game: 'g7mq2x9kbn4a', result: 'win', winner: 0, reason: 'quarto',
    line: [0, 1, 2, 3], clock: clock(57000, 60000, null), score: { wins: [1, 0], draws: 0 } }), 'Game over.');
  assert.equal(room.status, 'finished');
  assert.equal(room.phase, 'finished');
  assert.equal(room.turn, null);
  assert.equal(room.claim, null);
  assert.deepEqual(room.result, { result: 'win', winner: 0, reason: 'quarto', line: [0, 1, 2, 3] });
  assert.equal(room.gameId, 'g7mq2x9kbn4a');
  assert.deepEqual(room.score, { wins: [1, 0], draws: 0 });
  assert.equal(room.clock.running, null);
  assert.deepEqual(room.clock.remaining, [57000, 60000]);
  assert.deepEqual(room.moves.at(-1), { kind: 'quarto', seat: 0, line: [0, 1, 2, 3] });
  assert.equal(room.canCall(0), false);
});

test('game over on time: the loser\'s clock shows zero', () => {
  const room = startedRoom();
  room.applyEvent({ type: 'game_over', room: 'k3x9abqz', seq: 4, result: 'win', winner: 0, reason: 'timeout', clock: clock(60000, 12, null) });
  assert.deepEqual(room.clock.remaining, [60000, 0]);
});

test('a resignation is a move of the seat that lost; a false claim, of the wrong caller', () => {
  const resigned = startedRoom();
  resigned.applyEvent({ type: 'game_over', room: 'k3x9abqz', seq: 4, result: 'win', winner: 1, reason: 'resign' });
  assert.deepEqual(resigned.moves.at(-1), { kind: 'resign', seat: 0 });
  const wrong = startedRoom();
  wrong.applyEvent({ type: 'game_over', room: 'k3x9abqz', seq: 4, result: 'win', winner: 1, reason: 'false_claim', line: [0, 5, 10, 15] });
  assert.equal(wrong.moves.at(-1).kind, 'quarto');
  assert.equal(wrong.moves.at(-1).seat, 0);
});

test('a rematch starts a new game from the empty board', () => {
  const room = startedRoom();
  room.applyEvent({ type: 'given', room: 'k3x9abqz', seq: 4, seat: 1, piece: 1, clock: clock(60000, 60000, 0) });
  room.applyEvent({ type: 'game_over', room: 'k3x9abqz', seq: 5, result: 'win', winner: 1, reason: 'resign' });
  room.applyEvent({ type: 'rematch_requested', room: 'k3x9abqz', seq: 6, seat: 0 });
  assert.deepEqual(room.rematch, [true, false]);
  room.applyEvent({ type: 'rematch_requested', room: 'k3x9abqz', seq: 7, seat: 1 });
  room.applyEvent({ type: 'game_started', room: 'k3x9abqz', seq: 8, first: 0, players: [ANN, BO], clock: clock(60000, 60000, 0) });
  assert.equal(room.status, 'playing');
  assert.equal(room.turn, 0);
  assert.deepEqual(room.board, new Array(16).fill(null));
  assert.equal(room.available.length, 16);
  assert.deepEqual(room.moves, []);
  assert.equal(room.result, null);
  assert.deepEqual(room.rematch, [false, false]);
});

test('spectators come and go; one who sits down stops counting as a spectator', () => {
  const room = new Room(waitingSnapshot());
  room.applyEvent({ type: 'joined', room: 'k3x9abqz', seq: 2, player: { id: 'pz8wwt2re', name: 'Cy' }, as: 'spectator' });
  assert.equal(room.spectators, 1);
  room.applyEvent({ type: 'joined', room: 'k3x9abqz', seq: 3, player: { id: 'pz8wwt2re', name: 'Cy' }, as: 'player', seat: 1 });
  assert.equal(room.spectators, 0);
  assert.equal(room.seatName(1), 'Cy');
  room.applyEvent({ type: 'joined', room: 'k3x9abqz', seq: 4, player: { id: 'pd1', name: 'Di' }, as: 'spectator' });
  room.applyEvent({ type: 'left', room: 'k3x9abqz', seq: 5, player: { id: 'pd1', name: 'Di' }, as: 'spectator' });
  assert.equal(room.spectators, 0);
  assert.equal(room.seatName(1), 'Cy');
});

test('an opponent who leaves after the game: the last game stays on screen until a new one sits down', () => {
  const room = startedRoom();
  room.applyEvent({ type: 'game_over', room: 'k3x9abqz', seq: 4, result: 'win', winner: 0, reason: 'resign', score: { wins: [1, 0], draws: 0 } });
  assert.equal(room.applyEvent({ type: 'left', room: 'k3x9abqz', seq: 5, player: BO, as: 'player', seat: 1 }), 'Bo left the room.');
  assert.equal(room.status, 'waiting');
  assert.equal(room.players[1], null);
  assert.equal(room.seatName(1), 'Bo', 'the seat keeps the name of who played there');
  assert.equal(room.result.left, true, 'the resignation was the leaving');
  // The server has forgotten the last game: its snapshot of the waiting room does not erase it here.
  room.applySnapshot(waitingSnapshot({ seq: 5 }));
  assert.equal(room.result.reason, 'resign');
  assert.deepEqual(room.score, { wins: [1, 0], draws: 0 });
  // A new opponent: a new pair, whose score starts from nothing.
  room.applyEvent({ type: 'joined', room: 'k3x9abqz', seq: 6, player: { id: 'pz8wwt2re', name: 'Cy' }, as: 'player', seat: 1 });
  assert.equal(room.score, null);
  assert.equal(room.seatName(1), 'Cy');
});

test('a seated player away: when they may be claimed against, and one who never came', () => {
  const room = startedRoom();
  room.applyEvent({ type: 'disconnected', room: 'k3x9abqz', seq: 4, player: BO, claim_victory_in_ms: 30000 });
  assert.equal(room.players[1].connected, false);
  const wait = room.claimVictoryIn(1);
  assert.ok(wait > 29000 && wait <= 30000, `about 30 s to wait, not ${wait}`);
  assert.equal(room.claimVictoryIn(0), null, 'Ann is here');
  room.applyEvent({ type: 'reconnected', room: 'k3x9abqz', seq: 5, player: BO });
  assert.equal(room.players[1].connected, true);
  assert.equal(room.claimVictoryIn(1), null);
  room.applyEvent({ type: 'disconnected', room: 'k3x9abqz', seq: 6, player: BO, claim_victory_in_ms: 0 });
  assert.equal(room.claimVictoryIn(1), 0);
  assert.equal(room.players[1].neverCame, true);
});

test('a rename shows under the new name', () => {
  const room = startedRoom();
  assert.equal(room.applyEvent({ type: 'player_renamed', room: 'k3x9abqz', seq: 4, player: { id: BO.id, name: 'Bob' }, seat: 1 }), 'Bo is now Bob.');
  assert.equal(room.seatName(1), 'Bob');
  assert.equal(room.applyEvent({ type: 'player_renamed', room: 'k3x9abqz', seq: 5, player: { id: 'px', name: 'Eve' }, seat: null }), '');
});

test('frozen for a server restart, the clocks stand still until `resumed` sets them again', () => {
  const room = startedRoom();
  const t0 = 1000;
  room.clock = makeClock(clock(60000, 45000, 1), t0);
  room.freezeClocks(t0 + 5000);
  assert.equal(clockLeft(room.clock, 1, t0 + 5000), 40000);
  assert.equal(clockLeft(room.clock, 1, t0 + 60000), 40000, 'a frozen clock does not run');
  room.applyEvent({ type: 'resumed', room: 'k3x9abqz', seq: 4, status: 'playing', clock: clock(60000, 41200, 1), claim: null });
  assert.equal(room.clock.frozen, undefined);
  assert.deepEqual(room.clock.remaining, [60000, 41200]);
  assert.equal(room.seq, 4);
});

test('a running clock counts down from when its CLOCK arrived; the other stands; untimed is null', () => {
  const c = makeClock(clock(59000, 60000, 0), 1000);
  assert.equal(clockLeft(c, 0, 1000), 59000);
  assert.equal(clockLeft(c, 0, 4000), 56000);
  assert.equal(clockLeft(c, 1, 4000), 60000);
  assert.equal(clockLeft(c, 0, 1000 + 70000), 0, 'never below zero');
  const untimed = makeClock(clock(null, null, 0), 1000);
  assert.equal(clockLeft(untimed, 0, 5000), null);
  assert.equal(clockLeft(null, 0), null);
});

test('the winning patterns: 10 lines, and the nine 2x2 squares with the advanced variant', () => {
  const standard = winningLines({ squares: false });
  assert.equal(standard.length, 10);
  for (const line of [[0, 1, 2, 3], [1, 5, 9, 13], [0, 5, 10, 15], [3, 6, 9, 12]]) {
    assert.ok(standard.some((l) => l.slice().sort((a, b) => a - b).join() === line.join()), `${line} is a line`);
  }
  const advanced = winningLines({ squares: true });
  assert.equal(advanced.length, 19);
  assert.ok(advanced.some((l) => l.slice().sort((a, b) => a - b).join() === '0,1,4,5'));
  assert.ok(advanced.some((l) => l.slice().sort((a, b) => a - b).join() === '10,11,14,15'));
  assert.ok(!advanced.some((l) => l.slice().sort((a, b) => a - b).join() === '3,4,7,8'), 'a square does not wrap around the edge');
});

test('the completed lines are those through the last placement, with all four squares taken', () => {
  const room = startedRoom();
  // Row 0 filled, the last piece on square 3; column 3 has only that one.
  room.board = [1, 3, 5, 7, ...new Array(12).fill(null)];
  room.lastSquare = 3;
  assert.deepEqual(room.completedLines().map((l) => l.join()), ['0,1,2,3']);
  room.lastSquare = 8;
  assert.deepEqual(room.completedLines(), [], 'no piece on the last square named');
});

test('every event of section 9 is known as a room event', () => {
  for (const type of ['game_started', 'given', 'placed', 'passed', 'game_over', 'rematch_requested', 'joined', 'left',
    'disconnected', 'reconnected', 'player_renamed', 'resumed']) assert.ok(ROOM_EVENTS.has(type), type);
});

test('a rated room: each account\'s rating on its seat, kept through a new game, changed by the result', () => {
  const room = new Room(waitingSnapshot({ rated: true, players: [{ seat: 0, ...ANN, connected: true, rating: 1512, provisional: false }, null] }));
  assert.equal(room.rated, true);
  assert.equal(room.players[0].rating, 1512);
  room.applyEvent({ type: 'joined', room: 'k3x9abqz', seq: 2, player: { ...BO, rating: 1500, provisional: true }, as: 'player', seat: 1 });
  assert.deepEqual([room.players[1].rating, room.players[1].provisional], [1500, true]);
  // game_started names the players without their ratings: the seats keep theirs.
  room.applyEvent({ type: 'game_started', room: 'k3x9abqz', seq: 3, first: 1, players: [ANN, BO], clock: clock(60000, 60000, 1) });
  assert.deepEqual([room.players[0].rating, room.players[0].provisional], [1512, false]);
  assert.deepEqual([room.players[1].rating, room.players[1].provisional], [1500, true]);
  room.applyEvent({ type: 'game_over', room: 'k3x9abqz', seq: 4, result: 'win', winner: 0, reason: 'resign',
    ratings: [{ seat: 0, before: 1512, after: 1520, rd: 80, provisional: false }, { seat: 1, before: 1500, after: 1410, rd: 290, provisional: true }] });
  assert.deepEqual(room.result.ratings.map((r) => r.after), [1520, 1410]);
  assert.deepEqual([room.players[0].rating, room.players[1].rating], [1520, 1410]);
});

test('guests have no rating, and an unrated room says so', () => {
  const room = new Room(waitingSnapshot());
  assert.equal(room.rated, false);
  room.applyEvent({ type: 'joined', room: 'k3x9abqz', seq: 2, player: BO, as: 'player', seat: 1 });
  assert.equal('rating' in room.players[1], false);
  room.applyEvent({ type: 'game_started', room: 'k3x9abqz', seq: 3, first: 1, players: [ANN, { id: 'pnew', name: 'Cy' }], clock: clock(60000, 60000, 1) });
  assert.equal('rating' in room.players[1], false, 'another player in the seat does not inherit a rating');
  room.applyEvent({ type: 'game_over', room: 'k3x9abqz', seq: 4, result: 'draw', winner: null, reason: 'board_full' });
  assert.equal(room.result.ratings, undefined);
});
