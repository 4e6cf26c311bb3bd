// Name entry, the lobby (room list, tournaments, recent games by player, create-room and
// create-tournament forms), and the door of a room not yet entered.
//
// Recent games hooks: [data-role="recent-games"] the section (data-state: idle | loading |
// ready | error), [data-role="recent-player"] the name box, [data-action="recent-search"] its
// button, [data-game-id="ID"] one game, whose [data-action="replay"] link opens #/game/ID.
// "Play the computer": [data-role="bot-level"] the level (a select, 1 to 5), and
// [data-action="play-computer"] its button, which creates the room and enters it.
// New room's Rated: [data-role="rated"] (disabled when the room cannot be rated), [data-role="rated-why"].
// The tournament hooks are listed at the top of tournament.js.

import { MAX_PLAYER_NAME_BYTES, MAX_ROOM_NAME_BYTES, tooLong } from './limits.js';
import { h, focusKey, restoreFocus } from './dom.js';
import { gameFields, ratedOption } from './form-fields.js';
import { feedbackSlot, say } from './feedback.js';
import { TournamentList } from './tournament-list.js';
import { BOT_LEVELS, DEFAULT_BOT_LEVEL, rulesSummary, playerLabel } from './words.js';
import { roomKey } from './room-store.js';
import { tournamentHref } from './tournaments.js';
import { RoomInfo } from './room-info.js';
import { invitation, rulesWords } from './invite.js';
import { RoomList, logInToPlay } from './room-list.js';
import { gamesOnBanner, followedList } from './my-games.js';
import { expectArrival } from './arrival.js';

const RECENT_LIMIT = 20;

// The create form's presets: they set the fields below them, which stay editable.
const ALL_TRAITS = ['color', 'height', 'shape', 'fill'];
export const BEGINNER_TRAITS = ['color', 'height'];
const RULE_PRESETS = [
  { action: 'preset-standard', label: 'Standard', help: 'all four traits count',
    traits: ALL_TRAITS, squares: false },
  { action: 'preset-advanced', label: 'Advanced', help: '2×2 squares count too', traits: ALL_TRAITS, squares: true },
  { action: 'preset-beginner', label: 'Beginner', help: 'only colour and height count', traits: BEGINNER_TRAITS, squares: false },
];
const CLOCK_PRESETS = [
  { action: 'clock-30', label: '30 s', seconds: '30' },
  { action: 'clock-60', label: '60 s', seconds: '60' },
  { action: 'clock-120', label: '2 min', seconds: '120' },
  { action: 'clock-untimed', label: 'Untimed', seconds: '' },
];

/** "Ann beat Bo (Quarto)" / "Draw: Ann and Bo (board full)" for a game summary. */
function recentGameText(g) {
  const name = (seat) => (g.players && g.players[seat] ? g.players[seat].name : `Seat ${seat + 1}`);
  const reasons = { quarto: 'Quarto', missed_quarto: 'a missed Quarto claimed', timeout: 'on time', resign: 'by resignation',
    false_claim: 'a wrong call', board_full: 'board full' };
  const why = reasons[g.result && g.result.reason] || (g.result && g.result.reason) || '';
  const w = g.result ? g.result.winner : null;
  if (w === 0 || w === 1) return `${name(w)} beat ${name(1 - w)} (${why})`;
  return `Draw: ${name(0)} and ${name(1)} (${why})`;
}


const STATUS_WORDS = { waiting: 'waiting for a player', playing: 'playing', finished: 'finished' };

export class NameView {
  constructor(app) {
    this.app = app;
  }

