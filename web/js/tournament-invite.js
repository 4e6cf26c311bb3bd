// A tournament's link opened by someone without a name yet (#/tournament/ID): an invitation to
// it, as a room's link is one (invite.js). The tournament's name, director, format, clock,
// players and what is happening now, a name box with Register while registration is open, and
// Watch, which needs no name: the tournament's page is then drawn from GET /api/tournaments/ID
// (no hello, so no guest is made for a spectator), asked again every few seconds while it runs.
// Giving a name later (the bar above the page) says hello and, while registering, registers.
//
// Hooks: data-role="tournament-invite" (data-state: loading | registering | running | paused |
// finished | missing | error), "tournament-invite-title", "tournament-invite-details",
// "tournament-invite-director", "tournament-invite-status", "tournament-invite-players",
// "tournament-invite-name" (the name box); data-action="invite-register" (Register, while
// registration is open and a place is left), "invite-watch-tournament" (Watch, without a name),
// "invite-lobby" (once the name is given, when there is nothing to register for: to the lobby).
// While watching: data-role="guest-bar" above the tournament page, with
// data-action="guest-name" (back to the invitation's name box).

import { h } from './dom.js';
import { MAX_PLAYER_NAME_BYTES } from './limits.js';
import { feedbackSlot, say } from './feedback.js';
import { RoomInfo } from './room-info.js';
import { tournamentKey } from './tournaments.js';
import { STATUS_WORDS } from './tournament-table.js';
import { TournamentView } from './tournament.js';
import { settingsText, summaryText } from './tournament-words.js';
import { expectArrival } from './arrival.js';

const quoted = (name) => `“${name}”`;

/** Registers in tournament `id` as soon as the server has welcomed this tab (after its hello). */
function registerWhenWelcomed(app, id) {
  const go = () => {
    if (!app.welcomed) return;
    app.removeEventListener('change', go);
    app.tournamentAct(id, 'join_tournament');
  };
  app.addEventListener('change', go);
  go();
}

