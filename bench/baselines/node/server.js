// Baseline for bench/: the part of Quarto protocol v1 that quarto-load's bots use, on bare Node.js
// with Debian's node-ws and JSON.parse/stringify, no framework. Its own rules engine judges every
// action; each event is serialized once and the same bytes go to every recipient.
// Usage: node server.js [--port N] [--archive FILE] [--rate-limit N] [--rate-burst N]
'use strict';
const fs = require('fs');
const crypto = require('crypto');
const { performance } = require('perf_hooks');
const { WebSocketServer } = require('/usr/share/nodejs/ws');

const opt = { port: 8080, archive: 'games.jsonl', 'rate-limit': 20, 'rate-burst': 40 };
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, ''), v = process.argv[i + 1];
  if (!(k in opt) || v === undefined) { console.error('usage: server.js [--port N] [--archive FILE] [--rate-limit N] [--rate-burst N]'); process.exit(2); }
  opt[k] = k === 'archive' ? v : Number(v);
}

// ---- the rules (PROTOCOL.md sections 6-8) ----
const mask = (sqs) => sqs.reduce((m, s) => m | (1 << s), 0);
const LINES = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15], [0, 4, 8, 12], [1, 5, 9, 13],
  [2, 6, 10, 14], [3, 7, 11, 15], [0, 5, 10, 15], [3, 6, 9, 12]].map(mask);
const SQUARES = [0, 1, 2, 4, 5, 6, 8, 9, 10].map((s) => mask([s, s + 1, s + 4, s + 5]));
const ATTRS = ['color', 'height', 'shape', 'fill']; // bits 1, 2, 4, 8
const now = () => Math.floor(performance.now());
const bad = (code, message) => ({ code, message });
const E = {
  turn: bad('not_your_turn', 'It is not your turn.'), phase: bad('wrong_phase', 'That move does not fit this moment of the game.'),
  over: bad('wrong_phase', 'The game is over.'), taken: bad('square_taken', 'That square is already taken.'),
  piece: bad('piece_unavailable', 'That piece has already been played.'),
  late: bad('invalid_claim', 'Too late: the chance to call that Quarto has passed.'),
  notLine: bad('invalid_claim', 'Those 4 squares do not form a line.'), empty: bad('invalid_claim', 'Some of those squares are empty.'),
  noShared: bad('invalid_claim', 'Those 4 pieces share no attribute.'),
  misses: bad('invalid_claim', 'That line does not include the last piece placed.'),
};