  mount(container) {
    const input = h('input', {
      id: 'name-input', type: 'text', dataset: { role: 'name' }, autocomplete: 'nickname', maxlength: MAX_PLAYER_NAME_BYTES,
      required: true, placeholder: 'e.g. Ann', value: this.app.me.name || '',
    });
    this.slot = feedbackSlot();
    const form = h('form', { class: 'card name-card', onsubmit: (e) => {
      e.preventDefault();
      this.app.setName(input.value);
      if (!this.app.needsName) expectArrival();
    } },
      h('h2', {}, 'Welcome to Quarto'),
      h('p', {}, 'Two players, sixteen pieces. You choose the piece your opponent must place — whoever completes a line of four pieces sharing a trait and calls “Quarto!” wins. ',
        h('a', { href: '#/rules' }, 'How to play')),
      h('label', { for: 'name-input' }, 'Your name'),
      h('div', { class: 'row' }, input, h('button', { type: 'submit', class: 'primary', dataset: { action: 'enter' } }, 'Play')),
      this.slot);
    container.replaceChildren(form);
    input.focus();
  }

  /** Problems with the name, under the name. */
  feedback(text, kind, where) {
    if (!where || where.form !== 'name') return false;
    say(this.slot, text, kind);
    return true;
  }

  update() {}
}

/** Shown from the name entry until the server has greeted us the first time. */
export class ConnectingView {
  constructor(app) {
    this.app = app;
    this.root = h('section', { class: 'card door', 'aria-busy': 'true' });
  }

  mount(container) {
    container.replaceChildren(this.root);
    this.update();
  }

