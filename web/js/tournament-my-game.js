// The player's own game on the tournament page: where to go this round ("Round 2: you play Bo.
// [Go to your game]"), a bye, how their game ended; while the next round waits, the last result
// and the next pairing with its countdown; once the tournament is over, their place.

import { h } from './dom.js';
import { formatPoints, rounds, gamesPerPairing, isBye, pairingDone, scoreText, pairingOf, waitingRound, roundBefore } from './tournament-table.js';
import { countdownSpan } from './countdown.js';
import { ordinal } from './tournament-words.js';
import { roomHref, openBoard } from './tournament-boards.js';

/** A finished pairing's score from `me`'s side: "1 – 0" when they won, "0 – 1" when they lost. */
export function scoreFor(p, me) {
  return p.players[0] === me ? scoreText(p) : scoreText({ ...p, score: [p.score[1], p.score[0]] });
}

/** The player's own board this round: where to go, or that they have a bye. */
export function myGame(view, t) {
  const me = view.me();
  if (!me || !view.entrant(t) || t.status === 'registering') return null;
  if (t.status === 'finished') {
    const row = (t.standings || []).find((s) => s.player === me);
    if (!row) return null;
    return h('p', { class: 'card my-game', dataset: { role: 'my-game' } },
      `You finished ${ordinal(row.rank)} with ${formatPoints(row.points)} point${row.points === 1 ? '' : 's'}.`);
  }
  const waiting = waitingRound(t);
  if (waiting) return nextGame(view, t, waiting);
  const list = rounds(t);
  const round = list[list.length - 1];
  const p = pairingOf(round, me);
  if (!p) return null;
  if (isBye(p)) {
    return h('p', { class: 'card my-game', dataset: { role: 'my-game' } },
      `Round ${round.round}: you have a bye (${formatPoints(Array.isArray(p.score) ? p.score[0] : gamesPerPairing(t))} point${gamesPerPairing(t) === 1 ? '' : 's'}).`);
  }
  const opponent = view.nameOf(t, p.players[0] === me ? p.players[1] : p.players[0]);
  if (pairingDone(p)) {
    const score = scoreFor(p, me);
    return h('p', { class: 'card my-game', dataset: { role: 'my-game' } },
      `Round ${round.round}: your game against ${opponent} is over (${score}). ${t.status === 'paused'
        ? 'The next round starts when the director resumes the tournament.' : 'The next round starts when every board has finished.'}`);
  }
  return h('div', { class: 'card my-game now', dataset: { role: 'my-game' } },
    h('span', {}, `Round ${round.round}: you play ${opponent}.`),
    p.room ? h('a', { class: 'button primary', href: roomHref(p.room), dataset: { action: 'play-my-game', room: p.room },
      onclick: () => openBoard(view, p) }, 'Go to your game') : null);
}

/** While the next round waits: how the player's last one ended, and whom they play next, when. */
function nextGame(view, t, waiting) {
  const me = view.me();
  const lines = [];
  const before = roundBefore(t, waiting);
  const last = before ? pairingOf(before, me) : null;
  if (last && isBye(last)) lines.push(h('p', {}, `Round ${before.round}: you had a bye.`));
  else if (last && pairingDone(last)) {
    const opponent = view.nameOf(t, last.players[0] === me ? last.players[1] : last.players[0]);
    const score = scoreFor(last, me);
    lines.push(h('p', {}, `Round ${before.round}: your game against ${opponent} is over (${score}).`));
  }
  const next = pairingOf(waiting, me);
  if (next) {
    const when = t.status === 'running'
      ? [' It starts in ', countdownSpan(waiting.starts_at_ms, view.app.serverNow()), '; your board opens by itself.']
      : [' It starts when the director resumes the tournament.'];
    let what;
    if (isBye(next)) what = `Round ${waiting.round}: you have a bye.`;
    else if (pairingDone(next)) what = `Round ${waiting.round}: your opponent was removed; you win by forfeit.`;
    else what = `Round ${waiting.round}: you play ${view.nameOf(t, next.players[0] === me ? next.players[1] : next.players[0])}.`;
    lines.push(h('p', {}, what, ...(isBye(next) || pairingDone(next) ? [] : when)));
  }
  if (!lines.length) return null;
  return h('div', { class: 'card my-game', dataset: { role: 'my-game' } }, ...lines);
}
