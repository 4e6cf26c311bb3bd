// Checks a server against the part of protocol v1 the baselines implement: the replies, events and
// refusals PROTOCOL.md gives for scripted games. Run it against quarto-server too (the reference):
//   node bench/baselines/check.js ws://127.0.0.1:PORT/ws
// Exits 1 on the first difference, naming it.
'use strict';
const WebSocket = require('/usr/share/nodejs/ws');
const url = process.argv[2] || 'ws://127.0.0.1:8080/ws';

function client(name) {
  const ws = new WebSocket(url), inbox = [], waiters = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d);
    const i = waiters.findIndex((w) => w.match(m));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(m); else inbox.push(m);
  });
  const c = {
    name, ws, inbox,
    send: (m) => ws.send(JSON.stringify(m)),
    // The next message that matches (type, or a predicate), within `ms`.
    next(want, ms = 2000) {
      const match = typeof want === 'function' ? want : (m) => m.type === want;
      const i = inbox.findIndex(match);
      if (i >= 0) return Promise.resolve(inbox.splice(i, 1)[0]);
      return new Promise((resolve, reject) => {
        const w = { match, resolve };
        waiters.push(w);
        setTimeout(() => { if (waiters.includes(w)) { waiters.splice(waiters.indexOf(w), 1); reject(new Error(`${name}: no ${want} within ${ms} ms; inbox ${JSON.stringify(inbox)}`)); } }, ms);
      });
    },
    async expectError(msg, code, text) {
      c.send({ ...msg, req: 'r' });
      const e = await c.next('error');
      if (e.code !== code || e.req !== 'r' || (text && e.message !== text)) throw new Error(`${name}: ${JSON.stringify(msg)} got ${JSON.stringify(e)}, expected ${code} ${text || ''}`);
    },
  };
  return new Promise((resolve, reject) => { ws.on('open', () => resolve(c)); ws.on('error', reject); });
}
const ok = (cond, what) => { if (!cond) throw new Error(what); };
const line = (sqs) => ({ line: sqs });

// A room of two players (a seated, b joined) and optionally a spectator; returns them by seat order of play.
async function table(clock, rules) {
  const a = await client('a'), b = await client('b');
  a.send({ type: 'hello', name: 'Ann', req: 1 });
  ok((await a.next('welcome')).req === 1, 'welcome echoes req');
  b.send({ type: 'hello', name: ' Bo ' });
  ok((await b.next('welcome')).name === 'Bo', 'names are trimmed');
  a.send({ type: 'create_room', clock, rules, req: 2 });
  const created = await a.next('room_created');
  const snap = await a.next('room');
  ok(created.req === 2 && snap.seq === 1 && snap.you.seat === 0 && snap.status === 'waiting', 'creator snapshot: seq 1, seat 0');
  b.send({ type: 'join', room: created.room, req: 'j' });
  const joined = await a.next('joined');
  const bs = await b.next('room');
  ok(joined.seq === 2 && joined.seat === 1 && bs.seq === 2 && bs.you.seat === 1 && bs.req === 'j', 'join: joined seq 2, snapshot seq 2');
  const started = await a.next('game_started');
  ok((await b.next('game_started')).seq === 3 && started.seq === 3, 'game_started seq 3 to both');
  const seats = [a, b];
  return { room: created.room, first: seats[started.first], second: seats[1 - started.first], a, b, started };
}
// Plays one action and returns the event both players receive.
async function play(t, who, msg, type) {
  who.send({ ...msg, room: t.room });
  const ev = await t.a.next(type);
  await t.b.next(type);
  return ev;
}

