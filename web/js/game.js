// The game view: board, pieces left, piece in hand, clocks, prompts, Quarto call, result, moves.
// Players act through it; spectators see the same view read-only. A tournament's game links
// back to its tournament and has no rematch. This file holds the view's state, its events and
// the page's order; its parts are drawn by modules of their own: the header and room tools
// (game-head.js), the players and clocks (game-players.js), the board (game-board.js), the
// side panel (game-side.js), the coin flip and the moves (game-moves.js), the claim window
// (claim-prompt.js) and a resignation's question (game-confirm.js). What the player may do now
// is game-turn.js, the status line game-status.js, the keyboard game-keys.js.
//
// Hooks beside the board's data-square / data-piece and the roles used by the tests:
//   data-action="resign", data-action="leave"   Resign / Leave (resigns): during a game in
//                                               progress they only ask, in place
//   data-action="confirm-resign"                the resignation (also for leaving a game in
//                                               progress); data-action="cancel-resign" takes the
//                                               question back, as do Escape and a click elsewhere
//   [data-square], [data-role="available"] [data-piece]   never disabled: one that does nothing
//                                               now has aria-disabled="true"; the board and the pool
//                                               are one Tab stop each (tabindex 0), arrows inside
//   data-action="quarto"                        also the Q key (aria-keyshortcuts="Q")
//   [data-square][data-claim-line]              the squares the claim prompt names
//   [data-board-coord]                          the board's coordinates (board-frame.js)

import { h, focusKey, restoreFocus } from './dom.js';
import { scoreText, resultText, ratingText, changeText } from './words.js';
import { tickClocks } from './clock.js';
import { pairingText, tournamentKey, playerName } from './tournaments.js';
import { waitingRound, pairingOf, isBye, pairingDone } from './tournament-table.js';
import { countdownSpan, tickCountdowns } from './countdown.js';
import { feedbackLine, ERROR_MS, INFO_MS } from './feedback.js';
import { invitePanel, roomLink } from './invite-panel.js';
import { pressing } from './press.js';
import { fitStage } from './stage-fit.js';
import { claimPrompt, ClaimWatch } from './claim-prompt.js';
import { arrowKey, focusNextAction } from './game-keys.js';
import { fitWords } from './fit-words.js';
import { statusText, awayText } from './game-status.js';
import { canGive, canPlace, canResign, canClaimVictory } from './game-turn.js';
import { askConfirm, cancelConfirm, pressOutside } from './game-confirm.js';
import { roomHead } from './game-head.js';
import { playersStrip } from './game-players.js';
import { boardBox } from './game-board.js';
import { sidePanel } from './game-side.js';
import { coinLine, moveList } from './game-moves.js';

/** A rated game's new ratings beside its result: "Ann 1512 +12 · Bo 1488 -12", or null. */
function ratingChanges(room) {
  const list = room.result && Array.isArray(room.result.ratings) ? room.result.ratings : [];
  if (!list.length) return null;
  return h('p', { class: 'rating-changes', dataset: { role: 'rating-changes' } }, list.map((r, i) => {
    const change = changeText(r.before, r.after);
    return h('span', { class: 'rating-change', dataset: { role: 'rating-change', seat: r.seat, change } },
      i ? ' · ' : '', `${room.seatName(r.seat)} ${ratingText({ rating: r.after, provisional: r.provisional })} `,
      h('strong', {}, change));
  }));
}

export class GameView {
  constructor(app, key) {
    this.app = app;
    this.key = key;
    this.selecting = null; // squares chosen for a Quarto call, or null
    this.claimWasOpen = false;
    this.claimWatch = new ClaimWatch(); // says why a claim window on screen closed
    this.confirming = null; // {kind: 'resign' | 'leave', armed}: a resignation waiting for its confirmation
    this.message = null; // {text, kind, until}: feedback about this room, shown under the status line
    this.copiedUntil = 0; // the Copy link button says "Link copied" until then
    this.root = h('section', { class: 'game', 'aria-label': 'Game' });
    this.onKey = (e) => this.keydown(e);
    this.onPress = (e) => pressOutside(this, e); // a press elsewhere takes a resignation's question back
  }

