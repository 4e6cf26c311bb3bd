// One room as this client knows it: the server's `room` snapshot, kept current by applying the
// room's events strictly in seq order (protocol v1). The server is authoritative: nothing here
// guesses a move before the server has announced it.

export const ROOM_EVENTS = new Set([
  'game_started', 'given', 'placed', 'passed', 'rematch_requested', 'game_over',
  'joined', 'left', 'disconnected', 'reconnected', 'resumed', 'player_renamed',
]);

const now = () => performance.now();

// The winning patterns (protocol section 2): rows, columns, diagonals, and with the advanced
// variant's `squares` the nine 2x2 squares.
const ROWS = [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => r * 4 + c));
const COLUMNS = [0, 1, 2, 3].map((c) => [0, 1, 2, 3].map((r) => r * 4 + c));
const DIAGONALS = [[0, 5, 10, 15], [3, 6, 9, 12]];
const SQUARES = [0, 1, 2, 4, 5, 6, 8, 9, 10].map((s) => [s, s + 1, s + 4, s + 5]);
export function winningLines(rules = {}) {
  return rules && rules.squares ? [...ROWS, ...COLUMNS, ...DIAGONALS, ...SQUARES] : [...ROWS, ...COLUMNS, ...DIAGONALS];
}

/** A CLOCK object plus the local time it was received, so it can count down smoothly. */
export function makeClock(clock, at = now()) {
  const rem = clock && Array.isArray(clock.remaining_ms) ? clock.remaining_ms : [null, null];
  const running = clock && (clock.running === 0 || clock.running === 1) ? clock.running : null;
  return { remaining: [rem[0] ?? null, rem[1] ?? null], running, at };
}

/** Milliseconds left on a seat's clock right now (null when untimed). */
export function clockLeft(clock, seat, t = now()) {
  if (!clock) return null;
  const r = clock.remaining[seat];
  if (r === null || r === undefined) return null;
  if (clock.running === seat && !clock.frozen) return Math.max(0, r - (t - clock.at));
  return Math.max(0, r);
}

function playerId(p) {
  if (p === null || p === undefined) return null;
  if (typeof p === 'object') return p.id ?? null;
  return p;
}

/** An account's {rating, provisional}, else the same player's `before`; {} for a guest. */
function ratingOf(p, before = null) {
  if (p && typeof p.rating === 'number') return { rating: p.rating, provisional: p.provisional === true };
  if (before && before.id === playerId(p) && typeof before.rating === 'number') return { rating: before.rating, provisional: before.provisional === true };
  return {};
}

function normalizeMove(m) {
  if (!m || typeof m !== 'object') return { kind: 'other', raw: m };
  const t = String(m.type ?? m.kind ?? m.action ?? '');
  let kind;
  if (/^give|given$/.test(t)) kind = 'give';
  else if (/^place|placed$/.test(t)) kind = 'place';
  else if (/^pass/.test(t)) kind = 'pass';
  else if (/quarto|claim/.test(t)) kind = 'quarto';
  else if (m.square !== undefined && m.square !== null) kind = 'place';
  else if (m.piece !== undefined && m.piece !== null) kind = 'give';
  else kind = t || 'other';
  return { kind, seat: m.seat ?? null, piece: m.piece ?? null, square: m.square ?? null, line: m.line ?? null, raw: m };
}

/**
 * A snapshot's placements name their square only (PROTOCOL.md, `game.moves`): the piece placed
 * is the one given just before, as the live `placed` events say.
 */
function withPlacedPieces(moves) {
  let given = null;
  for (const m of moves) {
    if (m.kind === 'give') given = m.piece;
    else if (m.kind === 'place') {
      if (m.piece === null) m.piece = given;
      given = null;
    }
  }
  return moves;
}

export class Room {
  constructor(snapshot) {
    this.id = snapshot.room;
    this.applySnapshot(snapshot);
  }

  applySnapshot(s) {
    // After a player left, the server's room has forgotten the last game; this page has not.
    const kept = this.departed && s.status === 'waiting' ? this.lastGame() : null;
    this.applySnapshotFields(s);
    if (kept) Object.assign(this, kept);
    else this.departed = null;
  }

  /** What the page shows of the last game, kept while the room waits for a new opponent. */
  lastGame() {
    const { board, available, moves, result, score, gameId, first, lastSquare, departed } = this;
    return { board, available, moves, result, score, gameId, first, lastSquare, departed };
  }