export class TournamentInviteView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.key = tournamentKey(id);
    this.watching = false; // the tournament's page, drawn from HTTP, instead of the invitation
    this.info = new RoomInfo(id, () => this.onSnapshot(), 'api/tournaments/');
    this.slot = feedbackSlot();
    this.input = h('input', { id: 'tournament-invite-name', type: 'text', dataset: { role: 'tournament-invite-name' },
      autocomplete: 'nickname', maxlength: MAX_PLAYER_NAME_BYTES, placeholder: 'e.g. Bo', value: app.me.name || '' });
    this.heading = h('h2', { id: 'tournament-invite-title', dataset: { role: 'tournament-invite-title' } });
    this.details = h('p', { class: 'invite-rules', dataset: { role: 'tournament-invite-details' } });
    this.director = h('p', { dataset: { role: 'tournament-invite-director' } });
    this.status = h('p', { dataset: { role: 'tournament-invite-status' } });
    this.players = h('p', { class: 'muted', dataset: { role: 'tournament-invite-players' } });
    this.register = h('button', { type: 'submit', class: 'primary', dataset: { action: 'invite-register' } }, 'Register');
    this.watch = h('button', { type: 'button', class: 'secondary', dataset: { action: 'invite-watch-tournament' },
      onclick: () => this.startWatching() }, 'Watch without a name');
    this.nameRow = h('div', { class: 'row' }, this.input, this.register);
    this.nameLabel = h('label', { for: 'tournament-invite-name' }, 'Your name, to play in it');
    this.form = h('form', { class: 'invite-form', onsubmit: (e) => { e.preventDefault(); this.registerNow(); } },
      this.nameLabel, this.nameRow, this.slot);
    this.card = h('section', { class: 'card door invite', dataset: { role: 'tournament-invite', state: 'loading' },
      'aria-labelledby': 'tournament-invite-title' },
    this.heading, this.details, this.director, this.status, this.players, this.form,
    h('div', { class: 'actions' }, this.watch),
    h('p', { class: 'muted small' }, 'Quarto: two players, sixteen pieces; you choose the piece your opponent must place. ',
      h('a', { href: '#/rules' }, 'How to play')));
    this.page = h('div'); // the tournament's page while watching
    this.bar = h('p', { class: 'card guest-bar', dataset: { role: 'guest-bar' } },
      'You are watching without a name. ',
      h('button', { type: 'button', class: 'link', dataset: { action: 'guest-name' }, onclick: () => this.stopWatching() },
        'Give a name to take part'));
    this.root = h('div', { class: 'tournament-invite' });
  }

  title() {
    const t = this.info.room;
    return t ? `${t.name} — Quarto` : 'A tournament — Quarto';
  }

  mount(container) {
    container.replaceChildren(this.root);
    this.info.start();
    this.draw();
    this.input.focus();
  }

  unmount() {
    this.info.stop();
    if (this.inner) this.inner.unmount();
  }

  tick() {
    if (this.inner) this.inner.tick();
  }

  /** A refused name: said under the box. */
  feedback(text, kind, where) {
    if (!where || where.form !== 'name' || this.watching) return false;
    say(this.slot, text, kind);
    return true;
  }

  onSnapshot() {
    // The page drawn from it while watching is the tournament view's own, fed like the socket's.
    if (this.info.state === 'ready' && this.app.tournaments.accept(this.info.room)) this.app.changed();
    this.draw();
  }

  startWatching() {
    this.watching = true;
    this.draw();
    if (this.inner) this.inner.focusFirst();
  }

  stopWatching() {
    this.watching = false;
    this.draw();
    this.input.focus();
  }

  registerNow() {
    const open = this.register.dataset.action === 'invite-register';
    this.app.setName(this.input.value);
    if (this.app.needsName) return; // refused in place: empty or too long
    expectArrival();
    // The route follows the name: the tournament's own page once the server has welcomed us,
    // registered there; or the lobby.
    if (open) registerWhenWelcomed(this.app, this.app.tournaments.idTypes.get(this.key) ?? this.id);
    else window.location.hash = '#/';
  }

  update() {
    this.draw();
  }

  draw() {
    const t = this.info.state === 'ready' ? this.info.room : null;
    if (this.watching && t) {
      if (!this.inner) {
        this.inner = new TournamentView(this.app, this.id);
        this.inner.mount(this.page);
      } else {
        this.inner.update();
      }
      if (this.root.firstChild !== this.bar) this.root.replaceChildren(this.bar, this.page);
      return;
    }
    if (this.inner) {
      this.inner.unmount();
      this.inner = null;
    }
    if (this.root.firstChild !== this.card) this.root.replaceChildren(this.card);
    document.title = this.title();
    const state = t ? t.status : this.info.state === 'missing' ? 'missing' : this.info.state;
    this.card.dataset.state = state;
    const players = t ? (t.players || []).filter((p) => p.active !== false) : [];
    const max = t && t.settings ? t.settings.max_players : null;
    const full = typeof max === 'number' && players.length >= max;
    if (t) {
      const name = quoted(t.name);
      const who = t.director_name || 'The director';
      this.heading.textContent = t.status === 'registering' ? `${who} invites you to the tournament ${name}`
        : t.status === 'finished' ? `The tournament ${name} is over` : `The tournament ${name} is under way`;
      this.details.textContent = settingsText(t);
      this.director.replaceChildren('Director: ', h('strong', {}, who), ' · ',
        h('span', { class: `pill ${t.status}` }, STATUS_WORDS[t.status] || t.status));
      this.status.textContent = summaryText(t);
      this.players.textContent = players.length
        ? `Players (${players.length}${max ? ` of at most ${max}` : ''}): ${players.map((p) => p.name).join(', ')}`
        : 'Nobody has registered yet.';
    } else {
      this.heading.textContent = state === 'missing' ? 'This tournament does not exist (any more)' : 'You are invited to a Quarto tournament';
      this.details.textContent = '';
      this.director.replaceChildren();
      this.status.textContent = state === 'missing' ? 'Its link may be mistyped, or the tournament was removed.'
        : state === 'error' ? 'The server cannot be reached right now; trying again…' : 'Looking up the tournament…';
      this.players.textContent = '';
    }
    for (const e of [this.details, this.director, this.players]) e.hidden = !e.textContent;
    // Registration open and a place left: the name registers. Otherwise the name is for the lobby.
    const canRegister = !!t && t.status === 'registering' && !full;
    this.nameLabel.textContent = canRegister ? 'Your name, to play in it' : 'Your name, to play Quarto here';
    this.register.textContent = canRegister ? 'Register' : 'Go to the lobby';
    this.register.dataset.action = canRegister ? 'invite-register' : 'invite-lobby';
    this.watch.hidden = !t;
  }
}
