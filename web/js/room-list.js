// The lobby's list of rooms: those with a free seat first, then the games in progress, then
// the rooms whose waiting player has gone (shown, not offered: a game there would start against
// nobody, and the server closes them shortly), then the finished ones folded away behind
// "Finished (N)", closed until the player opens it (they stay in the lobby until the server
// reclaims them, and would otherwise push the open rooms down). A tournament's games are not
// listed here but under their tournament (the lobby's tournament list, tournament-list.js, and
// the tournament's page), where they belong.
//
// Hooks: data-role="rooms" (the list), each room data-room-id (data-host-away="true" on a room
// whose player has gone) with data-action="lobby-join" / "lobby-watch"; data-role="rooms-more"
// (not every room is shown); data-role="finished-rooms" (the <details> of the finished rooms,
// data-count) whose summary is data-action="show-finished". A rated room (data-rated="true")
// offers a guest data-action="log-in-to-play" instead of Join: its seats are for accounts.

import { h, focusKey, restoreFocus } from './dom.js';
import { rulesSummary, playerLabel } from './words.js';

/** Where a guest is sent from a rated room's free seat. */
export const logInToPlay = () => h('a', { class: 'button secondary', href: '#/account', dataset: { action: 'log-in-to-play' } }, 'Log in to play');

const STATUS_WORDS = { waiting: 'waiting for a player', playing: 'playing', finished: 'finished' };
const ORDER = { waiting: 0, playing: 1, away: 2, finished: 3 };
const rank = (r) => ORDER[r.host_away === true ? 'away' : r.status] ?? 4;

export class RoomList {
  /** `enter(id, as)`: sit down in a room, or watch it. */
  constructor(app, enter) {
    this.app = app;
    this.enter = enter;
    this.message = h('div');
    this.active = h('ul', { class: 'rooms' });
    this.finishedCount = h('span');
    this.finishedList = h('ul', { class: 'rooms' });
    // Kept across redraws (the list is asked for every 2 s): so is whether it is open.
    this.finished = h('details', { class: 'finished-rooms', dataset: { role: 'finished-rooms' } },
      h('summary', { dataset: { action: 'show-finished' } }, 'Finished (', this.finishedCount, ')'),
      this.finishedList);
    this.node = h('div', { class: 'room-list', dataset: { role: 'rooms' }, 'aria-live': 'polite' },
      this.message, this.active, this.finished);
  }

  update() {
    const rooms = this.app.lobby.rooms;
    const fk = focusKey(this.node);
    const listed = (rooms || []).filter((r) => r.tournament === null || r.tournament === undefined);
    const sorted = listed.slice().sort((a, b) => rank(a) - rank(b));
    const active = sorted.filter((r) => r.status !== 'finished');
    const joinable = active.filter((r) => r.host_away !== true);
    const finished = sorted.filter((r) => r.status === 'finished');
    let message = null;
    if (rooms === null) message = h('p', { class: 'muted' }, this.app.welcomed ? 'Loading rooms…' : 'Connecting…');
    else if (joinable.length === 0) message = h('p', { class: 'muted' }, 'No open rooms yet — create one and send the link to a friend.');
    else if (this.app.lobby.total > rooms.length) {
      message = h('p', { class: 'muted small', dataset: { role: 'rooms-more' } },
        `Showing ${rooms.length} of ${this.app.lobby.total} rooms: those you can join first.`);
    }
    this.message.replaceChildren(message ?? '');
    this.active.replaceChildren(...active.map((r) => this.row(r)));
    this.active.hidden = active.length === 0;
    this.finishedCount.textContent = String(finished.length);
    this.finished.dataset.count = String(finished.length);
    this.finishedList.replaceChildren(...finished.map((r) => this.row(r)));
    this.finished.hidden = finished.length === 0;
    restoreFocus(this.node, fk);
  }

  row(r) {
    const players = Array.isArray(r.players) ? r.players.filter(Boolean) : [];
    if (r.host_away === true) {
      // Nothing to join or watch: its player's page has gone, and the room with it soon.
      return h('li', { class: 'room-item away', dataset: { roomId: r.id, hostAway: 'true' } },
        h('div', { class: 'room-main' },
          h('strong', {}, r.name || `Room ${r.id}`),
          h('span', { class: 'pill away' }, 'host away'),
          h('div', { class: 'muted small' },
            `${players[0] || 'Its player'} has left for now; the room closes unless they come back.`)));
    }
    const open = r.status === 'waiting' && players.length < 2;
    const ratings = Array.isArray(r.player_ratings) ? r.player_ratings : [];
    return h('li', { class: `room-item ${r.status}`, dataset: { roomId: r.id, rated: r.rated ? 'true' : null } },
      h('div', { class: 'room-main' },
        h('strong', {}, r.name || `Room ${r.id}`),
        h('span', { class: `pill ${r.status}` }, STATUS_WORDS[r.status] || r.status),
        r.rated ? h('span', { class: 'pill rated' }, 'rated') : null,
        h('div', { class: 'muted small' }, players.length ? players.map((n, i) => [i ? ' vs ' : '', playerLabel(n, ratings[i])]) : 'nobody yet',
          typeof r.spectators === 'number' && r.spectators ? ` · ${r.spectators} watching` : '',
          ' · ', rulesSummary(r.rules, r.clock))),
      h('div', { class: 'room-buttons' },
        open && r.rated && !this.app.me.account ? logInToPlay() : null,
        open && (!r.rated || this.app.me.account) ? h('button', { type: 'button', class: 'primary', dataset: { action: 'lobby-join', room: r.id },
          onclick: () => this.enter(r.id, 'player') }, 'Join') : null,
        h('button', { type: 'button', class: 'secondary', dataset: { action: 'lobby-watch', room: r.id },
          onclick: () => this.enter(r.id, 'spectator') }, 'Watch')));
  }
}