  update() {
    const c = this.app.conn.state;
    const text = c === 'waiting' ? 'The server cannot be reached right now; retrying…' : 'Connecting to the server…';
    this.root.replaceChildren(h('h2', {}, 'Quarto'), h('p', { class: 'muted' }, text));
  }
}

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.roomList = new RoomList(app, (id, as) => this.enter(id, as));
    this.mine = h('div', { class: 'my-rooms' });
    this.gamesOn = h('div', { class: 'games-on-slot' }); // a returning player's games in progress, first
    this.tournamentList = new TournamentList(app);
    this.tournamentForm = null; // once "New tournament" has been opened
    this.recent = h('div', { class: 'recent-list', 'aria-live': 'polite' });
  }

  mount(container) {
    const form = this.buildForm();
    const join = this.buildJoinById();
    container.replaceChildren(this.gamesOn, h('div', { class: 'lobby' },
      h('div', { class: 'lobby-main' },
        h('section', { class: 'card lobby-rooms', 'aria-labelledby': 'rooms-title' },
          this.mine,
          h('h2', { id: 'rooms-title' }, 'Rooms'),
          this.roomList.node,
          join),
        this.tournamentList.node,
        this.buildRecent()),
      h('div', { class: 'lobby-main' }, form, this.buildComputer(), this.buildTournament())));
    this.update();
    this.app.listRooms();
    this.app.listTournaments();
    if (this.app.me.name) this.searchRecent(this.app.me.name);
  }

  unmount() {
    this.gone = true;
  }

  /** The keyboard's place when the player arrives (after giving a name): the lobby's first
   *  action, a game to go back to, else a room to join, else a new room. */
  focusFirst() {
    const first = this.gamesOn.querySelector('[data-action="back-to-game"]')
      ?? this.roomList.node.querySelector('[data-action="lobby-join"]')
      ?? this.createButton;
    if (first) first.focus({ preventScroll: true });
  }

  /** The server's refusals of the forms, said in the form. */
  feedback(text, kind, where) {
    if (!where) return false;
    if (where.form === 'create-room') { say(this.createSlot, text, kind); return true; }
    if (where.form === 'create-tournament') return !!this.tournamentForm && this.tournamentForm.feedback(text, kind);
    return false;
  }

  // ---- recent games (the archive, GET /api/games?player=NAME) ----

  buildRecent() {
    const input = h('input', { id: 'recent-player', type: 'text', dataset: { role: 'recent-player' }, maxlength: MAX_PLAYER_NAME_BYTES,
      placeholder: 'A player name', autocomplete: 'off', value: this.app.me.name || '' });
    this.recentSection = h('section', { class: 'card recent-games', 'aria-labelledby': 'recent-title', dataset: { role: 'recent-games', state: 'idle' } },
      h('div', { class: 'card-title-row' }, h('h2', { id: 'recent-title' }, 'Recent games'),
        h('a', { href: '#/leaderboard', class: 'small', dataset: { action: 'leaderboard' } }, 'Leaderboard')),
      h('form', { class: 'recent-search', onsubmit: (e) => { e.preventDefault(); this.searchRecent(input.value); } },
        h('label', { for: 'recent-player' }, 'Games played by'),
        h('div', { class: 'row' }, input, h('button', { type: 'submit', class: 'secondary', dataset: { action: 'recent-search' } }, 'Search')),
        this.recentSlot = feedbackSlot()),
      this.recent);
    return this.recentSection;
  }

  async searchRecent(name) {
    const player = String(name).trim();
    if (!player) {
      say(this.recentSlot, 'Type a player name to see their games.');
      return;
    }
    const asked = (this.recentAsked = (this.recentAsked || 0) + 1);
    this.recentSection.dataset.state = 'loading';
    this.recent.replaceChildren(h('p', { class: 'muted' }, 'Looking…'));
    let body = null;
    let ok = false;
    try {
      const res = await fetch(`api/games?player=${encodeURIComponent(player)}&limit=${RECENT_LIMIT}`, { cache: 'no-store' });
      body = await res.json().catch(() => null);
      ok = res.ok && body && Array.isArray(body.games);
    } catch {
      ok = false;
    }
    if (this.gone || asked !== this.recentAsked) return; // a newer search, or the lobby has gone
    if (!ok) {
      this.recentSection.dataset.state = 'error';
      this.recent.replaceChildren(h('p', { class: 'muted', role: 'alert' },
        (body && body.message) || 'The recent games could not be loaded; please try again.'));
      return;
    }
    this.recentSection.dataset.state = 'ready';
    if (body.games.length === 0) {
      this.recent.replaceChildren(h('p', { class: 'muted' }, `No finished games by “${player}” yet.`));
      return;
    }
    this.recent.replaceChildren(h('ul', { class: 'rooms recent' }, body.games.map((g) => {
      const when = typeof g.ended_ms === 'number' ? new Date(g.ended_ms).toLocaleString() : '';
      return h('li', { class: 'room-item', dataset: { gameId: g.id } },
        h('div', { class: 'room-main' },
          h('strong', {}, recentGameText(g)),
          h('div', { class: 'muted small' }, [when, `${g.move_count} ${g.move_count === 1 ? 'move' : 'moves'}`, g.room_name ? `in “${g.room_name}”` : null].filter(Boolean).join(' · '))),
        h('div', { class: 'room-buttons' },
          h('a', { class: 'button secondary', href: `#/game/${encodeURIComponent(g.id)}`, dataset: { action: 'replay', game: g.id } }, 'Replay')));
    })));
  }

  buildForm() {
    const roomName = h('input', { id: 'room-name', type: 'text', dataset: { role: 'room-name' }, maxlength: MAX_ROOM_NAME_BYTES, placeholder: `${this.app.me.name || 'My'}'s room` });
    const fields = gameFields({ untimed: 'no clock' });
    const { traits, squares, falseClaim, move, claim } = fields;
    const priv = h('input', { id: 'opt-private', type: 'checkbox', dataset: { role: 'private' } });
    const rated = ratedOption(fields, { label: ' Rated game', login: ' to play rated games.' });
    this.showRated = () => rated.show(this.app.me.account);

    // Presets: buttons that fill in the fields; each shows as pressed while the fields match it.
    const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
    const rulePresets = RULE_PRESETS.map((p) => ({ p, button: h('button', {
      type: 'button', class: 'preset', dataset: { action: p.action }, 'aria-pressed': 'false',
      onclick: () => { traits.set(p.traits); squares.checked = p.squares; falseClaim.checked = false; showPresets(); },
    }, h('strong', {}, p.label), h('span', { class: 'preset-help' }, p.help)) }));
    const clockPresets = CLOCK_PRESETS.map((p) => ({ p, button: h('button', {
      type: 'button', class: 'preset clock-preset', dataset: { action: p.action }, 'aria-pressed': 'false',
      onclick: () => { move.value = p.seconds; showPresets(); },
    }, p.label) }));
    // The fields behind the presets, folded: the summary says what they are now.
    const moreSummary = h('span', { class: 'more-summary muted' });
    const more = h('details', { class: 'more-options', dataset: { role: 'more-options' } },
      h('summary', { dataset: { action: 'more-options' } }, h('span', { class: 'more-title' }, 'More options'), moreSummary));
    const showPresets = () => {
      this.showRated();
      moreSummary.textContent = rulesSummary(fields.rules(), fields.typedClock());
      for (const { p, button } of rulePresets) {
        const on = sameSet(traits.chosen(), p.traits) && squares.checked === p.squares && !falseClaim.checked;
        button.setAttribute('aria-pressed', String(on));
      }
      const seconds = move.value.trim();
      for (const { p, button } of clockPresets) {
        const on = p.seconds === '' ? seconds === '' : Number(seconds) === Number(p.seconds) && seconds !== '';
        button.setAttribute('aria-pressed', String(on));
      }
    };

    this.createSlot = feedbackSlot();
    // Every complaint is about a field under More options: open it, so the field can take the focus.
    const complain = (text) => { more.open = true; say(this.createSlot, text); };
    const submit = (e) => {
      e.preventDefault();
      const options = {};
      const name = roomName.value.trim();
      const problem = tooLong("The room's name", name, MAX_ROOM_NAME_BYTES);
      if (problem) {
        complain(problem);
        roomName.focus();
        return;
      }
      if (name) options.name = name;
      const game = fields.read(complain);
      if (game === undefined) return;
      options.rules = game.rules;
      options.clock = game.clock;
      if (priv.checked) options.private = true;
      if (rated.chosen()) options.rated = true;
      if (this.app.createRoom(options) !== null) expectArrival();
    };

    const form = h('form', { class: 'card create-room', onsubmit: submit, 'aria-labelledby': 'create-title',
      oninput: () => showPresets(), onchange: () => showPresets() },
      h('div', { class: 'card-title-row' }, h('h2', { id: 'create-title' }, 'New room'),
        h('a', { href: '#/rules', class: 'small' }, 'How to play and the variants')),
      h('div', { class: 'presets', role: 'group', 'aria-labelledby': 'rules-presets-title' },
        h('span', { class: 'presets-title', id: 'rules-presets-title' }, 'Rules'),
        h('div', { class: 'preset-row rule-presets' }, rulePresets.map((x) => x.button))),
      h('div', { class: 'presets', role: 'group', 'aria-labelledby': 'clock-presets-title' },
        h('span', { class: 'presets-title', id: 'clock-presets-title' }, 'Time per move'),
        h('div', { class: 'preset-row' }, clockPresets.map((x) => x.button))),
      more,
      h('label', { class: 'check private-check' }, priv, ' Private room (not listed; join by link)'),
      rated.node,
      this.createSlot,
      this.createButton = h('button', { type: 'submit', class: 'primary', dataset: { action: 'create-room' }, disabled: !this.app.welcomed }, 'Create room'));
    more.append(
      h('label', { for: 'room-name' }, 'Room name (optional)'), roomName,
      h('div', { class: 'grid2' },
        h('div', {}, h('label', { for: 'move-seconds' }, 'Seconds per move'), move, h('small', { class: 'muted' }, 'Empty = no clock')),
        h('div', {}, h('label', { for: 'claim-seconds' }, 'Seconds to claim a missed Quarto'), claim)),
      traits.node,
      fields.variants);
    showPresets();
    return form;
  }

  /** "New tournament", folded: its form's module loads when it is first opened, as the views do. */
  buildTournament() {
    const wait = h('p', { class: 'muted' }, 'Loading…');
    let loading = false;
    const card = h('details', { class: 'card create-tournament', ontoggle: () => {
      if (!card.open || this.tournamentForm || loading) return;
      loading = true;
      import('./tournament-form.js').then(({ TournamentForm }) => {
        this.tournamentForm = new TournamentForm(this.app);
        wait.replaceWith(this.tournamentForm.node);
        this.tournamentForm.update();
      }, () => {
        loading = false;
        this.app.notify('Part of the page could not be loaded; check the connection and reload.');
      });
    } }, h('summary', { dataset: { action: 'show-tournament-form' } }, h('h2', { id: 'create-tournament-title' }, 'New tournament')), wait);
    return card;
  }

  /** "Play the computer": a level and one button; the room starts the game at once. */
  buildComputer() {
    const level = h('select', { id: 'bot-level', dataset: { role: 'bot-level' } },
      BOT_LEVELS.map((l) => h('option', { value: String(l.level), selected: l.level === DEFAULT_BOT_LEVEL }, `${l.level} — ${l.words}`)));
    return h('form', { class: 'card play-computer', 'aria-labelledby': 'computer-title', onsubmit: (e) => {
      e.preventDefault();
      // Standard rules and a minute a move: a practice game, nothing to set up.
      if (this.app.createRoom({ opponent: { bot: Number(level.value) } }) !== null) expectArrival();
    } },
    h('h2', { id: 'computer-title' }, 'Play the computer'),
    h('label', { for: 'bot-level' }, 'Level'),
    h('div', { class: 'row' }, level,
      this.computerButton = h('button', { type: 'submit', class: 'secondary', dataset: { action: 'play-computer' }, disabled: !this.app.welcomed }, 'Play')));
  }

  buildJoinById() {
    const input = h('input', { id: 'join-id', type: 'text', dataset: { role: 'room-id' }, placeholder: 'Room id or link', autocomplete: 'off' });
    return h('form', { class: 'join-by-id', onsubmit: (e) => {
      e.preventDefault();
      const v = input.value.trim();
      const m = v.match(/#\/room\/([^/?#]+)/);
      const id = m ? m[1] : v;
      if (id) window.location.hash = `#/room/${encodeURIComponent(decodeURIComponent(id))}`;
    } },
    h('label', { for: 'join-id' }, 'Open a room by id or link'),
    h('div', { class: 'row' }, input, h('button', { type: 'submit', class: 'secondary', dataset: { action: 'open-by-id' } }, 'Open')));
  }

  enter(id, as) {
    this.app.join(id, as);
    window.location.hash = `#/room/${encodeURIComponent(String(id))}`;
  }

  update() {
    if (this.createButton) this.createButton.disabled = !this.app.welcomed;
    if (this.showRated) this.showRated(); // logged in or out
    if (this.computerButton) this.computerButton.disabled = !this.app.welcomed;
    this.tournamentList.update();
    if (this.tournamentForm) this.tournamentForm.update();
    // The games this tab follows; those it plays that are on are offered first, above the lobby.
    const fk = focusKey(this.gamesOn);
    this.gamesOn.replaceChildren(gamesOnBanner(this.app) ?? '');
    restoreFocus(this.gamesOn, fk);
    this.mine.replaceChildren(...followedList(this.app));

    this.roomList.update();
  }
}

