// The invitation: #/room/ID opened by someone who has no name yet. One page says who invites
// them, to which room, with which rules and clock, and takes their name; its one button says
// hello with that name and sits them down (App.acceptInvite), instead of a welcome page and
// then the room's door. When the seats are taken, the game is over or the room is gone, it
// says so, and offers to watch a game in progress.
//
// Hooks: data-role="invite" (data-state: loading | open | away (its player has gone for now) |
// playing | finished | missing | error), data-role="invite-title", data-role="invite-rules", data-role="invite-name" (the name
// box), data-action="invite-join" (Join), data-action="invite-watch" (Watch, when the seats are
// taken), data-action="invite-lobby" (to the lobby, when there is nothing to join).

import { h } from './dom.js';
import { MAX_PLAYER_NAME_BYTES } from './limits.js';
import { feedbackSlot, say } from './feedback.js';
import { formatSeconds } from './words.js';
import { roomKey } from './room-store.js';
import { RoomInfo } from './room-info.js';
import { expectArrival } from './arrival.js';

const ALL_TRAITS = ['color', 'height', 'shape', 'fill'];
const TRAIT_WORDS = { color: 'colour', height: 'height', shape: 'shape', fill: 'top' };

/** "60 s per move", "2 min per move", "untimed". */
export function clockWords(clock) {
  if (!clock || clock.move_ms === null) return 'untimed';
  return typeof clock.move_ms === 'number' ? `${formatSeconds(clock.move_ms)} per move` : '';
}

/** The rules in a sentence: "Standard rules · 60 s per move · 10 s to claim a missed Quarto"
 *  (without the time per move when `withMoveClock` is false: a heading says it already). */
export function rulesWords(rules = {}, clock = {}, withMoveClock = true) {
  const traits = Array.isArray(rules.attributes) ? ALL_TRAITS.filter((t) => rules.attributes.includes(t)) : ALL_TRAITS;
  const parts = [];
  if (traits.length === 4) parts.push(rules.squares ? 'Advanced rules: 2×2 squares count too' : 'Standard rules');
  else {
    const names = traits.map((t) => TRAIT_WORDS[t]);
    const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
    const beginner = traits.length === 2 && traits[0] === 'color' && traits[1] === 'height';
    parts.push(`${beginner ? 'Beginner rules: only' : 'Only'} ${list} count${rules.squares ? ', 2×2 squares too' : ''}`);
  }
  if (rules.false_claim === 'lose') parts.push('a wrong Quarto call loses');
  if (withMoveClock) parts.push(clockWords(clock));
  if (clock && typeof clock.claim_ms === 'number') parts.push(`${formatSeconds(clock.claim_ms)} to claim a missed Quarto`);
  return parts.filter(Boolean).join(' · ');
}

const quoted = (name) => `“${name}”`;

/**
 * What an invitation to the room `info` (a room summary) comes to: {state, title, text},
 * state being open (a seat is free), away (a seat is free but the player waiting has gone for
 * now), playing (seats taken, a game to watch), finished, or missing (null info: no such room).
 */
export function invitation(info) {
  if (!info) {
    return { state: 'missing', title: 'This invitation has expired',
      text: 'The room it invites you to does not exist any more: a room closes a while after its game, or once everybody has left it.' };
  }
  const players = Array.isArray(info.players) ? info.players.filter(Boolean) : [];
  const room = quoted(info.name || `Room ${info.id}`);
  const clock = clockWords(info.clock);
  if (info.status === 'waiting' && players.length < 2 && !info.tournament && info.host_away === true) {
    return { state: 'away', title: `${players[0]} has stepped away from ${room}`,
      text: `${players[0]}'s page is closed for now. This page shows it as soon as they are back; the room closes if they do not come back soon. If you join anyway and they are still away, you may claim the win at once.` };
  }
  if (info.status === 'waiting' && players.length < 2 && !info.tournament) {
    const title = players.length ? `${players[0]} invites you to ${room}` : `You are invited to ${room}`;
    return { state: 'open', title: clock ? `${title} (${clock})` : title,
      text: players.length ? `${players[0]} is waiting for an opponent: the game starts as soon as you sit down.`
        : 'Nobody has sat down yet: you will wait there for an opponent.' };
  }
  const who = players.length === 2 ? `${players[0]} and ${players[1]}` : players[0] || 'Two players';
  if (info.status === 'finished') {
    return { state: 'finished', title: `The game in ${room} is over`,
      text: `${who} have finished their game, so there is no seat to take any more.` };
  }
  return { state: 'playing', title: `${who} are already playing in ${room}`,
    text: info.tournament ? 'It is a tournament game: its players were seated by the tournament. You can watch it.'
      : 'Both seats are taken, so you cannot join, but you can watch the game.' };
}

