// The game view's header: the room's name (a tournament's game links back to its tournament),
// its rules in words, and the room's tools: who is watching, Copy link, Lobby, and Leave, which
// asks first during a game in progress (game-confirm.js). On a phone the tools fold into a menu
// (data-action="room-menu"), kept open while Leave waits for its confirmation.

import { h } from './dom.js';
import { rulesSummary } from './words.js';
import { tournamentHref } from './tournaments.js';
import { confirmGroup } from './game-confirm.js';
import { canResign } from './game-turn.js';

/** Whether a tournament's game room is named "<tournament> · round N": the tournament's name in
 *  the title is then the link back, rather than a second line saying it again. */
export function titledByTournament(roomName, tournamentName) {
  return !!tournamentName && roomName.startsWith(`${tournamentName} · `);
}

/** " · round 2, game 2" for the line under the title that links back to the tournament. */
export function roundWords(tlink) {
  return tlink.round ? ` · round ${tlink.round}${tlink.game > 1 ? `, game ${tlink.game}` : ''}` : '';
}

/** The room menu (a phone's): open when asked, or while Leave waits for its confirmation. */
export function menuShown(view) {
  return view.menuOpen || !!(view.confirming && view.confirming.kind === 'leave');
}

function toggleMenu(view) {
  view.menuOpen = !menuShown(view);
  if (!view.menuOpen && view.confirming && view.confirming.kind === 'leave') view.confirming = null;
  view.update();
}

/** The header of `room`; `link` its address, `tlink` and `tournament` its tournament's (or null). */
export function roomHead(view, room, link, tlink, tournament) {
  const tname = tournament ? tournament.name : null;
  const titled = !!tlink && titledByTournament(room.name, tname);
  return h('header', { class: 'room-head' },
    h('div', { class: 'room-title' },
      h('h2', { title: room.name, dataset: { fit: titled ? null : room.name } }, titled
        ? [h('a', { href: tournamentHref(tlink.tournament), dataset: { action: 'tournament-link' }, title: 'Back to the tournament' }, tname), room.name.slice(tname.length)]
        : room.name),
      tlink && !titled ? h('p', { class: 'tournament-of' },
        h('a', { href: tournamentHref(tlink.tournament), dataset: { action: 'tournament-link' } },
          `← ${tournament ? tournament.name : 'The tournament'}`),
        roundWords(tlink)) : null,
      h('p', { class: 'rules' }, rulesSummary(room.rules, room.clockRules), room.rated ? ' · rated' : '')),
    // On a phone the room's tools fold into a menu (the confirmation of Leave keeps it open).
    h('button', { type: 'button', class: 'secondary menu-toggle', dataset: { action: 'room-menu' },
      'aria-expanded': String(menuShown(view)), 'aria-controls': 'room-tools', onclick: () => toggleMenu(view) },
    h('span', { 'aria-hidden': 'true' }, '⋯ '), 'Menu'),
    h('div', { class: `room-tools${menuShown(view) ? ' open' : ''}`, id: 'room-tools' },
      h('span', { class: 'spectators', dataset: { role: 'spectators' }, title: 'People watching' },
        `${room.spectators} watching`),
      h('button', { type: 'button', class: 'secondary', dataset: { action: 'copy-link' }, onclick: () => view.copyLink(link) },
        view.copiedUntil ? 'Link copied ✓' : 'Copy link'),
      h('a', { class: 'button secondary', href: '#/', dataset: { action: 'lobby' } }, 'Lobby'),
      view.confirming && view.confirming.kind === 'leave' ? confirmGroup(view, 'leave')
        : h('button', { type: 'button', class: 'secondary', dataset: { action: 'leave' },
          title: canResign(room) ? 'Leaving a game in progress resigns it' : 'Leave this room',
          onclick: () => view.clickLeave() },
        canResign(room) ? 'Leave (resigns)' : 'Leave')));
}