class Game {
  constructor(rules, clock, first, t) {
    Object.assign(this, { rules, clock, first, turn: first, phase: 'give', board: new Int8Array(16).fill(-1), available: 0xffff,
      inHand: -1, last: null, claim: null, mover: first, moveStart: t, running: true, frozen: 0, start: t, moves: [], result: null });
  }
  moveDeadline() { return this.clock.move_ms !== null && this.running ? this.moveStart + this.clock.move_ms : null; }
  nextDeadline() {
    if (this.phase === 'finished') return null;
    const d = this.moveDeadline();
    return this.claim && (d === null || this.claim.deadline < d) ? this.claim.deadline : d;
  }
  startClock(s, t) { this.mover = s; this.moveStart = t; this.running = true; }
  stopClock(t) { if (this.running) { this.frozen = Math.max(0, t - this.moveStart); this.running = false; } }
  remaining(s, t) {
    const a = this.clock.move_ms;
    if (a === null) return null;
    return s !== this.mover ? a : Math.max(0, a - (this.running ? Math.max(0, t - this.moveStart) : this.frozen));
  }
  clockJson(t) { return { remaining_ms: [this.remaining(0, t), this.remaining(1, t)], running: this.running ? this.mover : null }; }
  claimJson(t) { return this.claim && t < this.claim.deadline ? { seat: this.claim.seat, remaining_ms: this.claim.deadline - t } : null; }
  record(m, t) { m.t_ms = Math.max(0, t - this.start); this.moves.push(m); }
  finish(winner, reason, line, t) {
    this.stopClock(t); this.claim = null; this.inHand = -1; this.phase = 'finished';
    this.result = { result: winner === null ? 'draw' : 'win', winner, reason };
    if (line) this.result.line = line;
  }
  // Applies deadlines already past (as core's game::expire); true when that ended the game.
  expire(t) {
    if (this.phase === 'finished') return false;
    const d = this.moveDeadline();
    const flagged = d !== null && t >= d;
    if (flagged && (!this.claim || d <= this.claim.deadline)) { this.finish(1 - this.turn, 'timeout', null, d); return true; }
    if (this.claim && t >= this.claim.deadline) {
      const closed = this.claim.deadline;
      this.claim = null;
      if (this.phase === 'final_claim') { this.finish(null, 'board_full', null, closed); return true; }
      if (flagged) { this.finish(1 - this.turn, 'timeout', null, d); return true; }
    }
    return false;
  }
  // Each action returns null when accepted, else the refusal.
  give(by, p, t) {
    if (by !== this.turn) return E.turn;
    if (this.phase !== 'give') return E.phase;
    if (!(this.available & (1 << p))) return E.piece;
    this.available &= ~(1 << p); this.inHand = p;
    this.record({ type: 'give', seat: by, piece: p }, t);
    this.turn = 1 - by; this.phase = 'place'; this.startClock(this.turn, t);
    // A window after every give that follows the giver's own placement: never reveal whether a Quarto exists.
    if (this.last && this.last.by === by) this.claim = { seat: this.turn, deadline: t + this.clock.claim_ms };
    return null;
  }
  place(by, sq, t) {
    if (by !== this.turn) return E.turn;
    if (this.phase !== 'place') return E.phase;
    if (this.board[sq] >= 0) return E.taken;
    this.board[sq] = this.inHand; this.inHand = -1; this.claim = null; this.last = { sq, by };
    this.record({ type: 'place', seat: by, square: sq }, t);
    this.phase = 'give';
    return null;
  }
  quarto(by, line, t) { // line: 4 distinct squares
    if (by !== this.turn) return E.turn;
    let judged = null;
    if (this.claim && this.claim.seat === by && t < this.claim.deadline) judged = this.last;
    else if (this.phase === 'give' && this.last && this.last.by === by) judged = this.last;
    else if (!this.last) return E.phase;
    let m = 0;
    for (const s of line) m |= 1 << s;
    let verdict = judged ? null : E.late;
    if (judged) {
      if (!LINES.includes(m) && !(this.rules.squares && SQUARES.includes(m))) verdict = E.notLine;
      else if (line.some((s) => this.board[s] < 0)) verdict = E.empty;
      else {
        let all = 15, none = 15;
        for (const s of line) { all &= this.board[s]; none &= ~this.board[s]; }
        if (!((all | none) & this.rules.mask)) verdict = E.noShared;
        else if (!(m & (1 << judged.sq))) verdict = E.misses;
      }
    }
    const sorted = [...line].sort((a, b) => a - b);
    if (!verdict) {
      this.record({ type: 'quarto', seat: by, line: sorted }, t);
      this.finish(by, judged.by === by ? 'quarto' : 'missed_quarto', sorted, t);
      return null;
    }
    if (this.rules.false_claim !== 'lose') return verdict;
    this.record({ type: 'quarto', seat: by, line: sorted }, t);
    this.finish(1 - by, 'false_claim', sorted, t);
    return null;
  }
  pass(by, t) {
    if (by !== this.turn) return E.turn;
    if (this.phase === 'final_claim') { this.record({ type: 'pass', seat: by }, t); this.finish(null, 'board_full', null, t); return null; }
    if (this.phase !== 'give' || this.board.includes(-1)) return E.phase;
    this.record({ type: 'pass', seat: by }, t);
    this.stopClock(t); this.turn = 1 - by; this.phase = 'final_claim';
    this.claim = { seat: this.turn, deadline: t + this.clock.claim_ms };
    return null;
  }
  resign(by, t) { this.record({ type: 'resign', seat: by }, t); this.finish(1 - by, 'resign', null, t); return null; }
}

// ---- ids, the archive ----
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const newId = (n) => Array.from(crypto.randomBytes(n), (b) => ALPHABET[b & 31]).join('');
const archive = fs.createWriteStream(opt.archive, { flags: 'a' });
let pending = [];
const flushArchive = () => { if (pending.length) { archive.write(pending.join('')); pending = []; } };
setInterval(flushArchive, 1000).unref(); // buffered: one write a second (quarto-server writes SQLite on its own thread)

// ---- rooms ----
const rooms = new Map();
function publish(room, ev, except) { // ev starts {type, room, seq}: serialized once, the same bytes to everybody
  const bytes = Buffer.from(JSON.stringify(ev));
  for (const c of room.conns) if (c !== except) c.send(bytes, { binary: false });
}
const stamp = (room, type) => ({ type, room: room.id, seq: ++room.seq });
const who = (p) => ({ id: p.id, name: p.name });

