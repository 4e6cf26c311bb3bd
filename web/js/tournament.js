// The tournament page, #/tournament/ID (protocol section 19): registration, the director's
// controls, the boards of each round (click to play or watch), the standings and the
// crosstable. The page watches the tournament while it is on screen; every snapshot the server
// pushes redraws it.
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
//   Lobby (lobby.js, tournament-form.js)
//     data-role="tournament-list", "tournament-row" (data-tournament-id, data-status),
//     data-action="open-tournament"; data-action="show-tournament-form" opens the form
//     data-role="tournament-form" with the fields
//     data-role="tournament-name", "tournament-format", "tournament-rounds", "tournament-games",
//     "tournament-max-players", "tournament-move-seconds", "tournament-claim-seconds",
//     "tournament-attribute" (data-attribute), "tournament-squares", "tournament-false-claim",
//     "tournament-start-at", "round-pause" (seconds between rounds), and data-action="create-tournament"
//   Game view of a tournament room (game.js)
//     data-role="pairing" (round and opponent), data-action="tournament-link" (header),
//     data-role="next-round" with data-role="round-countdown" once the game is over and the next round waits,
//     data-action="back-to-tournament" (in place of the rematch button once the game is over)
//   A tournament's games in the lobby (tournament-form.js): not among the rooms, but counted under
//     the tournament's row: data-role="tournament-playing" (data-playing), with
//     data-role="room-tournament": a link to the tournament

import { h, focusKey, restoreFocus } from './dom.js';
import { feedbackLine, ERROR_MS, INFO_MS } from './feedback.js';
import { BOT_LEVELS, DEFAULT_BOT_LEVEL, rulesSummary } from './words.js';
import { roomKey } from './room-store.js';
import { tournamentKey, tournamentHref } from './tournaments.js';
import {
  FORMAT_WORDS, STATUS_WORDS, formatPoints, formatTiebreak, rounds, gamesPerPairing, totalRounds, isBye,
  pairingDone, crosstable, describeCell, scoreText, pairingOf, roundComplete, leaders, reasonWords, waitingRound, roundBefore,
} from './tournament-table.js';
import { countdownSpan, tickCountdowns } from './countdown.js';

const SB_HELP = 'Sonneborn-Berger: for each game, the opponent\'s final points times your result (1 win, ½ draw, 0 loss), added up';
const BUCHHOLZ_HELP = 'Buchholz: the sum of the final points of the opponents you played';

export function formatStart(ms) {
  try {
    return new Date(ms).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
  } catch {
    return new Date(ms).toString();
  }
}

/** The format, rounds, pairing, pause, rules and clock in a line. */
export function settingsText(t) {
  const s = t.settings || {};
  const parts = [FORMAT_WORDS[t.format] || t.format];
  const total = totalRounds(t);
  if (total) parts.push(`${total} round${total === 1 ? '' : 's'}`);
  else if (t.format === 'round_robin') parts.push('everyone meets everyone');
  else parts.push('rounds set at the start');
  const gpp = gamesPerPairing(t);
  parts.push(gpp === 2 ? '2 games per pairing (each starts once)' : '1 game per pairing');
  if (typeof s.round_pause_seconds === 'number' && s.round_pause_seconds > 0) parts.push(`${s.round_pause_seconds} s between rounds`);
  parts.push(rulesSummary(s.rules || {}, s.clock || {}));
  return parts.join(' · ');
}