  applySnapshotFields(s) {
    const t = now();
    this.id = s.room;
    this.seq = s.seq;
    this.name = s.name ?? `Room ${s.room}`;
    this.rules = s.rules ?? {};
    this.clockRules = s.clock_rules ?? s.clock ?? {};
    this.status = s.status ?? 'waiting';
    this.tournament = s.tournament ?? null; // the tournament whose game this is, or null
    this.rated = s.rated === true;
    this.players = Array.isArray(s.players) ? [s.players[0] ?? null, s.players[1] ?? null] : [null, null];
    // An absent player's seat may be claimed from this local time on (protocol: claim_victory).
    this.players = this.players.map((p) => (p && typeof p.claim_victory_in_ms === 'number'
      ? { ...p, claimableAt: t + p.claim_victory_in_ms } : p));
    this.score = s.score ?? null; // {wins: [a, b], draws}: the seated pair's games in this room
    this.spectators = typeof s.spectators === 'number' ? s.spectators : 0;
    this.spectatorIds = new Set(); // those seen arriving since the snapshot
    this.you = s.you && (s.you.seat === 0 || s.you.seat === 1) ? s.you.seat : null;
    const g = s.game ?? {};
    this.board = Array.isArray(g.board) && g.board.length === 16 ? g.board.map((x) => (x === undefined ? null : x)) : new Array(16).fill(null);
    this.available = Array.isArray(g.available) ? g.available.slice() : [];
    this.phase = g.phase ?? (this.status === 'waiting' ? 'waiting' : 'give');
    this.turn = g.turn === 0 || g.turn === 1 ? g.turn : null;
    this.inHand = g.in_hand ?? null;
    this.clock = makeClock(g.clock, t);
    this.claim = this.claimFrom(g.claim, t);
    this.moves = Array.isArray(g.moves) ? withPlacedPieces(g.moves.map(normalizeMove)) : [];
    this.result = g.result ?? null;
    this.gameId = g.id ?? null; // the archive's id of a finished game (#/game/ID replays it)
    if (g.first === 0 || g.first === 1) this.first = g.first;
    else if (s.first === 0 || s.first === 1) this.first = s.first;
    else {
      const firstGive = this.moves.find((m) => m.kind === 'give' && (m.seat === 0 || m.seat === 1));
      this.first = firstGive ? firstGive.seat : this.first ?? null;
    }
    this.rematch = Array.isArray(g.rematch) ? [!!g.rematch[0], !!g.rematch[1]] : [false, false];
    this.lastSquare = null;
    for (let i = this.moves.length - 1; i >= 0; i--) {
      if (this.moves[i].kind === 'place' && this.moves[i].square !== null) { this.lastSquare = this.moves[i].square; break; }
    }
    if (this.status === 'finished' || this.phase === 'finished') this.freezeClock();
  }

  claimFrom(c, t) {
    if (!c || (c.seat !== 0 && c.seat !== 1)) return null;
    return { seat: c.seat, remaining: c.remaining_ms ?? this.clockRules.claim_ms ?? null, at: t };
  }

  /** ms until the absent `seat` may be claimed against (0: now), or null when it may not be. */
  claimVictoryIn(seat) {
    const p = this.players[seat];
    if (this.status !== 'playing' || !p || p.connected !== false || typeof p.claimableAt !== 'number') return null;
    return Math.max(0, p.claimableAt - now());
  }

  get mySeat() { return this.you; }
  get isPlayer() { return this.you === 0 || this.you === 1; }
  get freeSeat() {
    if (!this.players[0]) return 0;
    if (!this.players[1]) return 1;
    return null;
  }

  seatName(seat) {
    const p = this.players[seat];
    if (p) return p.name;
    return this.departed && this.departed.seat === seat ? this.departed.name : `Seat ${seat + 1}`;
  }

  freezeClock() {
    if (!this.clock) return;
    const t = now();
    this.clock = { remaining: [clockLeft(this.clock, 0, t), clockLeft(this.clock, 1, t)], running: null, at: t };
  }

  seatOf(player) {
    const id = playerId(player);
    if (id === null) return null;
    for (const s of [0, 1]) if (this.players[s] && this.players[s].id === id) return s;
    return null;
  }

  claimLeft(t = now()) {
    if (!this.claim || this.claim.remaining === null || this.claim.remaining === undefined) return null;
    if (this.claim.frozen) return Math.max(0, this.claim.remaining);
    return Math.max(0, this.claim.remaining - (t - this.claim.at));
  }

  /** The server is restarting: its clocks stand still until it is back (the time it is down is
   *  nobody's), and the event it sends then (`resumed`) sets them again. */
  freezeClocks(t = now()) {
    if (this.clock) {
      this.clock = { ...this.clock, remaining: [clockLeft(this.clock, 0, t), clockLeft(this.clock, 1, t)], at: t, frozen: true };
    }
    if (this.claim) this.claim = { ...this.claim, remaining: this.claimLeft(t), at: t, frozen: true };
  }

