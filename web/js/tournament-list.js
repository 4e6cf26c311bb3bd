// The lobby's list of tournaments, refreshed like the room list (protocol section 19). A
// tournament's games are counted under it, from the lobby's rooms (their summaries name their
// tournament), rather than listed among the rooms. The hooks are listed at the top of tournament.js.

import { h } from './dom.js';
import { FORMAT_WORDS, STATUS_WORDS } from './tournament-table.js';
import { tournamentHref } from './tournaments.js';

const LIST_LIMIT = 20;

export class TournamentList {
  constructor(app) {
    this.app = app;
    this.list = h('div', { class: 'room-list', dataset: { role: 'tournament-list' }, 'aria-live': 'polite' });
    this.node = h('section', { class: 'card lobby-tournaments', 'aria-labelledby': 'tournaments-title' },
      h('h2', { id: 'tournaments-title' }, 'Tournaments'), this.list);
  }

  /** What this player is in a tournament whose snapshot we have: "you direct", "you play". */
  roleIn(id) {
    const t = this.app.tournaments.get(id);
    const me = this.app.me.id;
    if (!t || !me) return '';
    const parts = [];
    if (t.director === me) parts.push('you direct');
    if ((t.players || []).some((p) => p.id === me && p.active !== false)) parts.push('you play');
    return parts.join(', ');
  }

  /** How many of the lobby's rooms are games in progress of each tournament. */
  gamesPlaying() {
    const count = new Map();
    for (const r of this.app.lobby.rooms || []) {
      if (r.tournament === null || r.tournament === undefined || r.status !== 'playing') continue;
      const key = String(r.tournament);
      count.set(key, (count.get(key) || 0) + 1);
    }
    return count;
  }

  update() {
    const book = this.app.tournaments;
    if (book.list === null) {
      this.list.replaceChildren(h('p', { class: 'muted' }, book.listError || (this.app.welcomed ? 'Loading tournaments…' : 'Connecting…')));
      return;
    }
    if (book.list.length === 0) {
      this.list.replaceChildren(h('p', { class: 'muted' }, 'No tournaments yet — start one with “New tournament”.'));
      return;
    }
    // Newest first as the server sends them, the finished ones last.
    const sorted = book.list.slice().sort((a, b) => (a.status === 'finished') - (b.status === 'finished'));
    const shown = sorted.slice(0, LIST_LIMIT);
    const playing = this.gamesPlaying();
    const rows = shown.map((t) => {
      const role = this.roleIn(t.id);
      const players = typeof t.players === 'number' ? t.players : 0;
      const games = playing.get(String(t.id)) || 0;
      return h('li', { class: `room-item ${t.status}`, dataset: { role: 'tournament-row', tournamentId: t.id, status: t.status } },
        h('div', { class: 'room-main' },
          h('strong', {}, t.name),
          h('span', { class: `pill ${t.status}` }, STATUS_WORDS[t.status] || t.status),
          h('div', { class: 'muted small' }, FORMAT_WORDS[t.format] || t.format, ` · ${players} player${players === 1 ? '' : 's'}`,
            role ? ` · ${role}` : ''),
          // Its boards are on its page, each with its Watch button.
          games ? h('div', { class: 'small tournament-games', dataset: { role: 'tournament-playing', playing: games } },
            h('a', { href: tournamentHref(t.id), dataset: { role: 'room-tournament' } },
              `${games} game${games === 1 ? '' : 's'} playing — watch`)) : null),
        h('div', { class: 'room-buttons' },
          h('a', { class: `button ${t.status === 'registering' ? 'primary' : 'secondary'}`, href: tournamentHref(t.id),
            dataset: { action: 'open-tournament', tournament: t.id }, 'aria-label': `${t.status === 'registering' ? 'Open to join' : 'Open'} ${t.name}` },
          t.status === 'registering' ? 'Open to join' : 'Open')));
    });
    const more = sorted.length - shown.length;
    this.list.replaceChildren(h('ul', { class: 'rooms' }, rows),
      more > 0 ? h('p', { class: 'muted small' }, `and ${more} older tournament${more === 1 ? '' : 's'}`) : '');
  }
}