function armTimer(room) {
  clearTimeout(room.timer);
  const d = room.game.nextDeadline();
  room.timer = d === null ? null : setTimeout(onDeadline, Math.max(0, d - now()), room);
}
function onDeadline(room) { // trust the game, not the timer
  if (room.status !== 'playing') return;
  if (room.game.expire(now())) gameOver(room); else armTimer(room);
}
function startGame(room) {
  const t = now(), first = Math.random() < 0.5 ? 0 : 1;
  room.game = new Game(room.rules, room.clock, first, t);
  room.gameId = newId(12); room.startedMs = Date.now(); room.status = 'playing'; room.rematch = [false, false];
  publish(room, { ...stamp(room, 'game_started'), first, players: room.seats.map(who), clock: room.game.clockJson(t) });
  armTimer(room);
}
function gameOver(room) {
  const g = room.game, t = now();
  clearTimeout(room.timer); room.timer = null; room.status = 'finished';
  pending.push(JSON.stringify({ id: room.gameId, room: room.id, room_name: room.name,
    players: room.seats.map((p, seat) => ({ seat, id: p.id, name: p.name })), rules: room.rulesJson, clock: room.clock,
    first: g.first, result: g.result, started_ms: room.startedMs, ended_ms: Date.now(), moves: g.moves }) + '\n');
  publish(room, { ...stamp(room, 'game_over'), game: room.gameId, ...g.result, clock: g.clockJson(t) });
}
function snapshot(room, seat, req) {
  const g = room.game, t = now();
  const game = g ? { board: Array.from(g.board, (p) => (p < 0 ? null : p)),
    available: [...Array(16).keys()].filter((p) => g.available & (1 << p)),
    phase: g.phase === 'final_claim' ? 'give' : g.phase, turn: g.phase === 'finished' ? null : g.turn,
    in_hand: g.inHand < 0 ? null : g.inHand, clock: g.clockJson(t), claim: g.claimJson(t), moves: g.moves,
    result: g.result, first: g.first, id: g.phase === 'finished' ? room.gameId : null }
    : { board: Array(16).fill(null), available: [...Array(16).keys()], phase: 'waiting', turn: null, in_hand: null,
      clock: { remaining_ms: [room.clock.move_ms, room.clock.move_ms], running: null }, claim: null, moves: [], result: null, first: null, id: null };
  const m = { type: 'room', room: room.id, seq: room.seq, name: room.name, rules: room.rulesJson, clock_rules: room.clock,
    status: room.status, players: room.seats.map((p, s) => p && { seat: s, ...who(p), connected: p.conn.readyState === 1 }),
    spectators: room.spectators.size, tournament: null, you: { seat }, game };
  if (req !== undefined) m.req = req;
  return JSON.stringify(m);
}

// ---- messages ----
const isInt = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;
const isId = (v, max) => typeof v === 'string' && v.length > 0 && Buffer.byteLength(v) <= max;
function cleanName(v, allowEmpty) { // trimmed, 1..32 bytes (0 when allowed), no control characters
  if (typeof v !== 'string') return undefined;
  const n = v.replace(/^ +| +$/g, '');
  return (n.length || allowEmpty) && Buffer.byteLength(n) <= 32 && !/[\u0000-\u001f\u007f-\u009f]/.test(n) ? n : undefined;
}
function roomOptions(m, creator) { // create_room's fields, or undefined when one is bad
  const dflt = (v) => v === undefined || v === null;
  const r = dflt(m.rules) ? {} : m.rules, c = dflt(m.clock) ? {} : m.clock;
  if (typeof r !== 'object' || Array.isArray(r) || typeof c !== 'object' || Array.isArray(c)) return undefined;
  const squares = dflt(r.squares) ? false : r.squares, fc = dflt(r.false_claim) ? 'reject' : r.false_claim;
  const attrs = dflt(r.attributes) ? ATTRS : r.attributes;
  const move = c.move_ms === undefined ? 60000 : c.move_ms, claim = dflt(c.claim_ms) ? 10000 : c.claim_ms;
  const name = dflt(m.name) ? '' : cleanName(m.name, true);
  if (typeof squares !== 'boolean' || (fc !== 'reject' && fc !== 'lose') || !Array.isArray(attrs) || !attrs.length ||
      new Set(attrs).size !== attrs.length || !attrs.every((a) => ATTRS.includes(a)) || name === undefined ||
      !(move === null || isInt(move, 100, 3600000)) || !isInt(claim, 100, 600000) || !(dflt(m.private) || typeof m.private === 'boolean')) return undefined;
  const attributes = ATTRS.filter((a) => attrs.includes(a));
  return { name: name || `${creator}'s room`, rulesJson: { squares, attributes, false_claim: fc },
    rules: { squares, false_claim: fc, mask: attributes.reduce((b, a) => b | (1 << ATTRS.indexOf(a)), 0) },
    clock: { move_ms: move, claim_ms: claim } };
}

