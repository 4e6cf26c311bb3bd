// The game in words, for every view: the rules and clock of a room, a move, a result, a score,
// a rating. Kept apart from the game view so that the lobby, the invitation and the tournament
// pages can say these things without loading the board.

import { pieceName, sharedTraits, ATTRIBUTES } from './pieces.js';
import { h } from './dom.js';

const COLS = 'ABCD';
export const squareName = (sq) => `${COLS[sq % 4]}${Math.floor(sq / 4) + 1}`;

export function rulesSummary(rules = {}, clock = {}) {
  const parts = [];
  const attrs = Array.isArray(rules.attributes) ? rules.attributes : null;
  if (attrs && attrs.length < 4) {
    const names = ATTRIBUTES.filter((a) => attrs.includes(a.key)).map((a) => a.key === 'color' ? 'colour' : a.key);
    parts.push(`only ${names.join(', ')} count`);
  }
  if (rules.squares) parts.push('2×2 squares count');
  if (rules.false_claim === 'lose') parts.push('a wrong call loses');
  const move = clock.move_ms;
  if (move === null) parts.push('untimed');
  else if (typeof move === 'number') parts.push(`${formatSeconds(move)} per move`);
  if (typeof clock.claim_ms === 'number') parts.push(`${formatSeconds(clock.claim_ms)} to claim`);
  return parts.length ? parts.join(' · ') : 'standard rules';
}