async function main() {
  // Session errors.
  const x = await client('x');
  await x.expectError({ type: 'create_room' }, 'hello_required');
  x.ws.send('{nope'); ok((await x.next('error')).code === 'bad_json', 'bad_json');
  await x.expectError({ type: 'hello', name: '' }, 'bad_message');
  x.send({ type: 'hello', name: 'Xi' }); await x.next('welcome');
  await x.expectError({ type: 'hello', name: 'Xi' }, 'bad_message');
  await x.expectError({ type: 'frobnicate' }, 'unknown_type');
  await x.expectError({ type: 'give', room: 'nosuchroom', piece: 1 }, 'no_such_room');
  await x.expectError({ type: 'give', room: 'r', piece: 16 }, 'bad_message');
  await x.expectError({ type: 'quarto', room: 'r', line: [0, 1, 2, 2] }, 'bad_message');
  await x.expectError({ type: 'create_room', clock: { move_ms: 50 } }, 'bad_message');

  // A game judged move by move (default rules: rows, columns, diagonals; every attribute counts).
  let t = await table({ move_ms: 60000, claim_ms: 10000 });
  const { first: f, second: s } = t;
  await x.expectError({ type: 'give', room: t.room, piece: 1 }, 'not_in_room');
  await x.expectError({ type: 'join', room: t.room }, 'room_full');
  x.send({ type: 'join', room: t.room, as: 'spectator' }); ok((await x.next('room')).you.seat === null, 'spectator snapshot');
  await f.expectError({ type: 'place', room: t.room, square: 0 }, 'wrong_phase');
  await s.expectError({ type: 'give', room: t.room, piece: 0 }, 'not_your_turn');
  await f.expectError({ type: 'quarto', room: t.room, ...line([0, 1, 2, 3]) }, 'wrong_phase'); // nothing placed yet
  await x.expectError({ type: 'give', room: t.room, piece: 0 }, 'not_a_player');
  // Pieces 0 (0000), 2 (0010), 4 (0100), 6 (0110): all light and solid; on row 0.
  let ev = await play(t, f, { type: 'give', piece: 0 }, 'given');
  ok(ev.seq === 5 && ev.claim === null && ev.clock.running === 1 - t.started.first && ev.clock.remaining_ms[0] === 60000, 'first give opens no window');
  ok((await x.next('given')).seq === 5, 'the spectator gets the events');
  await s.expectError({ type: 'give', room: t.room, piece: 1 }, 'wrong_phase');
  await play(t, s, { type: 'place', square: 0 }, 'placed');
  await s.expectError({ type: 'give', room: t.room, piece: 0 }, 'piece_unavailable');
  ev = await play(t, s, { type: 'give', piece: 2 }, 'given');
  ok(ev.claim && ev.claim.remaining_ms <= 10000 && ev.claim.remaining_ms > 9000, 'a give after a placement opens the claim window');
  await f.expectError({ type: 'place', room: t.room, square: 0 }, 'square_taken');
  await f.expectError({ type: 'quarto', room: t.room, ...line([0, 1, 2, 3]) }, 'invalid_claim', 'Some of those squares are empty.');
  await f.expectError({ type: 'quarto', room: t.room, ...line([0, 1, 4, 5]) }, 'invalid_claim', 'Those 4 squares do not form a line.');
  await play(t, f, { type: 'place', square: 1 }, 'placed');
  await play(t, f, { type: 'give', piece: 4 }, 'given');
  await play(t, s, { type: 'place', square: 2 }, 'placed');
  await play(t, s, { type: 'give', piece: 15 }, 'given'); // s misses nothing yet: row 0 has 3 pieces
  await play(t, f, { type: 'place', square: 5 }, 'placed');
  await f.expectError({ type: 'quarto', room: t.room, ...line([0, 5, 10, 15]) }, 'invalid_claim', 'Some of those squares are empty.');
  await play(t, f, { type: 'give', piece: 6 }, 'given');
  await play(t, s, { type: 'place', square: 3 }, 'placed'); // row 0: 0, 2, 4, 6 share light and solid
  await play(t, s, { type: 'give', piece: 1 }, 'given'); // s gives instead of calling: f may claim
  await f.expectError({ type: 'quarto', room: t.room, ...line([1, 5, 9, 13]) }, 'invalid_claim', 'Some of those squares are empty.');
  ev = await play(t, f, { type: 'quarto', ...line([3, 2, 1, 0]) }, 'game_over');
  ok(ev.reason === 'missed_quarto' && ev.winner === t.started.first, 'missed Quarto claimed in the window');
  ok(JSON.stringify(ev.line) === '[0,1,2,3]' && typeof ev.game === 'string' && ev.clock.running === null, 'game_over: sorted line, game id, clock stopped');
  await f.expectError({ type: 'give', room: t.room, piece: 3 }, 'wrong_phase', 'The game is over.');
  // Rematch.
  ev = await play(t, t.a, { type: 'rematch' }, 'rematch_requested');
  ok(ev.seat === 0, 'rematch_requested names the seat');
  t.b.send({ type: 'rematch', room: t.room });
  await t.a.next('rematch_requested');
  ev = await t.a.next('game_started');
  ok(ev.seq === (await t.b.next('game_started')).seq, 'a rematch starts a new game');

  // Too late, no shared attribute, a line that misses the last placement.
  t = await table({ claim_ms: 100 });
  await play(t, t.first, { type: 'give', piece: 0 }, 'given');
  await play(t, t.second, { type: 'place', square: 0 }, 'placed');
  await play(t, t.second, { type: 'give', piece: 2 }, 'given');
  await play(t, t.first, { type: 'place', square: 1 }, 'placed');
  await play(t, t.first, { type: 'give', piece: 4 }, 'given');
  await play(t, t.second, { type: 'place', square: 2 }, 'placed');
  await play(t, t.second, { type: 'give', piece: 6 }, 'given');
  await play(t, t.first, { type: 'place', square: 3 }, 'placed');
  await play(t, t.first, { type: 'give', piece: 9 }, 'given');
  await new Promise((r) => setTimeout(r, 250)); // the claim window (100 ms) closes
  await t.second.expectError({ type: 'quarto', room: t.room, ...line([0, 1, 2, 3]) }, 'invalid_claim', 'Too late: the chance to call that Quarto has passed.');
  await play(t, t.second, { type: 'place', square: 4 }, 'placed');
  await t.second.expectError({ type: 'quarto', room: t.room, ...line([0, 1, 2, 3]) }, 'invalid_claim', 'That line does not include the last piece placed.');
  await play(t, t.second, { type: 'give', piece: 15 }, 'given');
  await play(t, t.first, { type: 'place', square: 8 }, 'placed');
  await play(t, t.first, { type: 'give', piece: 10 }, 'given');
  await play(t, t.second, { type: 'place', square: 12 }, 'placed'); // column 0: 0, 9, 15, 10: no shared attribute
  await t.second.expectError({ type: 'quarto', room: t.room, ...line([0, 4, 8, 12]) }, 'invalid_claim', 'Those 4 pieces share no attribute.');
  ev = await play(t, t.first, { type: 'resign' }, 'game_over');
  ok(ev.reason === 'resign', 'resign out of turn');

  // The move clock: nobody moves, the server ends the game on time.
  t = await table({ move_ms: 300 });
  ev = await t.a.next('game_over', 3000);
  ok(ev.reason === 'timeout' && ev.winner === 1 - t.started.first && ev.clock.remaining_ms[t.started.first] === 0, 'timeout after move_ms');

  // A full board with no Quarto: pass, the final window, pass: a draw.
  const lines = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15], [0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [0, 5, 10, 15], [3, 6, 9, 12]];
  let board;
  do { board = [...Array(16).keys()].sort(() => Math.random() - 0.5); } // board[square] = piece
  while (lines.some((l) => { let all = 15, none = 15; for (const q of l) { all &= board[q]; none &= ~board[q]; } return (all | none) & 15; }));
  t = await table({ move_ms: null });
  let giver = t.first, taker = t.second;
  for (let q = 0; q < 16; q++) {
    await play(t, giver, { type: 'give', piece: board[q] }, 'given');
    ev = await play(t, taker, { type: 'place', square: q }, 'placed');
    ok(ev.clock.remaining_ms[0] === null, 'untimed clocks are null');
    [giver, taker] = [taker, giver];
  }
  await giver.expectError({ type: 'give', room: t.room, piece: 0 }, 'piece_unavailable');
  ev = await play(t, giver, { type: 'pass' }, 'passed'); // giver placed the 16th piece
  ok(ev.clock.running === null && ev.claim && ev.claim.seat === (taker === t.a ? 0 : 1), 'pass opens the final window');
  await giver.expectError({ type: 'pass', room: t.room }, 'not_your_turn');
  taker.send({ type: 'pass', room: t.room });
  await t.a.next('passed');
  ev = await t.a.next('game_over');
  ok(ev.result === 'draw' && ev.winner === null && ev.reason === 'board_full', 'a declined final window is a draw');
  console.log(`check.js: ${url}: every check passed`);
  process.exit(0);
}
main().catch((e) => { console.error(`check.js: ${url}: ${e.message}`); process.exit(1); });