function onMessage(c, data, isBinary) {
  const reply = (m, req) => { if (req !== undefined) m.req = req; c.send(JSON.stringify(m)); };
  const error = (e, req) => reply({ type: 'error', code: e.code, message: e.message }, req);
  const t = now(); // the token bucket
  c.tokens = Math.min(opt['rate-burst'], c.tokens + ((t - c.refill) * opt['rate-limit']) / 1000); c.refill = t;
  if (c.tokens < 1) return error(bad('rate_limited', 'Too many messages; slow down.'));
  c.tokens -= 1;
  if (isBinary) return error(bad('bad_message', 'Send text messages.'));
  let m;
  try { m = JSON.parse(data); } catch { return error(bad('bad_json', 'The message is not valid JSON.')); }
  const badMessage = (req) => error(bad('bad_message', 'The message has a missing or invalid field.'), req);
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return badMessage();
  const req = m.req === null ? undefined : m.req;
  if (req !== undefined && typeof req !== 'string' && typeof req !== 'number') return badMessage();
  if (typeof m.type !== 'string') return badMessage(req);
  if (!c.player && m.type !== 'hello') return error(bad('hello_required', 'Say hello first.'), req);
  const action = ACTIONS[m.type];
  if (m.type === 'hello') {
    if (c.player) return error(bad('bad_message', 'This connection has already said hello.'), req);
    const name = m.name === undefined ? undefined : cleanName(m.name, false);
    if ((m.name !== undefined && name === undefined) || (m.token !== undefined && !isId(m.token, 128)) || (name === undefined && m.token === undefined)) return badMessage(req);
    // Resuming by token is not part of what the bots use: any token is unknown here.
    if (m.token !== undefined) return error(bad('unknown_token', 'That player token is not known here; say hello with a name.'), req);
    c.player = { id: 'p' + newId(8), name, token: crypto.randomBytes(16).toString('hex'), conn: c };
    return reply({ type: 'welcome', player: c.player.id, name, token: c.player.token, protocol: 1 }, req);
  }
  if (m.type === 'ping') return reply({ type: 'pong', time_ms: Date.now() }, req);
  if (m.type === 'create_room') {
    const o = roomOptions(m, c.player.name);
    if (!o) return badMessage(req);
    const room = { id: newId(8), ...o, seats: [c.player, null], spectators: new Set(), conns: new Set([c]), seq: 1,
      status: 'waiting', game: null, gameId: null, timer: null, rematch: [false, false] };
    rooms.set(room.id, room); c.rooms.set(room.id, room);
    reply({ type: 'room_created', room: room.id }, req);
    return c.send(snapshot(room, 0));
  }
  if (m.type === 'join') {
    const as = m.as === undefined || m.as === null ? 'player' : m.as;
    if (!isId(m.room, 64) || (as !== 'player' && as !== 'spectator')) return badMessage(req);
    const room = rooms.get(m.room), p = c.player;
    if (!room) return error(bad('no_such_room', 'There is no such room.'), req);
    let seat = room.seats.indexOf(p);
    if (seat < 0 && as === 'player') {
      seat = room.seats.indexOf(null);
      if (seat < 0) return error(bad('room_full', 'Both seats of this room are taken.'), req);
      room.seats[seat] = p; room.spectators.delete(p); room.conns.add(c); c.rooms.set(room.id, room);
      publish(room, { ...stamp(room, 'joined'), player: who(p), as: 'player', seat }, c);
    } else if (seat < 0 && !room.spectators.has(p)) {
      room.spectators.add(p); room.conns.add(c); c.rooms.set(room.id, room);
      publish(room, { ...stamp(room, 'joined'), player: who(p), as: 'spectator' }, c);
    }
    c.send(snapshot(room, seat < 0 ? null : seat, req));
    if (room.status === 'waiting' && room.seats[0] && room.seats[1]) startGame(room);
    return;
  }
  if (!action) return error(bad('unknown_type', 'Unknown message type.'), req);
  if (!isId(m.room, 64) || !action.valid(m)) return badMessage(req);
  const room = c.rooms.get(m.room);
  if (!room) return error(rooms.has(m.room) ? bad('not_in_room', 'You are not in this room.') : bad('no_such_room', 'There is no such room.'), req);
  const seat = room.seats.indexOf(c.player);
  if (seat < 0) return error(bad('not_a_player', 'Spectators cannot play.'), req);
  if (m.type === 'rematch') {
    if (room.status !== 'finished') return error(bad('wrong_phase', 'A rematch can be asked for once the game is over.'), req);
    if (!room.rematch[seat]) { room.rematch[seat] = true; publish(room, { ...stamp(room, 'rematch_requested'), seat }); }
    if (room.rematch[0] && room.rematch[1]) startGame(room);
    return;
  }
  if (room.status !== 'playing') return error(bad('wrong_phase', room.status === 'waiting' ? 'The game has not started yet.' : 'The game is over.'), req);
  const g = room.game;
  if (g.expire(t)) { gameOver(room); return error(E.over, req); } // a deadline passed before the timer fired
  const refused = action.apply(g, seat, m, t);
  if (refused) return error(refused, req);
  if (action.event) publish(room, action.event(stamp(room, m.type === 'give' ? 'given' : m.type === 'place' ? 'placed' : 'passed'), g, seat, m, t));
  if (g.phase === 'finished') gameOver(room); else armTimer(room);
}
const ACTIONS = {
  give: { valid: (m) => isInt(m.piece, 0, 15), apply: (g, s, m, t) => g.give(s, m.piece, t),
    event: (e, g, s, m, t) => Object.assign(e, { seat: s, piece: m.piece, clock: g.clockJson(t), claim: g.claimJson(t) }) },
  place: { valid: (m) => isInt(m.square, 0, 15), apply: (g, s, m, t) => g.place(s, m.square, t),
    event: (e, g, s, m, t) => Object.assign(e, { seat: s, square: m.square, piece: g.board[m.square], clock: g.clockJson(t) }) },
  quarto: { valid: (m) => Array.isArray(m.line) && m.line.length === 4 && m.line.every((s) => isInt(s, 0, 15)) && new Set(m.line).size === 4,
    apply: (g, s, m, t) => g.quarto(s, m.line, t) },
  pass: { valid: () => true, apply: (g, s, m, t) => g.pass(s, t),
    event: (e, g, s, m, t) => Object.assign(e, { seat: s, clock: g.clockJson(t), claim: g.claimJson(t) }) },
  resign: { valid: () => true, apply: (g, s, m, t) => g.resign(s, t) },
  rematch: { valid: () => true },
};

