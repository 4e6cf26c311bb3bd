// The tournament page, #/tournament/ID (protocol section 19): registration, the director's
// controls, the boards of each round (click to play or watch), the standings and the
// crosstable. The page watches the tournament while it is on screen; every snapshot the server
// pushes redraws it. This file holds the page's state, its head and the players' list while
// registering; the rest is drawn by modules of their own: the director's controls
// (tournament-director.js), the player's own game (tournament-my-game.js), the rounds' boards
// (tournament-boards.js), the standings and crosstable (tournament-standings.js), and the
// tournament in words (tournament-words.js).
//
// Test hooks (data-role / data-action) of the tournament pages; the shared ones stay as they are.
//   Tournament page
//     data-role="tournament"            the page; data-tournament, data-status, data-seq, data-rounds (started so far)
//     data-role="tournament-title"      the tournament's name (its heading)
//     data-role="tournament-status"     the status pill; data-status
//     data-role="tournament-summary"    what is happening now, in words
//     data-role="tournament-players"    the registered players while registering;
//                                       each data-role="tournament-player" data-player=ID
//     data-role="my-game"               the player's own board in the current round (or bye); while the
//                                       next round waits, the last result and the next pairing
//     data-role="next-round"            while a round waits for its start: the line that counts down to it
//     data-role="round-countdown"       the time left in it (also in my-game and in the game view); data-starts-at
//     data-action="play-my-game"        its link to the player's room; data-room
//     data-role="round-tabs"            the round picker: buttons data-action="show-round" data-round=N
//     data-role="round-boards"          the boards of the round shown; data-round
//     data-role="pairing-row"           one board; data-room, data-players="ID ID" (or "ID" for a bye), data-done
//     data-action="watch-board"         a board's Play / Watch link to its room; data-room
//     data-action="replay-board"        a finished game's replay link (#/game/ID); data-game, data-room
//     data-role="standings"             the standings table; rows data-role="standings-row"
//                                       data-player, data-rank, data-points, data-sb, data-buchholz (numbers)
//     data-role="crosstable"            the crosstable; game cells data-player, data-opponent;
//                                       bye cells data-role="bye-cell" data-player
//     data-action="join-tournament", "withdraw-tournament"
//     data-action="start-tournament", "pause-tournament", "resume-tournament"   (director only)
//     data-action="remove-player" data-player=ID, then "confirm-remove" / "cancel-remove" (director only)
//     data-role="tournament-bot-level" (a select, 1 to 5) and data-action="add-bot": the director enters
//                                       the computer while registering (shown until one is entered: one at
//                                       most); the computer's row in the players has data-bot=LEVEL
//     data-action="copy-tournament-link", data-action="lobby"
//   Lobby (lobby.js, tournament-list.js, tournament-form.js)
//     data-role="tournament-list", "tournament-row" (data-tournament-id, data-status),
//     data-action="open-tournament"; data-action="show-tournament-form" opens the form (its module
//     loads then) data-role="tournament-form" with the fields
//     data-role="tournament-name", "tournament-format", "tournament-rounds", "tournament-games",
//     "tournament-max-players", "tournament-move-seconds", "tournament-claim-seconds",
//     "tournament-attribute" (data-attribute), "tournament-squares", "tournament-false-claim",
//     "tournament-start-at", "round-pause" (seconds between rounds), "tournament-rated" (disabled with
//     "tournament-rated-why" saying why, for a guest or unrated rules), and data-action="create-tournament"
//   Game view of a tournament room (game.js)
//     data-role="pairing" (round and opponent), data-action="tournament-link" (header),
//     data-role="next-round" with data-role="round-countdown" once the game is over and the next round waits,
//     data-action="back-to-tournament" (in place of the rematch button once the game is over)
//   A tournament's games in the lobby (tournament-list.js): not among the rooms, but counted under
//     the tournament's row: data-role="tournament-playing" (data-playing), with
//     data-role="room-tournament": a link to the tournament

import { h, focusKey, restoreFocus } from './dom.js';
import { playerLabel } from './words.js';
import { feedbackLine, ERROR_MS, INFO_MS } from './feedback.js';
import { tournamentKey, tournamentHref } from './tournaments.js';
import { STATUS_WORDS, rounds, waitingRound } from './tournament-table.js';
import { countdownSpan, tickCountdowns } from './countdown.js';
import { settingsText, summaryText } from './tournament-words.js';
import { directorControls, removeControls } from './tournament-director.js';
import { myGame } from './tournament-my-game.js';
import { roundBoards } from './tournament-boards.js';
import { standingsTable, crosstableTable } from './tournament-standings.js';