export class InviteView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.key = roomKey(id);
    this.info = new RoomInfo(id, () => this.update());
    this.slot = feedbackSlot();
    this.input = h('input', { id: 'invite-name', type: 'text', dataset: { role: 'invite-name' }, autocomplete: 'nickname',
      maxlength: MAX_PLAYER_NAME_BYTES, required: true, placeholder: 'e.g. Bo', value: app.me.name || '' });
    this.heading = h('h2', { id: 'invite-title', dataset: { role: 'invite-title' } });
    this.rules = h('p', { class: 'invite-rules', dataset: { role: 'invite-rules' } });
    this.text = h('p', { class: 'muted' });
    this.button = h('button', { type: 'submit', class: 'primary' });
    this.label = h('label', { for: 'invite-name' }, 'Your name');
    this.asWho = h('p', { class: 'as-who' });
    this.form = h('form', { class: 'invite-form', onsubmit: (e) => { e.preventDefault(); this.go(); } },
      this.label, this.asWho, h('div', { class: 'row' }, this.input, this.button), this.slot);
    this.root = h('section', { class: 'card door invite', dataset: { role: 'invite', state: 'loading' }, 'aria-labelledby': 'invite-title' },
      this.heading, this.rules, this.text, this.form,
      h('p', { class: 'muted small' }, 'Quarto: two players, sixteen pieces; you choose the piece your opponent must place. ',
        h('a', { href: '#/rules' }, 'How to play')));
  }

  title() {
    return 'An invitation — Quarto';
  }

  mount(container) {
    container.replaceChildren(this.root);
    this.info.start();
    this.update();
    this.input.focus();
  }

  unmount() {
    this.info.stop();
    this.app.dropInvite(this.key);
  }

  /** A refused name, or a refused join: said under the button. A join refused because the room
   *  changed meanwhile (a seat just taken) also asks the room again, to offer what is left. */
  feedback(text, kind, where) {
    if (!where || !(where.form === 'name' || (where.room === this.key && kind === 'error'))) return false;
    say(this.slot, text, kind);
    if (where.room === this.key) this.info.refresh();
    this.update();
    return true;
  }

  /** What the button does in the present state. */
  action(state) {
    if (this.guestOfRated && (state === 'open' || state === 'away')) return { action: 'invite-watch', label: 'Watch', as: 'spectator' };
    if (state === 'open' || state === 'loading' || state === 'error') return { action: 'invite-join', label: 'Join', as: 'player' };
    if (state === 'away') return { action: 'invite-join', label: 'Join anyway', as: 'player' };
    if (state === 'playing') return { action: 'invite-watch', label: 'Watch', as: 'spectator' };
    return { action: 'invite-lobby', label: 'Go to the lobby', as: null };
  }

  go() {
    const { as } = this.action(this.state);
    expectArrival();
    if (as) this.app.acceptInvite(this.app.idTypes.get(this.key) ?? this.id, as, this.input.value);
    else {
      // Nothing to join: the name is all the lobby needs.
      if (this.app.needsName) this.app.setName(this.input.value);
      if (!this.app.needsName) window.location.hash = '#/';
    }
  }

  update() {
    const known = this.info.state === 'ready' || this.info.state === 'missing';
    const inv = known ? invitation(this.info.room) : null;
    this.state = inv ? inv.state : this.info.state;
    this.root.dataset.state = this.state;
    // A rated game's seats are for accounts: a guest may log in first, or watch.
    this.guestOfRated = !!(this.info.room && this.info.room.rated && !this.app.me.account);
    if (inv) {
      this.heading.textContent = inv.title;
      this.text.textContent = inv.text;
      if (this.guestOfRated && (inv.state === 'open' || inv.state === 'away')) {
        this.text.replaceChildren('A rated game: its players need an account. ', h('a', { href: '#/account', dataset: { action: 'log-in-to-play' } }, 'Log in'),
          ' to play, or watch it.');
      }
      this.rules.textContent = this.info.room ? rulesWords(this.info.room.rules, this.info.room.clock, inv.state !== 'open') : '';
    } else {
      this.heading.textContent = 'You are invited to a game of Quarto';
      this.rules.textContent = '';
      this.text.textContent = this.info.state === 'error' ? 'The server cannot be reached right now; trying again…' : 'Looking up the room…';
    }
    this.rules.hidden = !this.rules.textContent;
    const { action, label } = this.action(this.state);
    // Once the name is given, the box goes: the page says whose it is instead.
    const named = !this.app.needsName;
    this.label.hidden = named;
    this.input.hidden = named;
    this.input.required = !named;
    this.asWho.hidden = !named;
    this.asWho.textContent = named ? `You are ${this.app.me.name}.` : '';
    const busy = !!(this.app.inviting && this.app.inviting.key === this.key && !this.app.inviting.failed);
    this.button.dataset.action = action;
    this.button.textContent = busy ? 'Joining…' : label;
    this.button.disabled = busy;
  }
}