/** What is happening now, in words (the page's summary line, the invitation's status). */
export function summaryText(t) {
  const players = (t.players || []).filter((p) => p.active !== false).length;
  const list = rounds(t);
  const current = list[list.length - 1];
  const total = totalRounds(t);
  const of = total ? ` of ${total}` : '';
  switch (t.status) {
    case 'registering': {
      const max = t.settings && t.settings.max_players;
      const count = `${players} player${players === 1 ? '' : 's'} registered${max ? ` (at most ${max})` : ''}`;
      const start = t.settings && typeof t.settings.start_at_ms === 'number'
        ? `It starts by itself at ${formatStart(t.settings.start_at_ms)} if at least 2 players have registered, or when the director starts it.`
        : 'The director starts it when everybody is here.';
      return `Registration is open: ${count}. ${start}`;
    }
    case 'running':
      if (waitingRound(t)) return `Round ${current.round - 1}${of} is over. Round ${current.round} is paired: its games start after a short pause.`;
      return current ? `Round ${current.round}${of} is being played.` : 'Starting…';
    case 'paused':
      if (waitingRound(t)) return `Paused by the director before round ${current.round}${of}: its games start when the director resumes.`;
      if (current && !roundComplete(current)) return `Paused by the director: the games of round ${current.round} are played out, then the tournament waits for the director to resume it.`;
      return `Paused by the director${current ? ` after round ${current.round}${of}` : ''}: the next round starts when the director resumes.`;
    case 'finished': {
      const top = leaders(t);
      if (!top) return 'The tournament is over.';
      const pts = `${formatPoints(top.points)} point${top.points === 1 ? '' : 's'}`;
      return top.shared
        ? `The tournament is over: ${top.names} share first place with ${pts}.`
        : `The tournament is over: ${top.names} wins with ${pts}.`;
    }
    default:
      return '';
  }
}

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
    const mine = this.buildMyGame(t);
    if (mine) out.push(mine);
    if (t.status === 'registering') {
      out.push(this.buildPlayers(t));
      return out;
    }
    out.push(h('div', { class: 't-grid' }, this.buildBoards(t), this.buildStandings(t)));
    out.push(this.buildCrosstable(t));
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
      if (!entrant) {
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
    if (director && t.status !== 'finished') parts.push(this.buildDirector(t));
    return h('header', { class: 'card t-head', 'aria-labelledby': 't-title' }, ...parts);
  }

  /** While a round waits for its start: the time left (outside the live summary: it ticks). */
  buildNextRound(t) {
    const waiting = t.status === 'running' ? waitingRound(t) : null;
    if (!waiting) return null;
    return h('p', { class: 'next-round', dataset: { role: 'next-round', round: waiting.round } },
      `Round ${waiting.round} starts in `, countdownSpan(waiting.starts_at_ms, this.app.serverNow()), '.');
  }

  buildDirector(t) {
    const box = h('div', { class: 'director', role: 'group', 'aria-label': "Director's controls" },
      h('span', { class: 'director-label' }, "Director's controls:"));
    if (t.status === 'registering') {
      const few = (t.players || []).length < 2;
      box.appendChild(h('button', {
        type: 'button', class: 'primary', dataset: { action: 'start-tournament' },
        disabled: few || this.pending('start_tournament'), 'aria-describedby': few ? 't-start-hint' : null,
        onclick: () => this.act('start_tournament'),
      }, 'Start the tournament'));
      if (few) box.appendChild(h('small', { id: 't-start-hint', class: 'muted' }, 'At least 2 players must register first.'));
      const addBot = this.buildAddBot(t);
      if (addBot) box.appendChild(addBot);
    } else if (t.status === 'running') {
      box.appendChild(h('button', { type: 'button', class: 'secondary', dataset: { action: 'pause-tournament' },
        disabled: this.pending('pause_tournament'), onclick: () => this.act('pause_tournament') }, 'Pause after this round'));
    } else if (t.status === 'paused') {
      box.appendChild(h('button', { type: 'button', class: 'primary', dataset: { action: 'resume-tournament' },
        disabled: this.pending('resume_tournament'), onclick: () => this.act('resume_tournament') }, 'Resume'));
    }
    box.appendChild(h('small', { class: 'muted' }, t.status === 'registering'
      ? 'You can remove a player from the list below.'
      : 'Removing a player (in the standings) loses their remaining games by forfeit.'));
    return box;
  }

  /** The computer as an entrant: a level and a button, until one is entered (one at most). */
  buildAddBot(t) {
    const players = t.players || [];
    if (players.some((p) => p.bot)) return null;
    const full = players.length >= ((t.settings && t.settings.max_players) || Infinity);
    const level = h('select', { id: 't-bot-level', dataset: { role: 'tournament-bot-level' }, 'aria-label': "The computer's level", disabled: full },
      BOT_LEVELS.map((l) => h('option', { value: String(l.level), selected: l.level === DEFAULT_BOT_LEVEL }, `Level ${l.level} — ${l.words}`)));
    return h('span', { class: 'add-bot', role: 'group', 'aria-label': 'Enter the computer' }, level,
      h('button', { type: 'button', class: 'secondary', dataset: { action: 'add-bot' },
        disabled: full || this.pending('add_bot'), title: full ? 'The tournament is full.' : null,
        onclick: () => this.act('add_bot', { opponent: { bot: Number(level.value) } }) }, 'Enter the computer'));
  }

  /** The player's own board this round: where to go, or that they have a bye. */
  buildMyGame(t) {
    const me = this.me();
    if (!me || !this.entrant(t) || t.status === 'registering') return null;
    if (t.status === 'finished') {
      const row = (t.standings || []).find((s) => s.player === me);
      if (!row) return null;
      return h('p', { class: 'card my-game', dataset: { role: 'my-game' } },
        `You finished ${ordinal(row.rank)} with ${formatPoints(row.points)} point${row.points === 1 ? '' : 's'}.`);
    }
    const waiting = waitingRound(t);
    if (waiting) return this.buildMyNextGame(t, waiting);
    const list = rounds(t);
    const round = list[list.length - 1];
    const p = pairingOf(round, me);
    if (!p) return null;
    if (isBye(p)) {
      return h('p', { class: 'card my-game', dataset: { role: 'my-game' } },
        `Round ${round.round}: you have a bye (${formatPoints(Array.isArray(p.score) ? p.score[0] : gamesPerPairing(t))} point${gamesPerPairing(t) === 1 ? '' : 's'}).`);
    }
    const opponent = this.nameOf(t, p.players[0] === me ? p.players[1] : p.players[0]);
    if (pairingDone(p)) {
      const [a] = p.players;
      const score = a === me ? scoreText(p) : scoreText({ ...p, score: [p.score[1], p.score[0]] });
      return h('p', { class: 'card my-game', dataset: { role: 'my-game' } },
        `Round ${round.round}: your game against ${opponent} is over (${score}). ${t.status === 'paused'
          ? 'The next round starts when the director resumes the tournament.' : 'The next round starts when every board has finished.'}`);
    }
    return h('div', { class: 'card my-game now', dataset: { role: 'my-game' } },
      h('span', {}, `Round ${round.round}: you play ${opponent}.`),
      p.room ? h('a', { class: 'button primary', href: roomHref(p.room), dataset: { action: 'play-my-game', room: p.room },
        onclick: () => this.openBoard(p) }, 'Go to your game') : null);
  }

  /** While the next round waits: how the player's last one ended, and whom they play next, when. */
  buildMyNextGame(t, waiting) {
    const me = this.me();
    const lines = [];
    const before = roundBefore(t, waiting);
    const last = before ? pairingOf(before, me) : null;
    if (last && isBye(last)) lines.push(h('p', {}, `Round ${before.round}: you had a bye.`));
    else if (last && pairingDone(last)) {
      const opponent = this.nameOf(t, last.players[0] === me ? last.players[1] : last.players[0]);
      const score = last.players[0] === me ? scoreText(last) : scoreText({ ...last, score: [last.score[1], last.score[0]] });
      lines.push(h('p', {}, `Round ${before.round}: your game against ${opponent} is over (${score}).`));
    }
    const next = pairingOf(waiting, me);
    if (next) {
      const when = t.status === 'running'
        ? [' It starts in ', countdownSpan(waiting.starts_at_ms, this.app.serverNow()), '; your board opens by itself.']
        : [' It starts when the director resumes the tournament.'];
      let what;
      if (isBye(next)) what = `Round ${waiting.round}: you have a bye.`;
      else if (pairingDone(next)) what = `Round ${waiting.round}: your opponent was removed; you win by forfeit.`;
      else what = `Round ${waiting.round}: you play ${this.nameOf(t, next.players[0] === me ? next.players[1] : next.players[0])}.`;
      lines.push(h('p', {}, what, ...(isBye(next) || pairingDone(next) ? [] : when)));
    }
    if (!lines.length) return null;
    return h('div', { class: 'card my-game', dataset: { role: 'my-game' } }, ...lines);
  }

  buildPlayers(t) {
    const director = this.isDirector(t);
    const players = t.players || [];
    const max = t.settings && t.settings.max_players;
    const list = h('ol', { class: 't-players', dataset: { role: 'tournament-players' } }, players.map((p) =>
      h('li', { dataset: { role: 'tournament-player', player: p.id, bot: p.bot ? String(p.bot) : null } },
        h('span', { class: 'name' }, p.name), p.id === this.me() ? h('span', { class: 'muted' }, ' (you)') : null,
        director ? this.removeControls(p) : null)));
    return h('section', { class: 'card', 'aria-labelledby': 't-players-title' },
      h('h3', { id: 't-players-title' }, `Players (${players.length}${max ? ` of at most ${max}` : ''})`),
      players.length ? list : h('p', { class: 'muted', dataset: { role: 'tournament-players' } }, 'Nobody has registered yet.'));
  }

  removeControls(p) {
    if (this.confirming === p.id) {
      return h('span', { class: 'confirm', role: 'group', 'aria-label': `Remove ${p.name}?` },
        h('span', {}, `Remove ${p.name}?`),
        h('button', { type: 'button', class: 'danger', dataset: { action: 'confirm-remove', player: p.id },
          onclick: () => { this.confirming = null; this.act('remove_player', { player: p.id }); } }, 'Yes, remove'),
        h('button', { type: 'button', class: 'secondary', dataset: { action: 'cancel-remove', player: p.id },
          onclick: () => { this.confirming = null; this.update(); this.focus(`[data-action="remove-player"][data-player="${CSS.escape(p.id)}"]`); } }, 'Cancel'));
    }
    return h('button', {
      type: 'button', class: 'danger small-button', dataset: { action: 'remove-player', player: p.id },
      'aria-label': `Remove ${p.name}`, disabled: this.pending('remove_player', p.id),
      onclick: () => { this.confirming = p.id; this.update(); this.focus(`[data-action="confirm-remove"][data-player="${CSS.escape(p.id)}"]`); },
    }, 'Remove');
  }

  focus(selector) {
    const e = this.root.querySelector(selector);
    if (e) e.focus();
  }

  // ---- boards ----

  buildBoards(t) {
    const list = rounds(t);
    const section = h('section', { class: 'card t-boards', 'aria-labelledby': 't-boards-title' });
    if (!list.length) {
      section.append(h('h3', { id: 't-boards-title' }, 'Boards'), h('p', { class: 'muted' }, 'No round has started yet.'));
      return section;
    }
    const latest = list[list.length - 1].round;
    // While the next round waits, the results of the one just played stay on screen.
    const waiting = waitingRound(t);
    const byDefault = (waiting && roundBefore(t, waiting)) || list[list.length - 1];
    const shown = list.find((r) => r.round === this.shownRound) ?? byDefault;
    const total = totalRounds(t);
    section.appendChild(h('h3', { id: 't-boards-title' }, `Round ${shown.round}${total ? ` of ${total}` : ''}`,
      shown.round === latest && !waiting && t.status !== 'finished' && !roundComplete(shown) ? h('span', { class: 'pill playing' }, 'now') : null,
      shown === waiting ? h('span', { class: 'pill waiting' }, 'next') : null));
    if (list.length > 1) {
      section.appendChild(h('div', { class: 'round-tabs', role: 'group', 'aria-label': 'Show the boards of round', dataset: { role: 'round-tabs' } },
        list.map((r) => h('button', {
          type: 'button', class: 'secondary', dataset: { action: 'show-round', round: r.round },
          'aria-pressed': String(r.round === shown.round),
          onclick: () => { this.shownRound = r.round === byDefault.round ? null : r.round; this.update(); },
        }, `Round ${r.round}`))));
    }
    const me = this.me();
    const rows = (shown.pairings || []).map((p, i) => {
      const bye = isBye(p);
      const done = pairingDone(p);
      const [a, b] = p.players || [];
      const mine = !!me && (a === me || b === me);
      const names = bye
        ? h('td', {}, this.playerCell(t, a), h('span', { class: 'muted' }, ' — bye'))
        : h('td', {}, this.playerCell(t, a, done && p.score[0] > p.score[1]), h('span', { class: 'vs' }, ' – '), this.playerCell(t, b, done && p.score[1] > p.score[0]));
      let result;
      if (bye) result = `${formatPoints(Array.isArray(p.score) ? p.score[0] : gamesPerPairing(t))} (bye)`;
      else {
        const results = p.results || [];
        const score = scoreText(p);
        const reasons = results.map((r) => reasonWords(r.reason)).filter(Boolean).join(', ');
        const live = done ? '' : p.room ? (results.length ? `game ${results.length + 1} playing` : 'playing') : 'waiting';
        result = h('span', {}, score ? h('strong', { class: 'score' }, score) : null,
          reasons ? h('span', { class: 'muted small' }, ` ${reasons}`) : null,
          live ? h('span', { class: 'live' }, `${score ? ' · ' : ''}${live}`) : null);
      }
      const links = [];
      if (!bye && p.room) {
        // One link per game: the earlier games of a pairing stay viewable while their rooms last.
        const who = `${this.nameOf(t, a)} – ${this.nameOf(t, b)}`;
        const all = Array.isArray(p.rooms) && p.rooms.length ? p.rooms : [p.room];
        all.forEach((room, g) => {
          const nth = all.length > 1 ? `, game ${g + 1}` : '';
          const result = (p.results || []).find((r) => r.room === room);
          if (result && result.game) {
            // A finished game is replayed from the archive: its room may be gone by now.
            const label = all.length > 1 ? `Replay ${g + 1}` : 'Replay';
            links.push(h('a', { class: 'button secondary small-button', href: `#/game/${encodeURIComponent(String(result.game))}`,
              dataset: { action: 'replay-board', game: result.game, room }, 'aria-label': `Replay: ${who}, round ${shown.round}${nth}` }, label));
            return;
          }
          if (result) return; // a forfeit: no game to show
          const label = room === p.room && !done ? (mine ? 'Play' : 'Watch') : 'View';
          links.push(h('a', {
            class: `button ${label === 'Play' ? 'primary' : 'secondary'} small-button`, href: roomHref(room),
            dataset: { action: 'watch-board', room }, 'aria-label': `${label}: ${who}, round ${shown.round}${nth}`,
            onclick: () => this.openBoard(p, room),
          }, label));
        });
      }
      return h('tr', { class: `${mine ? 'mine' : ''}${done ? ' done' : ''}`, dataset: { role: 'pairing-row', room: p.room ?? null, players: (p.players || []).filter(Boolean).join(' '), done: String(done) } },
        h('td', { class: 'num' }, String(i + 1)), names, h('td', {}, result), h('td', { class: 'link-cell' }, links));
    });
    section.appendChild(h('div', { class: 'table-scroll' },
      h('table', { class: 't-table boards', dataset: { role: 'round-boards', round: shown.round } },
        h('caption', { class: 'sr-only' }, `Boards of round ${shown.round}`),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Board'), h('th', { scope: 'col' }, 'Players'),
          h('th', { scope: 'col' }, 'Result'), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Open')))),
        h('tbody', {}, rows))));
    return section;
  }

  playerCell(t, id, winner = false) {
    const p = (t.players || []).find((x) => x.id === id);
    const name = p ? p.name : '?';
    return h(winner ? 'strong' : 'span', { class: `pname${id === this.me() ? ' me' : ''}${p && p.active === false ? ' removed' : ''}` },
      name, id === this.me() ? ' (you)' : '');
  }

  /** Before following a board's link: sit down in our own game, or join its audience. */
  openBoard(p, room = p.room) {
    const key = roomKey(room);
    if (this.app.rooms.has(key) || this.app.joining.has(key)) return;
    const mine = !!this.me() && (p.players || []).includes(this.me());
    this.app.join(this.app.idTypes.get(key) ?? room, mine ? 'player' : 'spectator');
  }

  // ---- standings and crosstable ----

  buildStandings(t) {
    const swiss = t.format === 'swiss';
    const director = this.isDirector(t) && t.status !== 'finished';
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
      return h('tr', { class: `${s.player === this.me() ? 'mine' : ''}${removed ? ' removed' : ''}`,
        dataset: { role: 'standings-row', player: s.player, rank: s.rank, points: s.points, sb: tb.sonneborn_berger, buchholz: tb.buchholz } },
      h('td', { class: 'num' }, String(s.rank)),
      h('th', { scope: 'row' }, h('span', { class: `pname${removed ? ' removed' : ''}` }, s.name), s.player === this.me() ? h('span', { class: 'muted' }, ' (you)') : null,
        removed ? h('span', { class: 'muted' }, ' (removed)') : null),
      h('td', { class: 'num points' }, formatPoints(s.points)),
      swiss ? h('td', { class: 'num' }, formatTiebreak(tb.buchholz)) : null,
      h('td', { class: 'num' }, formatTiebreak(tb.sonneborn_berger)),
      director ? h('td', {}, !removed && p ? this.removeControls(p) : null) : null);
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

  buildCrosstable(t) {
    const { order, cells, byes } = crosstable(t);
    const names = new Map((t.players || []).map((p) => [p.id, p.name]));
    const points = new Map((t.standings || []).map((s) => [s.player, s.points]));
    const anyBye = byes.size > 0;
    const head = h('tr', {},
      h('th', { scope: 'col', class: 'num' }, '#'), h('th', { scope: 'col' }, 'Player'),
      order.map((id, i) => h('th', { scope: 'col', class: 'num' }, h('abbr', { title: names.get(id) ?? '?' }, String(i + 1)))),
      anyBye ? h('th', { scope: 'col', class: 'num' }, 'Bye') : null,
      h('th', { scope: 'col', class: 'num' }, 'Points'));
    const body = order.map((id, i) => h('tr', { class: id === this.me() ? 'mine' : '' },
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

function roomHref(id) {
  return `#/room/${encodeURIComponent(String(id))}`;
}

function ordinal(n) {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] || s[v] || s[0]}`;
}