export class TournamentView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.key = tournamentKey(id);
    this.shownRound = null; // null: follow the latest round
    this.confirming = null; // the player whose removal waits for the director's confirmation
    this.drawn = null; // what the page was last drawn from
    this.message = null; // {text, kind}: why an action was refused, under the page's buttons
    this.copied = false; // the Copy link button says "Link copied" for a moment
    this.root = h('section', { class: 'tournament', dataset: { role: 'tournament', tournament: this.key } });
  }

  get tournament() {
    return this.app.tournaments.get(this.key);
  }

  mount(container) {
    container.replaceChildren(this.root);
    this.app.watchTournament(this.app.tournaments.idTypes.get(this.key) ?? this.id);
    this.update();
  }

  unmount() {
    this.app.unwatchTournament(this.app.tournaments.idTypes.get(this.key) ?? this.id);
    clearTimeout(this.messageTimer);
    clearTimeout(this.copiedTimer);
  }

  /** Arriving here (a name given on the invitation): the keyboard starts at the page's title. */
  focusFirst() {
    const title = this.root.querySelector('[data-role="tournament-title"]');
    if (title) title.focus({ preventScroll: true });
  }

  /** The countdown to a waiting round, every tick (the rest changes only with snapshots). */
  tick() {
    tickCountdowns(this.root, this.app.serverNow());
  }

  /** App.notify's messages about this tournament (a refused action) are shown on the page. */
  feedback(text, kind, where) {
    if (!where || where.tournament !== this.key) return false;
    this.message = { text, kind, seq: (this.message ? this.message.seq : 0) + 1 };
    clearTimeout(this.messageTimer);
    this.messageTimer = setTimeout(() => { this.message = null; this.update(); }, kind === 'error' ? ERROR_MS : INFO_MS);
    this.update();
    this.app.announce(text);
    return true;
  }

  title() {
    const t = this.tournament;
    return t ? `${t.name} — Quarto` : 'Tournament — Quarto';
  }

  update() {
    const t = this.tournament;
    const book = this.app.tournaments;
    const pending = [...book.pending].filter((p) => p.startsWith(`${this.key} `)).join('|');
    const err = book.errors.get(this.key);
    const state = [this.app.welcomed, this.app.me.id, pending, err ? err.code : '', this.shownRound, this.confirming,
      this.message ? this.message.seq : 0, this.copied].join('/');
    // Room events redraw the app many times a second; this page changes only with these.
    if (this.drawn && this.drawn.t === t && this.drawn.state === state) return;
    this.drawn = { t, state };
    const fk = focusKey(this.root);
    Object.assign(this.root.dataset, t
      ? { status: t.status, seq: String(t.seq), rounds: String(rounds(t).length) }
      : { status: '', seq: '', rounds: '' });
    this.root.replaceChildren(...(t ? this.build(t) : this.buildEmpty(err)));
    restoreFocus(this.root, fk);
    document.title = this.title();
  }

  buildEmpty(err) {
    const text = err ? err.text : this.app.welcomed ? 'Loading the tournament…' : 'Connecting…';
    return [h('div', { class: 'card door' },
      h('h2', {}, 'Tournament'),
      h('p', { class: err ? '' : 'muted', role: err ? 'alert' : null }, text),
      h('a', { class: 'button secondary', href: '#/', dataset: { action: 'lobby' } }, 'Back to the lobby'))];
  }

  // ---- the page ----

  build(t) {
    const out = [this.buildHead(t)];
    const mine = myGame(this, t);
    if (mine) out.push(mine);
    if (t.status === 'registering') {
      out.push(this.buildPlayers(t));
      return out;
    }
    out.push(h('div', { class: 't-grid' }, roundBoards(this, t), standingsTable(this, t)));
    out.push(crosstableTable(this, t));
    return out;
  }

  me() {
    return this.app.me.id;
  }

  isDirector(t) {
    return !!this.me() && t.director === this.me();
  }

  entrant(t) {
    return (t.players || []).find((p) => p.id === this.me()) ?? null;
  }

  nameOf(t, id) {
    const p = (t.players || []).find((x) => x.id === id);
    return p ? p.name : '?';
  }

  pending(type, player) {
    return this.app.tournaments.isPending(this.key, type, player);
  }

  act(type, fields) {
    this.app.tournamentAct(this.app.tournaments.idTypes.get(this.key) ?? this.id, type, fields);
  }

  buildHead(t) {
    const director = this.isDirector(t);
    const entrant = this.entrant(t);
    const players = (t.players || []).length;
    const max = t.settings && t.settings.max_players;
    const actions = h('div', { class: 'actions' });
    // A guest watching without a name registers from the bar above the page (tournament-invite.js).
    if (t.status === 'registering' && !this.app.needsName) {
      if (!entrant && t.settings && t.settings.rated && !this.app.me.account) {
        // Its players are accounts (the server refuses a guest's registration).
        actions.appendChild(h('a', { class: 'button primary', href: '#/account', dataset: { action: 'log-in-to-play' } }, 'Log in to play'));
      } else if (!entrant) {
        const full = typeof max === 'number' && players >= max;
        actions.appendChild(h('button', {
          type: 'button', class: 'primary', dataset: { action: 'join-tournament' },
          disabled: full || this.pending('join_tournament') || !this.app.welcomed,
          onclick: () => this.act('join_tournament'),
        }, full ? 'Full' : 'Join the tournament'));
      } else {
        actions.appendChild(h('span', { class: 'registered' }, '✓ You are registered'));
        actions.appendChild(h('button', {
          type: 'button', class: 'secondary', dataset: { action: 'withdraw-tournament' },
          disabled: this.pending('withdraw_tournament'), onclick: () => this.act('withdraw_tournament'),
        }, 'Withdraw'));
      }
    }
    const link = `${window.location.origin}${window.location.pathname}${tournamentHref(this.key)}`;
    actions.appendChild(h('button', { type: 'button', class: 'secondary', dataset: { action: 'copy-tournament-link' },
      onclick: () => this.copyLink(link) }, this.copied ? 'Link copied ✓' : 'Copy link'));
    actions.appendChild(h('a', { class: 'button secondary', href: '#/', dataset: { action: 'lobby' } }, 'Lobby'));

    const parts = [
      h('div', { class: 't-title-row' },
        h('h2', { id: 't-title', tabindex: '-1', dataset: { role: 'tournament-title' } }, t.name),
        h('span', { class: `pill ${t.status}`, dataset: { role: 'tournament-status', status: t.status } }, STATUS_WORDS[t.status] || t.status)),
      h('p', { class: 'rules' }, settingsText(t)),
      h('p', { class: 'director-line' }, 'Director: ', h('strong', {}, t.director_name || '?'), director ? ' (you)' : ''),
      h('p', { class: 't-summary', dataset: { role: 'tournament-summary' }, 'aria-live': 'polite' }, summaryText(t)),
      this.buildNextRound(t),
      actions,
      this.message ? feedbackLine(this.message.text, this.message.kind, () => { this.message = null; this.update(); }, false) : null,
    ];
    if (director && t.status !== 'finished') parts.push(directorControls(this, t));
    return h('header', { class: 'card t-head', 'aria-labelledby': 't-title' }, ...parts);
  }

  /** While a round waits for its start: the time left (outside the live summary: it ticks). */
  buildNextRound(t) {
    const waiting = t.status === 'running' ? waitingRound(t) : null;
    if (!waiting) return null;
    return h('p', { class: 'next-round', dataset: { role: 'next-round', round: waiting.round } },
      `Round ${waiting.round} starts in `, countdownSpan(waiting.starts_at_ms, this.app.serverNow()), '.');
  }

  buildPlayers(t) {
    const director = this.isDirector(t);
    const players = t.players || [];
    const max = t.settings && t.settings.max_players;
    const list = h('ol', { class: 't-players', dataset: { role: 'tournament-players' } }, players.map((p) =>
      h('li', { dataset: { role: 'tournament-player', player: p.id, bot: p.bot ? String(p.bot) : null } },
        playerLabel(p.name, p, p.id, { class: 'name' }), p.id === this.me() ? h('span', { class: 'muted' }, ' (you)') : null,
        director ? removeControls(this, p) : null)));
    return h('section', { class: 'card', 'aria-labelledby': 't-players-title' },
      h('h3', { id: 't-players-title' }, `Players (${players.length}${max ? ` of at most ${max}` : ''})`),
      players.length ? list : h('p', { class: 'muted', dataset: { role: 'tournament-players' } }, 'Nobody has registered yet.'));
  }

  async copyLink(link) {
    try {
      await navigator.clipboard.writeText(link);
      this.copied = true;
      clearTimeout(this.copiedTimer);
      this.copiedTimer = setTimeout(() => { this.copied = false; this.update(); }, 2500);
      this.update();
      this.app.announce('Link copied — send it to the players.');
    } catch {
      window.prompt('Copy this link and send it to the players:', link);
    }
  }
}