/** #/room/ID for a room this tab is not in yet: offers to sit down or to watch. */
export class DoorView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.key = roomKey(id);
    this.root = h('section', { class: 'card door' });
    this.slot = feedbackSlot(); // why a join was refused, under the buttons
    // The room itself, asked by id: the lobby lists neither private rooms nor every public one.
    this.info = new RoomInfo(id, () => this.update());
  }

  unmount() {
    this.info.stop();
  }

  /** Why a join was refused. (Other news of the room waits for its game view.) */
  feedback(text, kind, where) {
    if (!where || where.room !== this.key || kind !== 'error') return false;
    say(this.slot, text, kind);
    return true;
  }

  mount(container) {
    container.replaceChildren(this.root);
    this.info.start();
    this.update();
    this.app.listRooms();
  }

  update() {
    const app = this.app;
    const listed = app.lobby.rooms ? app.lobby.rooms.find((r) => roomKey(r.id) === this.key) : null;
    const info = this.info.state === 'ready' ? this.info.room : listed;
    const missing = !info && this.info.state === 'missing';
    // A free seat reads as the invitation it is: "Ann invites you to “Friday” (60 s per move)".
    const invite = info ? invitation(info) : null;
    const title = invite && invite.state === 'open' ? invite.title : info && info.name ? info.name : `Room ${this.id}`;
    const parts = [h('h2', {}, title)];
    const link = app.tournaments.roomLink(this.key);
    if (app.expectRoom === this.key) {
      // A tournament pairing: the server has seated us; the room's snapshot is on its way.
      parts.push(h('p', { class: 'muted', role: 'status' }, 'Your tournament game is starting…'));
      this.drawn = null;
      this.root.replaceChildren(...parts);
      return;
    }
    if (!app.welcomed || app.resuming) {
      parts.push(h('p', { class: 'muted' }, 'Connecting…'));
      this.drawn = null;
      this.root.replaceChildren(...parts);
      return;
    }
    const id = app.idTypes.get(this.key) ?? this.id;
    const joining = app.joining.has(this.key);
    const players = info && Array.isArray(info.players) ? info.players.filter(Boolean) : null;
    if (info) {
      const ratings = Array.isArray(info.player_ratings) ? info.player_ratings : [];
      parts.push(h('p', {}, players.length ? ['Players: ', players.map((n, i) => [i ? ' vs ' : '', playerLabel(n, ratings[i])])] : 'Nobody has sat down yet.',
        ` · ${STATUS_WORDS[info.status] || info.status}`));
      if (invite && invite.state === 'away') parts.push(h('p', { dataset: { role: 'host-away' } }, invite.text));
      parts.push(h('p', { class: 'muted' }, rulesWords(info.rules, info.clock), info.rated ? ' · Rated' : ''));
    } else if (missing) {
      parts.push(h('p', { class: 'muted' }, 'This room does not exist (any more): a room closes a while after its game, or once everybody has left it.'));
    } else {
      parts.push(h('p', { class: 'muted' }, 'Looking up the room…'));
    }
    // No seat to take or audience to join until the room is known: the lines above the buttons
    // change when it is, and a button that moves as it is clicked makes the click miss. (Without an
    // answer over HTTP the buttons show anyway: the join goes over the socket.)
    const known = Boolean(info) || this.info.state === 'error';
    const seatFree = info ? info.status === 'waiting' && players.length < 2 && !info.tournament : known;
    const buttons = h('div', { class: 'actions' });
    if (!known) {
      // Nothing to sit down at or to watch (yet).
    } else if (seatFree && info && info.rated && !app.me.account) {
      buttons.appendChild(logInToPlay());
    } else if (seatFree) {
      buttons.appendChild(h('button', { type: 'button', class: 'primary', dataset: { action: 'join-player' }, disabled: joining,
        onclick: () => app.join(id, 'player') }, 'Play in this room'));
    }
    if (known) {
      buttons.appendChild(h('button', { type: 'button', class: seatFree ? 'secondary' : 'primary', dataset: { action: 'watch' }, disabled: joining,
        onclick: () => app.join(id, 'spectator') }, 'Watch'));
    }
    if (link) {
      buttons.appendChild(h('a', { class: 'button secondary', href: tournamentHref(link.tournament),
        dataset: { action: 'tournament-link' } }, 'Back to the tournament'));
    }
    buttons.appendChild(h('a', { class: 'button secondary', href: '#/', dataset: { action: 'lobby' } }, 'Back to the lobby'));
    parts.push(buttons);
    // The room is asked again every few seconds: drawn again only when something shown changed,
    // so that the button under a pointer or with the keyboard's focus stays the same element.
    const drawn = `${typeof id}:${id}\n${parts.map((e) => e.outerHTML).join('')}`;
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    this.root.replaceChildren(...parts, this.slot);
  }
}