  get room() {
    return this.app.rooms.get(this.key) ?? null;
  }

  /** {tournament, round, game, ...} when this room is a tournament's game, else null. A page
   *  that was not told of the pairing (a spectator) knows the tournament only, from the snapshot. */
  tournamentLink() {
    const link = this.app.tournaments.roomLink(this.key);
    if (link) return link;
    return this.room && this.room.tournament !== null ? { tournament: tournamentKey(this.room.tournament) } : null;
  }

  /** The player's board in their tournament's next round while it waits for its start, or null. */
  nextRound(room) {
    const tlink = room.isPlayer && room.status === 'finished' ? this.tournamentLink() : null;
    const t = tlink ? this.app.tournaments.get(tlink.tournament) : null;
    const waiting = t && t.status === 'running' ? waitingRound(t) : null;
    const p = waiting ? pairingOf(waiting, this.app.me.id) : null;
    if (!p || (!isBye(p) && pairingDone(p))) return null; // no game in it (a forfeit)
    const opponent = isBye(p) ? null : playerName(t, p.players[0] === this.app.me.id ? p.players[1] : p.players[0]) || 'your opponent';
    return { round: waiting, opponent };
  }

  mount(container) {
    container.replaceChildren(this.root);
    document.addEventListener('keydown', this.onKey);
    document.addEventListener('pointerdown', this.onPress, true);
    this.onResize = () => { fitStage(this.root); this.fitNames(); };
    window.addEventListener('resize', this.onResize);
    this.update();
  }

  unmount() {
    document.removeEventListener('keydown', this.onKey);
    document.removeEventListener('pointerdown', this.onPress, true);
    window.removeEventListener('resize', this.onResize);
    clearTimeout(this.armTimer);
  }

