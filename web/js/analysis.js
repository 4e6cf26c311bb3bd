// The solver's analysis of a finished game (GET /api/games/ID/analysis) read for the replay:
// who was winning at each step, which moves changed the result, and the best move instead.
// No DOM here: replay.js draws what these say.

import { pieceName } from './pieces.js';
import { squareName } from './words.js';

/** Fetches the analysis: {ok: true, body} or {ok: false, status, message}. */
export async function fetchAnalysis(id) {
  let res;
  let body = null;
  try {
    res = await fetch(`api/games/${encodeURIComponent(id)}/analysis`, { cache: 'no-store' });
    body = await res.json().catch(() => null);
  } catch {
    return { ok: false, status: 0, message: 'The analysis could not be loaded.' };
  }
  if (res.ok && body && Array.isArray(body.positions)) return { ok: true, body };
  const message = res.status === 503
    ? 'The analysis is busy with other games. Try again in a few seconds.'
    : (body && body.message) || 'The analysis could not be loaded.';
  return { ok: false, status: res.status, message };
}

/** A move of the API ({square, give, quarto}) in words: "place on D1 and call Quarto". */
export function moveWords(m) {
  const parts = [];
  if (m.square !== null && m.square !== undefined) parts.push(`place on ${squareName(m.square)}`);
  if (m.quarto) parts.push(m.square === null || m.square === undefined ? 'claim the missed Quarto' : 'call Quarto');
  else if (m.give !== null && m.give !== undefined) parts.push(`give ${pieceName(m.give)}`);
  return parts.join(m.quarto ? ' and ' : ', then ') || 'pass';
}

/**
 * What "Show best move" shows, in words: the position after `from` moves, where the player made
 * the moves up to `to` instead. "After move 7, Ann played moves 8 and 9; the best was to place
 * on D1 and call Quarto."
 */
export function bestMoveWords(from, to, name, best) {
  const played = to === from + 1 ? `move ${to}` : `moves ${from + 1} ${to === from + 2 ? 'and' : 'to'} ${to}`;
  return `${from ? `After move ${from}` : 'At the start'}, ${name} played ${played}; the best was to ${moveWords(best)}.`;
}

/** The standing in words: "Ann wins in 3 placements", "Draw with best play". */
export function standingWords(standing, seatName) {
  if (!standing) return '';
  const name = standing.leader === null ? null : seatName(standing.leader);
  if (standing.over) return name ? `${name} won` : 'A draw';
  if (name === null) return standing.exact ? 'A draw with best play' : 'Even: no forced win found';
  if (standing.distance === 0) return `${name} wins: a Quarto can be called`;
  return `${name} wins in ${standing.distance} placement${standing.distance === 1 ? '' : 's'} with best play`;
}

/** What a change of result was, for the player who made the move. */
function changeWords(before, after) {
  if (before.value === 'win') return 'threw away a win';
  if (before.value === 'draw' && after.value === 'loss') return 'turned a draw into a loss';
  return 'made the result worse';
}

export class GameAnalysis {
  /** `total`: the number of the game's moves; `result`: the record's result. */
  constructor(body, total, result) {
    this.positions = body.positions;
    this.exact = body.exact === true;
    this.total = total;
    this.result = result;
  }

  /** The step at which position i's move is complete: where the next position starts, or the end. */
  endOf(i) {
    return i + 1 < this.positions.length ? this.positions[i + 1].step : this.total;
  }

  /** The position whose move was being made at `step` (its start included, its end excluded). */
  positionAt(step) {
    let found = -1;
    this.positions.forEach((p, i) => { if (p.step <= step) found = i; });
    return found;
  }

  /**
   * Who was winning once `step` moves had been made: {leader: 0 | 1 | null, distance, exact}.
   * At the start of a move, its position's value; when a move has just been completed, its
   * value for its player after it (the same, seen from the other side, as the next position's,
   * unless the search ran out of time); at the end, the result.
   */
  standingAt(step) {
    if (step >= this.total && this.result) {
      const winner = this.result.winner;
      return { leader: winner === 0 || winner === 1 ? winner : null, distance: 0, exact: true, over: true };
    }
    const done = this.positions.findIndex((p, i) => this.endOf(i) === step && p.after);
    if (done >= 0) return this.standing(this.positions[done].seat, this.positions[done].after);
    const i = this.positionAt(step);
    if (i < 0) return null;
    return this.standing(this.positions[i].seat, this.positions[i].before);
  }

  standing(seat, e) {
    const leader = e.value === 'draw' ? null : (e.value === 'win' ? seat : 1 - seat);
    return { leader, distance: e.distance, exact: e.exact === true, over: false };
  }

  /** The moves that changed the result: [{position, step (the move's last action, 1-based), seat, words}]. */
  marks() {
    const out = [];
    this.positions.forEach((p, i) => {
      if (!p.changed || !p.after) return;
      out.push({ position: i, step: this.endOf(i), seat: p.seat, words: changeWords(p.before, p.after) });
    });
    return out;
  }

  /** The mark of the move being made or just made at `step` (start excluded, end included). */
  markAround(step) {
    return this.marks().find((m) => this.positions[m.position].step < step && step <= m.step) ?? null;
  }
}
