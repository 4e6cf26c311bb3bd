// The claim window in the game view: the prompt to the player who may claim a missed Quarto, the
// note to everybody else, the squares the prompt speaks of, and a word when the window closes.
//
// The window opens after every give that follows a placement, and the server never says whether
// the pieces share a trait; the prompt shows only after a placement that filled a line (which
// anyone can see on the board), and it stays neutral: it names the squares, says what a wrong
// call costs in this room, and leaves the judging to the player. Its closing words, too, never
// speak of "the Quarto" as if there were one.

import { h } from './dom.js';
import { lineWords } from './words.js';

/** Whether the window of a placement that filled a line is open in `room`: {seat, lines}, or null. */
function openWindow(room) {
  if (room.status !== 'playing' || !room.claim || room.claimLeft() === 0) return null;
  if (room.claim.seat !== 0 && room.claim.seat !== 1) return null;
  const lines = room.completedLines();
  return lines.length ? { seat: room.claim.seat, lines } : null;
}

/** The squares the prompt speaks of, to be marked on the board: only for the player it is to. */
export function promptedSquares(room) {
  const w = openWindow(room);
  return w && w.seat === room.you ? new Set(w.lines.flat()) : new Set();
}

/** The prompt (to the player who may claim) or the note (to everybody else), or null. */
export function claimPrompt(room) {
  const w = openWindow(room);
  if (!w) return null;
  const me = room.you;
  if (w.seat !== me) {
    return h('p', { class: 'claim-note' }, `${room.seatName(w.seat)} may still claim a missed Quarto: `,
      h('span', { dataset: { role: 'claim-time' } }, ''), ' left.');
  }
  const one = w.lines.length === 1;
  const cost = room.rules.false_claim === 'lose'
    ? h('strong', {}, 'A wrong call loses the game.')
    : 'A wrong call is refused.';
  return h('div', { class: 'claim-invite', dataset: { role: 'claim' }, role: 'status' },
    `${room.seatName(1 - me)}'s last piece completed ${lineWords(w.lines)} (marked). `,
    `If ${one ? 'its four pieces' : 'the four pieces of one of them'} share a trait, press Quarto! and point at them. `,
    cost, ' ', h('span', { class: 'claim-time', dataset: { role: 'claim-time' } }, ''), ' left.');
}

/**
 * Watches one room's claim window and says, once, why a window that was shown closed: its time
 * ran out, or the player who could claim placed their piece (moved on). A call ends the game,
 * whose result says the rest; the claimant's own placing needs no word.
 */
export class ClaimWatch {
  constructor() {
    this.shown = null; // {seat, moves}: the window on screen, and the number of moves then
  }

  /** Returns what to say about a window that has just closed, or null. */
  check(room) {
    const was = this.shown;
    const w = openWindow(room);
    this.shown = w ? { seat: w.seat, moves: room.moves.length } : null;
    if (!was || w || room.status !== 'playing') return null;
    const me = room.you;
    const claimant = room.seatName(was.seat);
    const last = room.moves[room.moves.length - 1];
    if (room.moves.length === was.moves && room.claim && room.claimLeft() === 0) {
      return was.seat === me ? 'Time is up: the chance to claim has passed. Place your piece.'
        : `${claimant}'s time to claim ran out.`;
    }
    if (room.moves.length === was.moves + 1 && last.kind === 'place' && last.seat === was.seat && was.seat !== me) {
      return `${claimant} placed a piece: the chance to claim has passed.`;
    }
    return null;
  }
}
