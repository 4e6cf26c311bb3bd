// The game view: board, pieces left, piece in hand, clocks, prompts, Quarto call, result, moves.
// Players act through it; spectators see the same view read-only. A tournament's game links
// back to its tournament and has no rematch.
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
import { pieceSvg, pieceName } from './pieces.js';
import { squareName, rulesSummary, moveText, scoreText, resultText, patternKind } from './words.js';
import { tickClocks, clockText, formatMs } from './clock.js';
import { pairingText, tournamentKey, tournamentHref, playerName } from './tournaments.js';
import { waitingRound, pairingOf, isBye, pairingDone } from './tournament-table.js';
import { countdownSpan, tickCountdowns } from './countdown.js';
import { feedbackLine, ERROR_MS, INFO_MS } from './feedback.js';
import { invitePanel, roomLink } from './invite-panel.js';
import { pressing, afterPress } from './press.js';
import { boardFrame } from './board-frame.js';
import { fitStage } from './stage-fit.js';
import { claimPrompt, promptedSquares, ClaimWatch } from './claim-prompt.js';
import { arrowKey, boardStop, poolStop, focusNextAction } from './game-keys.js';
import { fitWords } from './fit-words.js';
import { statusText, awayText } from './game-status.js';

// A resignation (the Resign button, or leaving a game in progress) waits for its confirmation
// as long as the player takes; its confirm button stays disabled for a moment, so that a double
// click on Resign cannot resign on its own.
const ARM_MS = 400;

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
    // A press outside the question takes it back, after the click it makes (press.js): a
    // click on a piece both gives it and answers "no". Not the second press of a double click
    // on Resign, though, which lands where the button was.
    this.onPress = (e) => {
      const c = this.confirming;
      if (c && performance.now() >= c.armed && !(e.target.closest && e.target.closest('.confirm'))) afterPress(() => this.cancelConfirm(false));
    };
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
      this.cancelConfirm();
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
    if (this.victoryClaimable !== this.canClaimVictory(room)) this.update();
  }

  canClaimVictory(room) {
    return room.you !== null && room.claimVictoryIn(1 - room.you) === 0;
  }

  update() {
    const room = this.room;
    if (!room) return;
    if (this.selecting && !room.canCall(room.you)) this.selecting = null;
    if (this.confirming && !this.canResign(room)) this.confirming = null;
    const fk = focusKey(this.root);
    const hadFocus = this.root.contains(document.activeElement);
    // State for tools and tests (not styling): which room, how far, whose turn, our seat.
    Object.assign(this.root.dataset, {
      role: 'game', room: String(room.id), seq: String(room.seq), status: room.status, phase: room.phase,
      turn: room.turn === null ? '' : String(room.turn), you: room.you === null ? '' : String(room.you),
    });
    this.victoryClaimable = this.canClaimVictory(room);
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

  // ---- what the player may do now ----

  myTurnTo(room, phase) {
    return room.isPlayer && room.status === 'playing' && room.turn === room.you && room.phase === phase;
  }

  canGive(room) {
    return !this.selecting && this.myTurnTo(room, 'give') && room.available.length > 0;
  }

  canPlace(room) {
    return !this.selecting && this.myTurnTo(room, 'place') && room.inHand !== null;
  }

  canPass(room) {
    return !this.selecting && this.myTurnTo(room, 'give') && room.available.length === 0;
  }

  /** The room menu (a phone's): open when asked, or while Leave waits for its confirmation. */
  menuShown() {
    return this.menuOpen || !!(this.confirming && this.confirming.kind === 'leave');
  }

  toggleMenu() {
    this.menuOpen = !this.menuShown();
    if (!this.menuOpen && this.confirming && this.confirming.kind === 'leave') this.confirming = null;
    this.update();
  }

  canResign(room) {
    return room.isPlayer && room.status === 'playing';
  }

  // ---- clicks ----

  /** Resign or Leave (resigns) asks first: the question replaces the button, in place. */
  askConfirm(kind) {
    const room = this.room;
    if (!room || !this.canResign(room)) return;
    this.confirming = { kind, armed: performance.now() + ARM_MS };
    this.update();
    clearTimeout(this.armTimer);
    this.armTimer = setTimeout(() => { if (this.confirming) this.update(); }, ARM_MS + 20);
    // The safe answer takes the focus: a second Enter keeps playing.
    const cancel = this.root.querySelector('[data-action="cancel-resign"]');
    if (cancel) cancel.focus({ preventScroll: true });
  }

  /** Takes the question back. The focus returns to the button it came from when the player
   *  cancelled; after a click elsewhere it stays where that click put it. */
  cancelConfirm(byPlayer = true) {
    if (!this.confirming) return;
    const kind = this.confirming.kind;
    this.confirming = null;
    this.update();
    if (byPlayer) {
      const back = this.root.querySelector(`[data-action="${kind}"]`);
      if (back) back.focus({ preventScroll: true });
    }
  }

  confirmResign() {
    const room = this.room;
    const c = this.confirming;
    this.confirming = null;
    if (!room || !c) return;
    if (c.kind === 'leave') {
      this.leave(room);
      return;
    }
    if (this.canResign(room)) this.app.act(room, 'resign');
    this.update();
  }

  leave(room) {
    this.app.leave(room);
    window.location.hash = '#/';
  }

  clickLeave() {
    const room = this.room;
    if (!room) return;
    if (this.canResign(room)) this.askConfirm('leave');
    else this.leave(room);
  }

  /** The question, in place of the button it came from: "Resign this game? [Keep playing] [Yes, resign]". */
  confirmGroup(kind) {
    const leaving = kind === 'leave';
    const question = leaving ? 'Leave and resign this game?' : 'Resign this game?';
    return h('span', { class: 'confirm confirm-resign', role: 'group', 'aria-label': question, dataset: { role: 'confirm' } },
      h('span', { class: 'confirm-question' }, question),
      h('button', { type: 'button', class: 'secondary', dataset: { action: 'cancel-resign' }, onclick: () => this.cancelConfirm() },
        leaving ? 'Stay' : 'Keep playing'),
      h('button', { type: 'button', class: 'danger strong', dataset: { action: 'confirm-resign' },
        disabled: performance.now() < this.confirming.armed, onclick: () => this.confirmResign() },
        leaving ? 'Yes, resign and leave' : 'Yes, resign'));
  }

  clickPiece(p) {
    const room = this.room;
    if (!room || !this.canGive(room)) return;
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
    if (this.canPlace(room) && room.board[sq] === null) this.app.act(room, 'place', { square: sq });
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
    // A tournament's game room is named "<tournament> · round N": its tournament's name in the
    // title is the link back, rather than a second line saying it again.
    const tname = tournament ? tournament.name : null;
    const titled = !!(tlink && tname && room.name.startsWith(`${tname} · `));
    out.push(h('header', { class: 'room-head' },
      h('div', { class: 'room-title' },
        h('h2', { title: room.name, dataset: { fit: titled ? null : room.name } }, titled
          ? [h('a', { href: tournamentHref(tlink.tournament), dataset: { action: 'tournament-link' }, title: 'Back to the tournament' }, tname), room.name.slice(tname.length)]
          : room.name),
        tlink && !titled ? h('p', { class: 'tournament-of' },
          h('a', { href: tournamentHref(tlink.tournament), dataset: { action: 'tournament-link' } },
            `← ${tournament ? tournament.name : 'The tournament'}`),
          tlink.round ? ` · round ${tlink.round}${tlink.game > 1 ? `, game ${tlink.game}` : ''}` : '') : null,
        h('p', { class: 'rules' }, rulesSummary(room.rules, room.clockRules))),
      // On a phone the room's tools fold into a menu (the confirmation of Leave keeps it open).
      h('button', { type: 'button', class: 'secondary menu-toggle', dataset: { action: 'room-menu' },
        'aria-expanded': String(this.menuShown()), 'aria-controls': 'room-tools', onclick: () => this.toggleMenu() },
      h('span', { 'aria-hidden': 'true' }, '⋯ '), 'Menu'),
      h('div', { class: `room-tools${this.menuShown() ? ' open' : ''}`, id: 'room-tools' },
        h('span', { class: 'spectators', dataset: { role: 'spectators' }, title: 'People watching' },
          `${room.spectators} watching`),
        h('button', { type: 'button', class: 'secondary', dataset: { action: 'copy-link' }, onclick: () => this.copyLink(link) },
          this.copiedUntil ? 'Link copied ✓' : 'Copy link'),
        h('a', { class: 'button secondary', href: '#/', dataset: { action: 'lobby' } }, 'Lobby'),
        this.confirming && this.confirming.kind === 'leave' ? this.confirmGroup('leave')
          : h('button', { type: 'button', class: 'secondary', dataset: { action: 'leave' },
            title: this.canResign(room) ? 'Leaving a game in progress resigns it' : 'Leave this room',
            onclick: () => this.clickLeave() },
          this.canResign(room) ? 'Leave (resigns)' : 'Leave')),
    ));

    // What the player needs while playing, down to the pool: on a phone it fills one screen
    // (the board takes the height that is left).
    const stage = h('div', { class: 'stage' });
    out.push(stage);

    // players and clocks
    const players = h('div', { class: 'players' });
    for (const seat of [0, 1]) {
      const p = room.players[seat];
      const active = room.status === 'playing' && room.turn === seat;
      // Our own seat is as connected as this page is: not "online" while the banner says the
      // connection is lost (the server would say we are until it notices). Nor is anyone else's
      // presence known then: the last word on it may be stale.
      const connected = p ? p.connected !== false && (seat !== me || this.app.welcomed) : false;
      const known = seat === me || this.app.welcomed;
      const presence = known ? (connected ? 'online' : 'offline') : 'unknown';
      players.appendChild(h('div', { class: `player seat${seat}${active ? ' active' : ''}${seat === me ? ' me' : ''}`, dataset: { role: 'player', seat } },
        h('div', { class: 'player-name' },
          p ? h('span', { class: `conn ${presence}`, title: known ? (connected ? 'connected' : 'disconnected') : 'not known while this page is disconnected' }) : null,
          h('span', { class: 'name', dataset: { fit: p ? p.name : null } }, p ? p.name : 'Free seat'),
          seat === me ? h('span', { class: 'you' }, ' (you)') : null,
          p ? h('span', { class: `conn-text${connected && known ? '' : ' away'}`, dataset: { role: 'presence', seat } },
            known ? awayText(room, seat, connected, me) : '') : null,
          room.status === 'finished' && room.rematch[seat] ? h('span', { class: 'badge' }, 'wants a rematch') : null),
        h('div', { class: 'clock-row' },
          active ? h('span', { class: 'turn-mark' }, room.phase === 'place' ? 'placing' : 'giving') : null,
          h('span', { class: 'clock', dataset: { role: 'clock', seat }, 'aria-label': `${p ? p.name : `Seat ${seat + 1}`}'s clock` }, clockText(room, seat)))));
    }
    stage.appendChild(players);
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
      stage.appendChild(h('div', { class: `result${won ? ' won' : ''}${lost ? ' lost' : ''}`, dataset: { role: 'result', reason: r.reason, winner: r.winner ?? 'none' }, role: 'alert' }, resultText(room)));
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
    if (this.canClaimVictory(room)) {
      const absent = 1 - me;
      stage.appendChild(h('div', { class: 'claim-victory', role: 'status' },
        room.players[absent]?.neverCame ? `${room.seatName(absent)} has not been here since the game began. `
          : `${room.seatName(absent)} left the game and has not come back. `,
        h('button', { type: 'button', class: 'primary', dataset: { action: 'claim-victory' },
          onclick: () => this.app.act(room, 'claim_victory') }, 'Claim victory')));
    }

    // board + side panel
    const play = h('div', { class: 'play-area' });
    play.appendChild(h('div', { class: 'board-wrap' }, boardFrame(this.buildBoard(room))));
    play.appendChild(this.buildSide(room));
    stage.appendChild(play);

    if ((room.status !== 'waiting' || room.departed) && (room.first === 0 || room.first === 1)) {
      out.push(h('p', { class: 'coin', dataset: { role: 'coin' } }, `Coin flip: ${room.seatName(room.first)}${room.first === me ? ' (you)' : ''} gave first.`));
    }
    out.push(this.buildMoves(room));
    return out;
  }

  buildBoard(room) {
    const line = room.result && Array.isArray(room.result.line) ? room.result.line : [];
    const placing = this.canPlace(room);
    const prompted = promptedSquares(room);
    const board = h('div', { class: `board${placing ? ' placing' : ''}${this.selecting ? ' selecting' : ''}`, dataset: { role: 'board' }, role: 'group', 'aria-label': 'Board, 4 by 4: columns A to D, rows 1 to 4' });
    const cursor = boardStop(this, room, placing);
    for (let sq = 0; sq < 16; sq++) {
      const p = room.board[sq];
      const occupied = p !== null && p !== undefined;
      const enabled = this.selecting ? occupied : (placing && !occupied);
      const classes = ['square'];
      if (line.includes(sq)) classes.push('win');
      if (this.selecting && this.selecting.includes(sq)) classes.push('selected');
      if (room.lastSquare === sq) classes.push('last');
      if (occupied) classes.push('occupied');
      if (prompted.has(sq)) classes.push('prompted');
      let label = `${squareName(sq)}: ${occupied ? pieceName(p) : 'empty'}`;
      if (this.selecting && this.selecting.includes(sq)) label += ', chosen for the Quarto call';
      if (line.includes(sq)) label += `, part of the winning ${patternKind(line)}`;
      else if (prompted.has(sq)) label += ', named in the claim prompt';
      // Every square stays focusable (the arrow keys cross occupied ones); one of them is the
      // board's single Tab stop. One that does nothing now says so with aria-disabled.
      const btn = h('button', {
        type: 'button', class: classes.join(' '), dataset: { square: sq, piece: occupied ? p : null, claimLine: prompted.has(sq) ? 'true' : null },
        'aria-label': label, 'aria-pressed': this.selecting ? String(this.selecting.includes(sq)) : null,
        'aria-disabled': enabled ? null : 'true', tabindex: sq === cursor ? '0' : '-1',
        onclick: () => this.clickSquare(sq), onfocus: () => { this.boardCursor = sq; },
      });
      if (occupied) btn.appendChild(pieceSvg(p));
      board.appendChild(btn);
    }
    return board;
  }

  buildSide(room) {
    const me = room.you;
    const side = h('div', { class: `side${room.status === 'playing' ? '' : ' over'}` });

    // piece in hand
    const hand = h('div', { class: 'in-hand', dataset: { role: 'in-hand' } });
    if (room.inHand !== null && room.status === 'playing') {
      const holder = room.turn;
      const whose = holder === me ? 'Your piece to place' : `${room.seatName(holder)}'s piece to place`;
      hand.append(h('div', { class: 'hand-piece', dataset: { handPiece: room.inHand } }, pieceSvg(room.inHand, { label: true })),
        h('div', { class: 'hand-text' }, h('span', { class: 'muted' }, whose), h('strong', {}, pieceName(room.inHand))));
    } else {
      hand.append(h('div', { class: 'hand-piece empty' }), h('div', { class: 'hand-text muted' }, 'No piece in hand'));
    }
    side.appendChild(hand);

    // actions
    const actions = h('div', { class: 'actions' });
    if (room.isPlayer && room.status === 'playing') {
      const callable = room.canCall(me);
      // The same button in the claim window as at any other time: the prompt above the board
      // says what there is to judge, and nothing here may hint that a call would win.
      actions.appendChild(h('button', {
        type: 'button', class: `quarto${this.selecting ? ' active' : ''}`, dataset: { action: 'quarto' },
        disabled: !callable && !this.selecting, 'aria-pressed': String(!!this.selecting), 'aria-keyshortcuts': 'Q',
        title: this.selecting ? 'Cancel the call (Q or Escape)' : 'Call Quarto (Q)',
        onclick: () => this.clickQuarto(),
      }, this.selecting ? 'Cancel call' : 'Quarto!', h('kbd', { class: 'shortcut', 'aria-hidden': 'true' }, 'Q')));
      if (this.canPass(room)) {
        actions.appendChild(h('button', { type: 'button', dataset: { action: 'pass' }, onclick: () => this.app.act(room, 'pass') }, 'Pass'));
      }
      actions.appendChild(this.confirming && this.confirming.kind === 'resign' ? this.confirmGroup('resign')
        : h('button', { type: 'button', class: 'danger', dataset: { action: 'resign' }, onclick: () => this.askConfirm('resign') }, 'Resign'));
    }
    const tlink = this.tournamentLink();
    if (tlink && room.status === 'finished') {
      // The server refuses a rematch in a tournament room: the tournament pairs the next game.
      actions.appendChild(h('a', { class: `button ${room.isPlayer ? 'primary' : 'secondary'}`, href: tournamentHref(tlink.tournament),
        dataset: { action: 'back-to-tournament' } }, 'Back to the tournament'));
    } else if (room.isPlayer && room.status === 'finished') {
      const asked = room.rematch[me];
      actions.appendChild(h('button', { type: 'button', class: 'primary', dataset: { action: 'rematch' }, disabled: asked,
        onclick: () => this.app.act(room, 'rematch') }, asked ? 'Rematch asked…' : 'Rematch'));
    }
    if ((room.status === 'finished' || room.departed) && room.gameId) {
      actions.appendChild(h('a', { class: 'button secondary', href: `#/game/${encodeURIComponent(String(room.gameId))}`,
        dataset: { action: 'replay' } }, 'Replay'));
    }
    if (!room.isPlayer && room.freeSeat !== null && room.status === 'waiting') {
      actions.appendChild(h('button', { type: 'button', class: 'primary', dataset: { action: 'join-player' },
        onclick: () => this.app.join(room.id, 'player') }, 'Take the free seat'));
    }
    if (!room.isPlayer) actions.appendChild(h('p', { class: 'muted' }, 'You are watching this game.'));
    side.appendChild(actions);

    // pieces left
    const giving = this.canGive(room);
    const avail = h('div', { class: `available${giving ? ' giving' : ''}`, dataset: { role: 'available' }, role: 'group', 'aria-label': 'Pieces left to give' });
    const left = new Set(room.available);
    const stop = poolStop(this, room);
    for (let p = 0; p < 16; p++) {
      if (left.has(p)) {
        // As on the board: one Tab stop, the arrow keys inside, aria-disabled while not giving.
        avail.appendChild(h('button', {
          type: 'button', class: 'piece-btn', dataset: { piece: p, slot: p }, 'aria-label': giving ? `Give ${pieceName(p)}` : pieceName(p),
          title: pieceName(p), 'aria-disabled': giving ? null : 'true', tabindex: p === stop ? '0' : '-1',
          onclick: () => this.clickPiece(p), onfocus: () => { this.poolCursor = p; },
        }, pieceSvg(p)));
      } else {
        avail.appendChild(h('span', { class: 'piece-slot used', 'aria-hidden': 'true' }));
      }
    }
    side.appendChild(h('h3', { class: 'side-title' }, `Pieces left (${room.available.length})`));
    side.appendChild(avail);
    return side;
  }

  buildMoves(room) {
    const list = h('ol', { class: 'moves', dataset: { role: 'moves' } });
    for (const m of room.moves) list.appendChild(h('li', {}, moveText(m, (seat) => room.seatName(seat))));
    return h('details', { class: 'moves-box', open: this.movesOpen !== false, ontoggle: (e) => { this.movesOpen = e.target.open; } },
      h('summary', { dataset: { role: 'moves-toggle' } }, `Moves (${room.moves.length})`),
      room.moves.length ? list : h('p', { class: 'muted' }, 'No moves yet.'));
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
