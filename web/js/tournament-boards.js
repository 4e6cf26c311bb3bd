// The boards of a tournament's round on its page: a picker of the rounds played so far, and a row
// per pairing with its players, its result (or what is being played) and a link per game: Play
// for the player's own, Watch for a game on, View for a room still open, Replay once the game
// is in the archive. While the next round waits, the round just played stays on screen.

import { h } from './dom.js';
import { roomKey } from './room-store.js';
import {
  formatPoints, rounds, gamesPerPairing, totalRounds, isBye, pairingDone, scoreText, roundComplete, reasonWords,
  waitingRound, roundBefore,
} from './tournament-table.js';

export function roomHref(id) {
  return `#/room/${encodeURIComponent(String(id))}`;
}

/** The round shown when none was picked: the latest, or the one just played while the next waits. */
export function defaultRound(t) {
  const list = rounds(t);
  const waiting = waitingRound(t);
  return (waiting && roundBefore(t, waiting)) || list[list.length - 1];
}

/** What the Result cell says of pairing `p`: a bye's points ({bye}), or {score, reasons, live}:
 *  the score so far, the reasons its games ended, and what is being played ('' once done). */
export function resultWords(t, p) {
  if (isBye(p)) return { bye: `${formatPoints(Array.isArray(p.score) ? p.score[0] : gamesPerPairing(t))} (bye)` };
  const results = p.results || [];
  return {
    score: scoreText(p),
    reasons: results.map((r) => reasonWords(r.reason)).filter(Boolean).join(', '),
    live: pairingDone(p) ? '' : p.room ? (results.length ? `game ${results.length + 1} playing` : 'playing') : 'waiting',
  };
}

/**
 * One link per game of pairing `p` (the earlier games of a pairing stay viewable while their
 * rooms last): {room, label, nth (the game's number when the pairing plays two, else null), game
 * (the archived game a Replay opens)}. A finished game is replayed from the archive, its room
 * may be gone by now; a forfeit has nothing to show. `mine`: the player's own pairing.
 */
export function gameLinks(p, mine) {
  if (isBye(p) || !p.room) return [];
  const all = Array.isArray(p.rooms) && p.rooms.length ? p.rooms : [p.room];
  const done = pairingDone(p);
  const links = [];
  all.forEach((room, g) => {
    const nth = all.length > 1 ? g + 1 : null;
    const result = (p.results || []).find((r) => r.room === room);
    if (result && result.game) links.push({ room, label: nth ? `Replay ${nth}` : 'Replay', nth, game: result.game });
    else if (!result) links.push({ room, label: room === p.room && !done ? (mine ? 'Play' : 'Watch') : 'View', nth, game: null });
  });
  return links;
}

/** Before following a board's link: sit down in our own game, or join its audience. */
export function openBoard(view, p, room = p.room) {
  const key = roomKey(room);
  if (view.app.rooms.has(key) || view.app.joining.has(key)) return;
  const mine = !!view.me() && (p.players || []).includes(view.me());
  view.app.join(view.app.idTypes.get(key) ?? room, mine ? 'player' : 'spectator');
}

function playerCell(view, t, id, winner = false) {
  const p = (t.players || []).find((x) => x.id === id);
  const name = p ? p.name : '?';
  return h(winner ? 'strong' : 'span', { class: `pname${id === view.me() ? ' me' : ''}${p && p.active === false ? ' removed' : ''}` },
    name, id === view.me() ? ' (you)' : '');
}

function pairingRow(view, t, shown, p, i) {
  const me = view.me();
  const bye = isBye(p);
  const done = pairingDone(p);
  const [a, b] = p.players || [];
  const mine = !!me && (a === me || b === me);
  const names = bye
    ? h('td', {}, playerCell(view, t, a), h('span', { class: 'muted' }, ' — bye'))
    : h('td', {}, playerCell(view, t, a, done && p.score[0] > p.score[1]), h('span', { class: 'vs' }, ' – '), playerCell(view, t, b, done && p.score[1] > p.score[0]));
  const words = resultWords(t, p);
  const result = bye ? words.bye : h('span', {}, words.score ? h('strong', { class: 'score' }, words.score) : null,
    words.reasons ? h('span', { class: 'muted small' }, ` ${words.reasons}`) : null,
    words.live ? h('span', { class: 'live' }, `${words.score ? ' · ' : ''}${words.live}`) : null);
  const who = `${view.nameOf(t, a)} – ${view.nameOf(t, b)}`;
  const links = gameLinks(p, mine).map((l) => {
    const nth = l.nth ? `, game ${l.nth}` : '';
    if (l.game) {
      return h('a', { class: 'button secondary small-button', href: `#/game/${encodeURIComponent(String(l.game))}`,
        dataset: { action: 'replay-board', game: l.game, room: l.room }, 'aria-label': `Replay: ${who}, round ${shown.round}${nth}` }, l.label);
    }
    return h('a', {
      class: `button ${l.label === 'Play' ? 'primary' : 'secondary'} small-button`, href: roomHref(l.room),
      dataset: { action: 'watch-board', room: l.room }, 'aria-label': `${l.label}: ${who}, round ${shown.round}${nth}`,
      onclick: () => openBoard(view, p, l.room),
    }, l.label);
  });
  return h('tr', { class: `${mine ? 'mine' : ''}${done ? ' done' : ''}`, dataset: { role: 'pairing-row', room: p.room ?? null, players: (p.players || []).filter(Boolean).join(' '), done: String(done) } },
    h('td', { class: 'num' }, String(i + 1)), names, h('td', {}, result), h('td', { class: 'link-cell' }, links));
}

/** The boards' card; `view.shownRound` is the round picked (null: follow the default). */
export function roundBoards(view, t) {
  const list = rounds(t);
  const section = h('section', { class: 'card t-boards', 'aria-labelledby': 't-boards-title' });
  if (!list.length) {
    section.append(h('h3', { id: 't-boards-title' }, 'Boards'), h('p', { class: 'muted' }, 'No round has started yet.'));
    return section;
  }
  const latest = list[list.length - 1].round;
  const waiting = waitingRound(t);
  const byDefault = defaultRound(t);
  const shown = list.find((r) => r.round === view.shownRound) ?? byDefault;
  const total = totalRounds(t);
  section.appendChild(h('h3', { id: 't-boards-title' }, `Round ${shown.round}${total ? ` of ${total}` : ''}`,
    shown.round === latest && !waiting && t.status !== 'finished' && !roundComplete(shown) ? h('span', { class: 'pill playing' }, 'now') : null,
    shown === waiting ? h('span', { class: 'pill waiting' }, 'next') : null));
  if (list.length > 1) {
    section.appendChild(h('div', { class: 'round-tabs', role: 'group', 'aria-label': 'Show the boards of round', dataset: { role: 'round-tabs' } },
      list.map((r) => h('button', {
        type: 'button', class: 'secondary', dataset: { action: 'show-round', round: r.round },
        'aria-pressed': String(r.round === shown.round),
        onclick: () => { view.shownRound = r.round === byDefault.round ? null : r.round; view.update(); },
      }, `Round ${r.round}`))));
  }
  const rows = (shown.pairings || []).map((p, i) => pairingRow(view, t, shown, p, i));
  section.appendChild(h('div', { class: 'table-scroll' },
    h('table', { class: 't-table boards', dataset: { role: 'round-boards', round: shown.round } },
      h('caption', { class: 'sr-only' }, `Boards of round ${shown.round}`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Board'), h('th', { scope: 'col' }, 'Players'),
        h('th', { scope: 'col' }, 'Result'), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Open')))),
      h('tbody', {}, rows))));
  return section;
}