function onClose(c) {
  for (const room of c.rooms.values()) {
    room.conns.delete(c);
    if (!room.conns.size) { clearTimeout(room.timer); rooms.delete(room.id); continue; } // nobody left to play or watch
    const seat = room.seats.indexOf(c.player);
    if (seat >= 0) publish(room, { ...stamp(room, 'disconnected'), player: who(c.player) });
    else { room.spectators.delete(c.player); publish(room, { ...stamp(room, 'left'), player: who(c.player), as: 'spectator' }); }
  }
}

const wss = new WebSocketServer({ host: '127.0.0.1', port: opt.port, path: '/ws', maxPayload: 4096, perMessageDeflate: false,
  verifyClient: ({ origin, req }) => !origin || origin.replace(/^[a-z]+:\/\//i, '').toLowerCase() === String(req.headers.host).toLowerCase() });
wss.on('listening', () => console.error(`listening on http://127.0.0.1:${wss.address().port}`));
wss.on('connection', (c) => {
  Object.assign(c, { player: null, rooms: new Map(), tokens: opt['rate-burst'], refill: now() });
  c.on('message', (data, isBinary) => onMessage(c, data, isBinary));
  c.on('close', () => onClose(c));
  c.on('error', () => {});
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => {
  for (const c of wss.clients) c.close(1001, 'server shutting down');
  flushArchive();
  archive.end(() => process.exit(0));
});