export function formatSeconds(ms) {
  const s = ms / 1000;
  if (s >= 120 && s % 60 === 0) return `${s / 60} min`;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** Whether the four squares of a winning pattern are a 2×2 square (the advanced variant's). */
function isSquarePattern(squares) {
  const [a, b, c, d] = squares.slice().sort((x, y) => x - y);
  return a % 4 !== 3 && b === a + 1 && c === a + 4 && d === a + 5;
}

/** A pattern's kind in words: 'square' for a 2×2 square, else 'line'. */
export const patternKind = (squares) => (isSquarePattern(squares) ? 'square' : 'line');

/** "the line A1 B1 C1 D1", "the square B2 C2 B3 C3", "the lines A1 B1 C1 D1 and A1 B2 C3 D4",
 *  "the line A1 B1 C1 D1 and the square A1 B1 A2 B2". */
export function lineWords(lines) {
  const named = (kind) => lines.filter((l) => patternKind(l) === kind)
    .map((l) => l.slice().sort((a, b) => a - b).map(squareName).join(' '));
  const group = (kind, names) => (names.length ? `the ${kind}${names.length > 1 ? 's' : ''} ${names.join(' and ')}` : null);
  return [group('line', named('line')), group('square', named('square'))].filter(Boolean).join(' and ');
}

/** One move in words: m is {kind: give|place|pass|resign|quarto, seat, piece, square, line}. */
export function moveText(m, seatName) {
  const who = m.name ?? (m.seat === 0 || m.seat === 1 ? seatName(m.seat) : '?');
  if (m.kind === 'give') return `${who} gave ${pieceName(m.piece)}`;
  if (m.kind === 'place') return `${who} placed ${m.piece !== null && m.piece !== undefined ? pieceName(m.piece) : 'the piece'} on ${squareName(m.square)}`;
  if (m.kind === 'pass') return `${who} passed`;
  if (m.kind === 'resign') return `${who} resigned`;
  if (m.kind === 'quarto') return `${who} called Quarto${Array.isArray(m.line) ? ` on ${m.line.map(squareName).join(' ')}` : ''}`;
  return `${who}: ${m.kind}`;
}

const REASONS = {
  quarto: (w, l, extra) => `Quarto!${extra}`,
  missed_quarto: (w, l) => `${w} claimed the Quarto that ${l} missed.`,
  timeout: (w, l) => `${l} ran out of time.`,
  resign: (w, l) => `${l} resigned.`,
  false_claim: (w, l) => `${l} called a Quarto that wasn't there.`,
  board_full: () => 'The board is full and nobody made a Quarto.',
  abandoned: (w, l) => `${l} left the game and did not come back.`,
};

/** "Ann 2 – 1 Bo" (and the draws): the running score of the seated pair, or '' before a game ends. */
export function scoreText(room) {
  const s = room.score;
  if (!s || !Array.isArray(s.wins) || s.wins[0] + s.wins[1] + (s.draws || 0) === 0) return '';
  const draws = s.draws ? ` (${s.draws} draw${s.draws === 1 ? '' : 's'})` : '';
  return `${room.seatName(0)} ${s.wins[0]} – ${s.wins[1]} ${room.seatName(1)}${draws}`;
}

export function resultText(room) {
  const r = room.result;
  if (!r) return '';
  const me = room.you;
  const nameOf = (seat) => (seat === me ? `${room.seatName(seat)} (you)` : room.seatName(seat));
  if (r.result === 'draw' || r.winner === null || r.winner === undefined) {
    const why = REASONS[r.reason] ? REASONS[r.reason]() : `(${r.reason})`;
    return `Draw — ${why}`;
  }
  const w = nameOf(r.winner);
  const l = room.seatName(1 - r.winner);
  // Leaving a game in progress resigns it; the room says who left (room.js sets `left`).
  if (r.reason === 'resign' && r.left) return `${r.winner === me ? 'You win' : `${room.seatName(r.winner)} wins`} — ${l} left.`;
  let extra = '';
  if (Array.isArray(r.line) && r.line.length === 4) {
    const pieces = r.line.map((sq) => room.board[sq]).filter((p) => p !== null && p !== undefined);
    if (pieces.length === 4) {
      const counted = Array.isArray(room.rules.attributes) ? room.rules.attributes : null;
      const shared = sharedTraits(pieces, counted);
      if (shared.length) extra = ` Four ${shared.join(', ')} pieces in a ${patternKind(r.line)}.`;
    }
  }
  const why = REASONS[r.reason] ? REASONS[r.reason](room.seatName(r.winner), l, extra) : `(${r.reason})`;
  return `${w} wins — ${why}`;
}

// The computer's levels (protocol: create_room's opponent.bot, add_bot's for a tournament).
export const BOT_LEVELS = [
  { level: 1, words: 'plays at random, but never hands you a win' },
  { level: 2, words: 'looks one move ahead' },
  { level: 3, words: 'thinks, and often misses a Quarto' },
  { level: 4, words: 'thinks deeper, and rarely misses one' },
  { level: 5, words: 'plays perfectly' },
];
export const DEFAULT_BOT_LEVEL = 2;

// ---- ratings: "1500", "1500?" while provisional, "±85", a game's "+12"; the pool a room's rules
// are rated in ("standard", or "advanced" with 2×2 squares: all four traits either way) and why a
// room cannot be rated; names linking to their profiles, with their ratings ----

export const POOLS = ['standard', 'advanced'];
export const POOL_WORDS = { standard: 'Standard', advanced: 'Advanced' };

const whole = (x) => (typeof x === 'number' && Number.isFinite(x) ? Math.round(x) : null);

/** `r`: {rating, provisional} (unrounded or whole); '' for none (a guest, a pool not played). */
export function ratingText(r) {
  const n = r ? whole(r.rating) : null;
  return n === null ? '' : `${n}${r.provisional ? '?' : ''}`;
}

export function deviationText(rd) {
  const n = whole(rd);
  return n === null ? '' : `±${n}`;
}

/** "+12", "-12" or "±0". */
export function changeText(before, after) {
  if (whole(after) === null || whole(before) === null) return '';
  const d = whole(after) - whole(before);
  return d > 0 ? `+${d}` : d < 0 ? `-${-d}` : '±0';
}

/** 'standard', 'advanced', or null when not all four traits count. */
export function poolOf(rules) {
  const a = rules && Array.isArray(rules.attributes) ? rules.attributes : null;
  if (a && ['color', 'height', 'shape', 'fill'].some((t) => !a.includes(t))) return null;
  return rules && rules.squares ? 'advanced' : 'standard';
}

export const RATED_PROBLEMS = {
  account: 'Log in to play rated games.',
  traits: 'Rated games count all four traits.',
  clock: 'Rated games need a clock.',
};

/** Why "rated" in create_room or create_tournament would be refused (a key of RATED_PROBLEMS), or
 *  null. A move clock still being typed (move_ms undefined) is the form's own check. */
export function ratedProblem({ account, rules, clock }) {
  if (!account) return 'account';
  if (!poolOf(rules)) return 'traits';
  if (clock && clock.move_ms === null) return 'clock';
  return null;
}

/** The computer ("bot-N") has no profile. */
export const isBot = (id) => typeof id === 'string' && id.startsWith('bot-');

export const profileHref = (name) => `#/player/${encodeURIComponent(name)}`;

/** A rating beside a name; its "?" is read "provisional". Null for none. */
export function ratingSpan(r) {
  const text = ratingText(r);
  if (!text) return null;
  return h('span', { class: 'rating', dataset: { role: 'rating', rating: whole(r.rating), provisional: r.provisional ? 'true' : null } },
    String(whole(r.rating)), r.provisional ? [h('span', { 'aria-hidden': 'true' }, '?'), h('span', { class: 'sr-only' }, ' provisional')] : null);
}

/** A name linking to its profile (the computer's, or any when `plain`, is text), and its rating. */
export function playerLabel(name, r = null, id = null, attrs = {}, plain = false) {
  const link = plain || isBot(id) ? h('span', attrs, name) : h('a', { href: profileHref(name), ...attrs, class: `player-link ${attrs.class || ''}`.trim() }, name);
  const rating = ratingSpan(r);
  return rating ? [link, ' ', rating] : link;
}