  keydown(e) {
    if (e.key === 'Escape' && this.confirming) {
      cancelConfirm(this);
      e.preventDefault();
      return;
    }
    if (e.key === 'Escape' && this.menuOpen) {
      this.menuOpen = false;
      this.update();
      const toggle = this.root.querySelector('[data-action="room-menu"]');
      if (toggle && toggle.offsetParent) toggle.focus({ preventScroll: true });
      e.preventDefault();
      return;
    }
    if (e.key === 'Escape' && this.selecting) {
      this.selecting = null;
      this.update();
      e.preventDefault();
      return;
    }
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    const typing = t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));
    if ((e.key === 'q' || e.key === 'Q') && !typing && !e.repeat) {
      const q = this.root.querySelector('[data-action="quarto"]');
      if (q && !q.disabled) { this.clickQuarto(); e.preventDefault(); }
      return;
    }
    if (arrowKey(this, e)) e.preventDefault();
  }

  tick() {
    const room = this.room;
    if (!room) return;
    tickClocks(this.root, room);
    tickCountdowns(this.root, this.app.serverNow());
    if (pressing()) return; // what follows may draw the view again: after the click (press.js)
    fitStage(this.root); // a notice above may have come or gone
    if ((this.message && performance.now() >= this.message.until) || (this.copiedUntil && performance.now() >= this.copiedUntil)) {
      if (this.message && performance.now() >= this.message.until) this.message = null;
      if (performance.now() >= this.copiedUntil) this.copiedUntil = 0;
      this.update();
    }
    // Redraw once when the claim window closes on its own (saying so if it was on screen).
    const open = !!room.claim && room.claimLeft() !== 0;
    const closed = this.claimWatch.check(room);
    if (closed) this.say(closed, 'info');
    if ((this.claimWasOpen && !open) || closed) this.update();
    this.claimWasOpen = open;
    // An absent player's countdown, and the claim once it has run out.
    for (const seat of [0, 1]) {
      if (room.claimVictoryIn(seat) === null) continue;
      const el = this.root.querySelector(`[data-role="presence"][data-seat="${seat}"]`);
      const text = awayText(room, seat, false, room.you);
      if (el && el.textContent !== text) el.textContent = text;
    }
    if (this.victoryClaimable !== canClaimVictory(room)) this.update();
  }

  update() {
    const room = this.room;
    if (!room) return;
    if (this.selecting && !room.canCall(room.you)) this.selecting = null;
    if (this.confirming && !canResign(room)) this.confirming = null;
    const fk = focusKey(this.root);
    const hadFocus = this.root.contains(document.activeElement);
    // State for tools and tests (not styling): which room, how far, whose turn, our seat.
    Object.assign(this.root.dataset, {
      role: 'game', room: String(room.id), seq: String(room.seq), status: room.status, phase: room.phase,
      turn: room.turn === null ? '' : String(room.turn), you: room.you === null ? '' : String(room.you),
    });
    this.victoryClaimable = canClaimVictory(room);
    const closed = this.claimWatch.check(room);
    if (closed) this.say(closed, 'info');
    this.root.replaceChildren(...this.build(room));
    fitStage(this.root);
    this.fitNames();
    restoreFocus(this.root, fk);
    if (hadFocus) focusNextAction(this, room);
    tickClocks(this.root, room);
    this.claimWasOpen = !!room.claim && room.claimLeft() !== 0;
  }

  /** Names too long for their place are shortened between words; the title has them whole. */
  fitNames() {
    for (const el of this.root.querySelectorAll('[data-fit]')) fitWords(el, el.dataset.fit);
  }

  // ---- clicks ----

  leave(room) {
    this.app.leave(room);
    window.location.hash = '#/';
  }

  clickLeave() {
    const room = this.room;
    if (!room) return;
    if (canResign(room)) askConfirm(this, 'leave');
    else this.leave(room);
  }

  clickPiece(p) {
    const room = this.room;
    if (!room || !canGive(room, this.selecting)) return;
    this.app.act(room, 'give', { piece: p });
  }

  clickSquare(sq) {
    const room = this.room;
    if (!room) return;
    if (this.selecting) {
      if (room.board[sq] === null) return;
      const i = this.selecting.indexOf(sq);
      if (i >= 0) this.selecting.splice(i, 1);
      else this.selecting.push(sq);
      if (this.selecting.length === 4) {
        const line = this.selecting.slice();
        this.selecting = null;
        this.app.act(room, 'quarto', { line });
      }
      this.update();
      return;
    }
    if (canPlace(room, this.selecting) && room.board[sq] === null) this.app.act(room, 'place', { square: sq });
  }

  clickQuarto() {
    const room = this.room;
    if (!room) return;
    if (this.selecting) this.selecting = null;
    else if (room.canCall(room.you)) {
      this.selecting = [];
      // The board's Tab stop goes to a piece to point at: the last one placed.
      if (!Number.isInteger(this.boardCursor) || room.board[this.boardCursor] === null) this.boardCursor = room.lastSquare;
    }
    this.update();
    if (this.selecting) {
      const stop = this.root.querySelector('[data-role="board"] [tabindex="0"]');
      if (stop) stop.focus({ preventScroll: true });
    }
  }

  // ---- drawing ----

  /** The line under the board (game-status.js), with what this view knows beside the room. */
  statusLine(room) {
    const tlink = this.tournamentLink();
    return statusText(room, {
      selecting: this.selecting, nextRound: !!this.nextRound(room), tournamentGame: !!tlink,
      tournamentOver: !!tlink && this.app.tournaments.get(tlink.tournament)?.status === 'finished',
    });
  }

  build(room) {
    const out = [];
    const me = room.you;
    const link = roomLink(room.id);

    const tlink = this.tournamentLink();
    const tournament = tlink ? this.app.tournaments.get(tlink.tournament) : null;
    out.push(roomHead(this, room, link, tlink, tournament));

    // What the player needs while playing, down to the pool: on a phone it fills one screen
    // (the board takes the height that is left).
    const stage = h('div', { class: 'stage' });
    out.push(stage);

    stage.appendChild(playersStrip(room, this.app.welcomed));
    const score = scoreText(room);
    if (score) stage.appendChild(h('p', { class: 'score', dataset: { role: 'score' } }, score));

    // Whom this game is against, while it is on (once it is over, the result says the rest).
    if (tlink && room.isPlayer && room.status !== 'finished') {
      stage.appendChild(h('p', { class: 'pairing', dataset: { role: 'pairing' } }, pairingText(tlink, room, tournament)));
    }

    stage.appendChild(h('p', { class: 'status', dataset: { role: 'status' }, 'aria-live': 'polite' }, this.statusLine(room)));
    // The result; also while the room waits for a new opponent after one left.
    if (room.result && (room.status === 'finished' || room.departed)) {
      const r = room.result;
      const won = r.winner === me && me !== null;
      const lost = me !== null && (r.winner === 0 || r.winner === 1) && r.winner !== me;
      stage.appendChild(h('div', { class: `result${won ? ' won' : ''}${lost ? ' lost' : ''}`, dataset: { role: 'result', reason: r.reason, winner: r.winner ?? 'none' }, role: 'alert' }, resultText(room), ratingChanges(room)));
    }
    if (room.isPlayer && room.status === 'waiting' && room.freeSeat !== null && !tlink) {
      stage.appendChild(invitePanel(link, { copied: !!this.copiedUntil, onCopy: () => this.copyLink(link) }));
    }
    // The result stays on screen while the next round waits; this says when it starts.
    const next = this.nextRound(room);
    if (next) {
      stage.appendChild(h('p', { class: 'pairing', dataset: { role: 'next-round', round: next.round.round } },
        `Round ${next.round.round}: ${next.opponent ? `you play ${next.opponent}` : 'you have a bye'}. It starts in `,
        countdownSpan(next.round.starts_at_ms, this.app.serverNow()), next.opponent ? '; your board opens by itself.' : '.'));
    }
    // Feedback about this room (a refused move, a wrong call), in place: right under the line
    // that says what to do, in the flow, so it never covers the board or the pieces.
    if (this.message) stage.appendChild(this.messageLine ??= feedbackLine(this.message.text, this.message.kind, () => this.dismissMessage(), false));

    // The claim window of a placement that filled a line (claim-prompt.js).
    const prompt = claimPrompt(room);
    if (prompt) stage.appendChild(prompt);

    // The opponent has been gone long enough: the game can be won instead of waited on.
    if (canClaimVictory(room)) {
      const absent = 1 - me;
      stage.appendChild(h('div', { class: 'claim-victory', role: 'status' },
        room.players[absent]?.neverCame ? `${room.seatName(absent)} has not been here since the game began. `
          : `${room.seatName(absent)} left the game and has not come back. `,
        h('button', { type: 'button', class: 'primary', dataset: { action: 'claim-victory' },
          onclick: () => this.app.act(room, 'claim_victory') }, 'Claim victory')));
    }

    // board + side panel
    const play = h('div', { class: 'play-area' });
    play.appendChild(boardBox(this, room));
    play.appendChild(sidePanel(this, room));
    stage.appendChild(play);

    const coin = coinLine(room);
    if (coin) out.push(coin);
    out.push(moveList(this, room));
    return out;
  }

  /** App.notify's messages about this room are shown here. */
  feedback(text, kind, where) {
    if (!where || where.room !== this.key) return false;
    this.say(text, kind);
    this.update();
    return true;
  }

  /** Shows `text` under the status line at the next redraw, and announces it once. */
  say(text, kind) {
    this.message = { text, kind, until: performance.now() + (kind === 'error' ? ERROR_MS : INFO_MS) };
    this.messageLine = null;
    this.app.announce(text); // once: the line is redrawn with the view
  }

  dismissMessage() {
    this.message = null;
    this.messageLine = null;
    this.update();
  }

  async copyLink(link) {
    try {
      await navigator.clipboard.writeText(link);
      // Said on the button itself.
      this.copiedUntil = performance.now() + 2500;
      this.update();
      this.app.announce('Link copied — send it to a friend.');
    } catch {
      window.prompt('Copy this link and send it to a friend:', link);
    }
  }
}