  /**
   * The lines of these rules through the last placement that it filled: four pieces, whatever
   * they are. Only such a placement can be called (or claimed), and which lines are full is
   * on the board for everyone to see: this says nothing of whether the pieces share a trait.
   */
  completedLines() {
    const sq = this.lastSquare;
    if (sq === null || sq === undefined || this.board[sq] === null) return [];
    return winningLines(this.rules).filter((line) => line.includes(sq) && line.every((s) => this.board[s] !== null));
  }

  /** Whether `seat` may call Quarto right now (placer before giving, or the claim window). */
  canCall(seat) {
    if (seat === null || this.status !== 'playing') return false;
    if (this.claim && this.claim.seat === seat && this.claimLeft() !== 0) return true;
    const placed = this.board.some((x) => x !== null);
    return this.phase === 'give' && this.turn === seat && placed;
  }

  /**
   * Applies one event. The caller has checked that ev.seq == this.seq + 1.
   * Returns a short description of what happened, for the screen-reader announcement.
   */
  applyEvent(ev) {
    const text = this.apply(ev);
    this.lastEvent = ev.type;
    return text;
  }

  apply(ev) {
    const t = now();
    this.seq = ev.seq;
    switch (ev.type) {
      case 'game_started': {
        if (Array.isArray(ev.players)) {
          for (const s of [0, 1]) {
            const p = ev.players[s];
            if (!p) continue;
            const old = this.players[s];
            this.players[s] = { seat: s, id: p.id, name: p.name, connected: old && old.id === p.id ? old.connected !== false : true, ...ratingOf(p, old) };
          }
        }
        this.status = 'playing';
        this.board = new Array(16).fill(null);
        this.available = Array.from({ length: 16 }, (_, i) => i);
        this.phase = 'give';
        this.first = ev.first;
        this.turn = ev.first;
        this.inHand = null;
        this.clock = makeClock(ev.clock, t);
        this.claim = null;
        this.moves = [];
        this.result = null;
        this.gameId = null;
        this.rematch = [false, false];
        this.lastSquare = null;
        this.departed = null;
        return `New game. Coin flip: ${this.seatName(ev.first)} gives first.`;
      }
      case 'given': {
        const hadPlacement = this.board.some((x) => x !== null);
        this.available = this.available.filter((p) => p !== ev.piece);
        this.inHand = ev.piece;
        this.phase = 'place';
        this.turn = 1 - ev.seat;
        if (ev.clock) this.clock = makeClock(ev.clock, t);
        if (ev.claim !== undefined) this.claim = this.claimFrom(ev.claim, t);
        else this.claim = hadPlacement ? { seat: 1 - ev.seat, remaining: this.clockRules.claim_ms ?? null, at: t } : null;
        this.moves.push({ kind: 'give', seat: ev.seat, piece: ev.piece });
        return `${this.seatName(ev.seat)} gave a piece.`;
      }
      case 'placed': {
        this.board[ev.square] = ev.piece;
        this.available = this.available.filter((p) => p !== ev.piece);
        this.inHand = null;
        this.phase = 'give';
        this.turn = ev.seat;
        if (ev.clock) this.clock = makeClock(ev.clock, t);
        this.claim = null;
        this.lastSquare = ev.square;
        this.moves.push({ kind: 'place', seat: ev.seat, piece: ev.piece, square: ev.square });
        return `${this.seatName(ev.seat)} placed a piece.`;
      }
      case 'passed': {
        this.phase = 'give';
        this.turn = 1 - ev.seat;
        if (ev.clock) this.clock = makeClock(ev.clock, t);
        if (ev.claim !== undefined) this.claim = this.claimFrom(ev.claim, t);
        else this.claim = { seat: 1 - ev.seat, remaining: this.clockRules.claim_ms ?? null, at: t };
        this.moves.push({ kind: 'pass', seat: ev.seat });
        return `${this.seatName(ev.seat)} passed.`;
      }
      case 'game_over': {
        this.status = 'finished';
        this.phase = 'finished';
        const ratings = Array.isArray(ev.ratings) ? ev.ratings.filter((r) => r && (r.seat === 0 || r.seat === 1)) : null;
        this.result = { result: ev.result, winner: ev.winner ?? null, reason: ev.reason, line: ev.line ?? null, ...(ratings ? { ratings } : {}) };
        this.gameId = ev.game ?? null;
        if (ev.score) this.score = ev.score;
        for (const r of ratings ?? []) {
          if (this.players[r.seat] && typeof r.after === 'number') this.players[r.seat] = { ...this.players[r.seat], rating: r.after, provisional: r.provisional === true };
        }
        for (const s of [0, 1]) if (this.players[s]) this.players[s] = { ...this.players[s], claimableAt: undefined };
        if (ev.clock) this.clock = makeClock(ev.clock, t);
        this.freezeClock();
        if (ev.reason === 'timeout' && (ev.winner === 0 || ev.winner === 1) && this.clock.remaining[1 - ev.winner] !== null) {
          this.clock.remaining[1 - ev.winner] = 0;
        }
        this.turn = null;
        this.claim = null;
        if (ev.reason === 'quarto' || ev.reason === 'missed_quarto' || ev.reason === 'false_claim') {
          this.moves.push({ kind: 'quarto', seat: ev.reason === 'false_claim' ? (ev.winner === null ? null : 1 - ev.winner) : ev.winner, line: ev.line ?? null });
        } else if (ev.reason === 'resign' && (ev.winner === 0 || ev.winner === 1)) {
          this.moves.push({ kind: 'resign', seat: 1 - ev.winner });
        }
        return 'Game over.';
      }
      case 'resumed': {
        // The server restarted and restored the room: the clocks as they now stand (the time
        // it was down counted for nobody).
        if (ev.clock) this.clock = makeClock(ev.clock, t);
        if (ev.claim !== undefined) this.claim = this.claimFrom(ev.claim, t);
        if (this.status === 'finished') this.freezeClock();
        return 'The server restarted; the game goes on.';
      }
      case 'player_renamed': {
        const p = ev.player ?? {};
        if (ev.seat !== 0 && ev.seat !== 1) return '';
        const before = this.seatName(ev.seat);
        this.players[ev.seat] = { ...this.players[ev.seat], name: p.name ?? before };
        return before === p.name ? '' : `${before} is now ${p.name}.`;
      }
      case 'rematch_requested': {
        if (ev.seat === 0 || ev.seat === 1) this.rematch[ev.seat] = true;
        return `${this.seatName(ev.seat)} asks for a rematch.`;
      }
      case 'joined': {
        const p = ev.player ?? {};
        if (ev.as === 'player' && (ev.seat === 0 || ev.seat === 1)) {
          if (this.departed) { this.departed = null; this.score = null; } // a new pair: the server counts from nothing
          this.players[ev.seat] = { seat: ev.seat, id: playerId(p), name: p.name ?? '?', connected: true, ...ratingOf(p) };
          // A spectator who sits down stops watching.
          if (this.spectatorIds.delete(playerId(p))) this.spectators = Math.max(0, this.spectators - 1);
          return `${p.name ?? 'A player'} took a seat.`;
        }
        if (typeof ev.spectators === 'number') this.spectators = ev.spectators;
        else this.spectators += 1;
        if (playerId(p) !== null) this.spectatorIds.add(playerId(p));
        return `${p.name ?? 'Someone'} is watching.`;
      }
      case 'left': {
        const seat = ev.seat === 0 || ev.seat === 1 ? ev.seat : this.seatOf(ev.player);
        const isSpectator = ev.as === 'spectator' || seat === null;
        if (!isSpectator) {
          const name = this.seatName(seat);
          // The seat is free again. A game in progress was resigned just before (game_over):
          // that resignation was the leaving. The room now waits for a new opponent, who starts
          // a fresh game; the last board, result and the pair's score stay on screen until then
          // (the server forgets them: see applySnapshot). The moves keep their players' names.
          for (const m of this.moves) if (m.seat === seat && !m.name) m.name = name;
          this.players[seat] = null;
          this.rematch = [false, false];
          if (this.status !== 'playing') {
            const r = this.result;
            if (r && r.reason === 'resign' && r.winner === 1 - seat && this.lastEvent === 'game_over') r.left = true;
            if (r) this.departed = { seat, name };
            else this.score = null;
            this.status = 'waiting';
            this.turn = null;
            this.claim = null;
          }
          if (typeof ev.spectators === 'number') this.spectators = ev.spectators;
          return `${name} left the room.`;
        }
        if (ev.player && ev.player.id !== undefined) this.spectatorIds.delete(ev.player.id);
        if (typeof ev.spectators === 'number') this.spectators = ev.spectators;
        else this.spectators = Math.max(0, this.spectators - 1);
        return 'A spectator left.';
      }
      case 'disconnected':
      case 'reconnected': {
        const seat = this.seatOf(ev.player);
        if (seat !== null) {
          const claimableAt = ev.type === 'disconnected' && typeof ev.claim_victory_in_ms === 'number'
            ? t + ev.claim_victory_in_ms : undefined;
          // A wait of 0 comes only right after game_started: that player has not been here since.
          const neverCame = ev.type === 'disconnected' && ev.claim_victory_in_ms === 0;
          this.players[seat] = { ...this.players[seat], connected: ev.type === 'reconnected', claimableAt, neverCame };
          return `${this.seatName(seat)} ${ev.type === 'reconnected' ? 'is back' : 'lost the connection'}.`;
        }
        return '';
      }
      default:
        return '';
    }
  }
}
