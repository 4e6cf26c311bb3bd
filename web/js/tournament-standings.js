// The tournament's standings (rank, points, the tie-breaks: Buchholz in a Swiss, then
// Sonneborn-Berger) and its crosstable, from the snapshot's tables (tournament-table.js).

import { h } from './dom.js';
import { formatPoints, formatTiebreak, crosstable, describeCell } from './tournament-table.js';
import { removeControls } from './tournament-director.js';
import { playerLabel } from './words.js';

const SB_HELP = 'Sonneborn-Berger: for each game, the opponent\'s final points times your result (1 win, ½ draw, 0 loss), added up';
const BUCHHOLZ_HELP = 'Buchholz: the sum of the final points of the opponents you played';

/** The standings with their tie-breaks; the director's Remove beside each player still in. */
export function standingsTable(view, t) {
  const swiss = t.format === 'swiss';
  const director = view.isDirector(t) && t.status !== 'finished';
  const head = h('tr', {},
    h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'num' }, 'Points'),
    swiss ? h('th', { scope: 'col', class: 'num' }, h('abbr', { title: BUCHHOLZ_HELP }, 'Buchholz')) : null,
    h('th', { scope: 'col', class: 'num' }, h('abbr', { title: SB_HELP }, 'SB')),
    director ? h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Director')) : null);
  const byId = new Map((t.players || []).map((p) => [p.id, p]));
  const body = (t.standings || []).map((s) => {
    const p = byId.get(s.player);
    const removed = p && p.active === false;
    const tb = s.tiebreaks || {};
    return h('tr', { class: `${s.player === view.me() ? 'mine' : ''}${removed ? ' removed' : ''}`,
      dataset: { role: 'standings-row', player: s.player, rank: s.rank, points: s.points, sb: tb.sonneborn_berger, buchholz: tb.buchholz } },
    h('td', { class: 'num' }, String(s.rank)),
    h('th', { scope: 'row' }, playerLabel(s.name, p, s.player, { class: `pname${removed ? ' removed' : ''}` }), s.player === view.me() ? h('span', { class: 'muted' }, ' (you)') : null,
      removed ? h('span', { class: 'muted' }, ' (removed)') : null),
    h('td', { class: 'num points' }, formatPoints(s.points)),
    swiss ? h('td', { class: 'num' }, formatTiebreak(tb.buchholz)) : null,
    h('td', { class: 'num' }, formatTiebreak(tb.sonneborn_berger)),
    director ? h('td', {}, !removed && p ? removeControls(view, p) : null) : null);
  });
  return h('section', { class: 'card t-standings', 'aria-labelledby': 't-standings-title' },
    h('h3', { id: 't-standings-title' }, t.status === 'finished' ? 'Final standings' : 'Standings'),
    // The scrolling box is a region of its own (a keyboard can scroll it): named apart from its section.
    h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Standings table' },
      h('table', { class: 't-table standings', dataset: { role: 'standings' } },
        h('caption', { class: 'sr-only' }, 'Standings: rank, player, points and tie-breaks'),
        h('thead', {}, head), h('tbody', {}, body))),
    h('p', { class: 'muted small legend' }, swiss
      ? 'Ties are broken by Buchholz (the sum of your opponents\' points), then SB (Sonneborn-Berger: the points of each opponent you beat, plus half the points of each you drew).'
      : 'Ties are broken by SB (Sonneborn-Berger: the points of each opponent you beat, plus half the points of each you drew).'));
}

/** Who beat whom: a row per player in standings order, a numbered column per opponent. */
export function crosstableTable(view, t) {
  const { order, cells, byes } = crosstable(t);
  const names = new Map((t.players || []).map((p) => [p.id, p.name]));
  const points = new Map((t.standings || []).map((s) => [s.player, s.points]));
  const anyBye = byes.size > 0;
  const head = h('tr', {},
    h('th', { scope: 'col', class: 'num' }, '#'), h('th', { scope: 'col' }, 'Player'),
    order.map((id, i) => h('th', { scope: 'col', class: 'num' }, h('abbr', { title: names.get(id) ?? '?' }, String(i + 1)))),
    anyBye ? h('th', { scope: 'col', class: 'num' }, 'Bye') : null,
    h('th', { scope: 'col', class: 'num' }, 'Points'));
  const body = order.map((id, i) => h('tr', { class: id === view.me() ? 'mine' : '' },
    h('td', { class: 'num' }, String(i + 1)),
    h('th', { scope: 'row' }, names.get(id) ?? '?'),
    order.map((other) => {
      if (other === id) return h('td', { class: 'self', 'aria-label': '—' }, '');
      const entries = cells.get(`${id} ${other}`) || [];
      const marks = entries.flatMap((e) => e.marks);
      return h('td', { class: `num cell${marks.includes('…') ? ' live' : ''}`, dataset: { player: id, opponent: other },
        title: entries.length ? describeCell(entries, names.get(other)) : null }, marks.join(' '));
    }),
    anyBye ? h('td', { class: 'num bye', dataset: { role: 'bye-cell', player: id },
      title: (byes.get(id) || []).map((b) => `bye in round ${b.round}`).join(', ') || null },
    (byes.get(id) || []).map((b) => formatPoints(b.points)).join(' ')) : null,
    h('td', { class: 'num points' }, formatPoints(points.get(id)))));
  return h('section', { class: 'card t-cross', 'aria-labelledby': 't-cross-title' },
    h('h3', { id: 't-cross-title' }, 'Crosstable'),
    h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Crosstable: who beat whom' },
      h('table', { class: 't-table crosstable', dataset: { role: 'crosstable' } },
        h('caption', { class: 'sr-only' }, 'Crosstable: each row is a player, each numbered column an opponent, in standings order'),
        h('thead', {}, head), h('tbody', {}, body))),
    h('p', { class: 'muted small legend' },
      `Each row reads from that player's side: 1 win, 0 loss, ½ draw, + / − won / lost by forfeit, … being played${anyBye ? ', bye: a round without an opponent, scored as a win' : ''}.`));
}
