// The replay of a finished game (#/game/ID, or #/game/ID/STEP): fetches the archived record
// from GET /api/games/ID and steps through it move by move. Needs no name and no connection:
// a replay link works for anybody.
//
// Test hooks (data-*), besides the board's data-square / data-piece shared with the game view:
//   [data-role="replay"]         the view; data-game (the id), data-state (loading | ready |
//                                error), data-replay-step (moves applied, 0 = the start),
//                                data-replay-total (number of moves)
//   [data-replay-first] [data-replay-prev] [data-replay-next] [data-replay-last]   the controls
//   [data-replay-move="K"]       move K (1-based) in the move list; the current one has
//                                aria-current="step"
//   [data-replay-in-hand]        the piece in hand at this step (data-piece when there is one)
//   [data-replay-available]      the pieces not yet given, each [data-piece]
//   [data-replay-result]         the result, shown at the last step (data-reason, data-winner)
//   [data-replay-status]         what the current step did, in words
// The analysis (GET /api/games/ID/analysis, loaded after the record):
//   [data-role="analysis-bar"]   the bar beside the board: who was winning at this step;
//                                data-state (loading | ready | error), data-leader (0, 1, or
//                                none when even), data-distance, data-exact
//   [data-role="analysis"]       the panel beside it (data-state), with
//                                [data-role="analysis-summary"] (the standing in words),
//                                [data-role="analysis-mark"] at a move that changed the result
//                                (data-seat), action show-best-move, [data-role="best-move"]
//                                (data-square, data-give) once shown, action retry-analysis
//                                after a failure
//   [data-role="analysis-timeline"]  one cell per move chosen in the game ([data-step]: the
//                                step its move ended at; data-leader as the bar's)
//   [data-analysis-mark="blunder"]  on a move of the list that changed the result ("??")
//   [data-best="true"]           the best move's square on the board and its piece among the
//                                pieces left, while it is shown

import { h } from './dom.js';
import { pieceSvg, pieceName } from './pieces.js';
import { rulesSummary, resultText, moveText, squareName, patternKind } from './words.js';
import { formatMs } from './clock.js';
import { fetchAnalysis, GameAnalysis, standingWords, bestMoveWords } from './analysis.js';
import { boardFrame } from './board-frame.js';

/** Positions before the first move and after each one, from the archived moves. */
export function replayPositions(moves) {
  let board = new Array(16).fill(null);
  let available = Array.from({ length: 16 }, (_, i) => i);
  let inHand = null;
  const steps = [{ board, available, inHand, lastSquare: null, move: null }];
  for (const raw of moves) {
    const kind = raw.type === 'quarto' ? 'quarto' : raw.type;
    const move = { kind, seat: raw.seat, piece: null, square: null, line: raw.line ?? null, t: raw.t_ms ?? null };
    let lastSquare = steps[steps.length - 1].lastSquare;
    if (kind === 'give') {
      move.piece = raw.piece;
      available = available.filter((p) => p !== raw.piece);
      inHand = raw.piece;
    } else if (kind === 'place') {
      move.piece = inHand;
      move.square = raw.square;
      board = board.slice();
      board[raw.square] = inHand;
      inHand = null;
      lastSquare = raw.square;
    }
    steps.push({ board, available, inHand, lastSquare, move });
  }
  return steps;
}

function parseStep(text, total) {
  if (text === undefined || text === null || text === '') return null;
  const n = Number(text);
  if (!Number.isInteger(n)) return null;
  return Math.min(Math.max(n, 0), total);
}

export class ReplayView {
  constructor(id, step = null) {
    this.id = id;
    this.wantedStep = step;
    this.record = null;
    this.steps = null;
    this.step = 0;
    this.analysis = null; // a GameAnalysis once loaded
    this.analysisError = null;
    this.bestShown = null; // the analysed position whose best move is on the board
    this.root = h('section', { class: 'replay', 'aria-label': 'Replay', dataset: { role: 'replay', game: id, state: 'loading' } });
    this.onKey = (e) => this.keydown(e);
  }

  mount(container) {
    container.replaceChildren(this.root);
    document.addEventListener('keydown', this.onKey);
    this.load();
  }

  unmount() {
    document.removeEventListener('keydown', this.onKey);
    this.gone = true;
  }

  /** The address changed within this game (e.g. #/game/ID/5 typed in): go to that step. */
  update(step = null) {
    if (!this.steps || step === null) return;
    this.go(parseStep(step, this.steps.length - 1) ?? this.step, false);
  }

  async load() {
    this.root.dataset.state = 'loading';
    this.root.replaceChildren(h('div', { class: 'card' }, h('h2', {}, 'Replay'), h('p', { class: 'muted' }, 'Loading the game…')));
    let res;
    let body = null;
    try {
      res = await fetch(`api/games/${encodeURIComponent(this.id)}`, { cache: 'no-store' });
      body = await res.json().catch(() => null);
    } catch {
      res = null;
    }
    if (this.gone) return;
    if (!res || !res.ok || !body || !Array.isArray(body.moves)) {
      const notFound = res && res.status === 404;
      this.showError(notFound
        ? `There is no game with id “${this.id}”. Check the link, or find the game under Recent games in the lobby.`
        : (body && body.message) || 'The game could not be loaded. Please try again.', !notFound);
      return;
    }
    this.record = body;
    this.steps = replayPositions(body.moves);
    this.step = parseStep(this.wantedStep, this.steps.length - 1) ?? 0;
    this.build();
    this.loadAnalysis();
  }

  /** The solver's analysis: the replay works without it, and shows it once it comes. */
  async loadAnalysis() {
    this.analysis = null;
    this.analysisError = null;
    this.bestShown = null;
    this.drawAnalysis();
    const answer = await fetchAnalysis(this.id);
    if (this.gone) return;
    if (answer.ok) this.analysis = new GameAnalysis(answer.body, this.last, this.record.result);
    else this.analysisError = answer.message;
    this.markMoves();
    this.draw();
  }

  /** "??" on the moves that changed the result. */
  markMoves() {
    const marks = this.analysis ? this.analysis.marks() : [];
    for (const li of this.moveList.children) {
      const mark = marks.find((m) => m.step === Number(li.dataset.replayMove));
      li.querySelector('.blunder-mark')?.remove();
      li.classList.toggle('blunder', Boolean(mark));
      if (mark) {
        li.dataset.analysisMark = 'blunder';
        li.appendChild(h('span', { class: 'blunder-mark', title: `${this.seatName(mark.seat)} ${mark.words}` }, ' ??'));
      } else {
        delete li.dataset.analysisMark;
      }
    }
  }

  showError(text, retry) {
    this.root.dataset.state = 'error';
    this.root.replaceChildren(h('div', { class: 'card door', role: 'alert' },
      h('h2', {}, 'Replay'),
      h('p', { dataset: { role: 'replay-error' } }, text),
      h('div', { class: 'actions' },
        retry ? h('button', { type: 'button', class: 'primary', onclick: () => this.load() }, 'Try again') : null,
        h('a', { class: 'button secondary', href: '#/', dataset: { action: 'lobby' } }, 'Back to the lobby'))));
  }

  seatName(seat) {
    const p = this.record.players && this.record.players[seat];
    return p ? p.name : `Seat ${seat + 1}`;
  }

  get last() {
    return this.steps.length - 1;
  }

  /** Builds the parts that stay (header, players, controls) once; draw() fills in the rest. */
  build() {
    const r = this.record;
    const title = `${this.seatName(0)} vs ${this.seatName(1)}`;
    document.title = `Replay: ${title} — Quarto`;
    this.root.dataset.state = 'ready';
    this.root.dataset.replayTotal = String(this.last);

    const started = typeof r.started_ms === 'number' ? new Date(r.started_ms) : null;
    const lasted = typeof r.started_ms === 'number' && typeof r.ended_ms === 'number' ? formatMs(Math.max(0, r.ended_ms - r.started_ms)) : null;
    const meta = [
      r.room_name ? `Room “${r.room_name}”` : null,
      started ? `played ${started.toLocaleString()}` : null,
      lasted ? `lasted ${lasted}` : null,
    ].filter(Boolean).join(' · ');

    // Each button is named by its visible word; the arrows are decoration, the key a hint.
    const button = (hook, hint, keys, before, word, after, onclick) => h('button', {
      type: 'button', class: 'secondary', dataset: { [hook]: '' }, title: hint, 'aria-keyshortcuts': keys, onclick,
    }, before ? h('span', { 'aria-hidden': 'true' }, before) : null, word, after ? h('span', { 'aria-hidden': 'true' }, after) : null);
    this.controls = {
      first: button('replayFirst', 'The start (Home)', 'Home', '« ', 'First', null, () => this.go(0)),
      prev: button('replayPrev', 'Previous move (←)', 'ArrowLeft', '‹ ', 'Prev', null, () => this.go(this.step - 1)),
      next: button('replayNext', 'Next move (→)', 'ArrowRight', null, 'Next', ' ›', () => this.go(this.step + 1)),
      last: button('replayLast', 'The end (End)', 'End', null, 'Last', ' »', () => this.go(this.last)),
    };
    this.counter = h('span', { class: 'replay-counter', 'aria-live': 'polite' });

    this.players = h('div', { class: 'players' });
    this.status = h('p', { class: 'status', dataset: { replayStatus: '' } });
    this.resultBox = h('div');
    this.play = h('div', { class: 'play-area' });
    this.barFill = h('div', { class: 'eval-fill' });
    // The panel says the same in words, so the bar itself is left to the eyes.
    this.bar = h('div', { class: 'eval-bar', 'aria-hidden': 'true', dataset: { role: 'analysis-bar', state: 'loading' } }, this.barFill);
    this.analysisBox = h('div', { class: 'analysis', dataset: { role: 'analysis', state: 'loading' } });
    this.moveList = h('ol', { class: 'moves replay-moves', dataset: { role: 'replay-moves' } });

    this.root.replaceChildren(
      h('header', { class: 'room-head' },
        h('div', { class: 'room-title' },
          h('h2', {}, `Replay: ${title}`),
          h('p', { class: 'rules' }, rulesSummary(r.rules, r.clock)),
          meta ? h('p', { class: 'rules' }, meta) : null),
        h('div', { class: 'room-tools' },
          h('button', { type: 'button', class: 'secondary', dataset: { action: 'copy-replay-link' }, onclick: () => this.copyLink() }, 'Copy link'),
          h('a', { class: 'button secondary', href: '#/', dataset: { action: 'lobby' } }, 'Lobby'))),
      this.players,
      (r.first === 0 || r.first === 1) ? h('p', { class: 'coin' }, `Coin flip: ${this.seatName(r.first)} gave first.`) : null,
      h('div', { class: 'replay-controls', role: 'toolbar', 'aria-label': 'Step through the game (arrow keys, Home, End)' },
        this.controls.first, this.controls.prev, this.counter, this.controls.next, this.controls.last),
      this.status,
      this.resultBox,
      this.play,
      h('div', { class: 'moves-box' }, h('h3', {}, `Moves (${this.last})`),
        this.last ? this.moveList : h('p', { class: 'muted' }, 'No move was made.')));

    for (let k = 1; k <= this.last; k++) {
      const step = this.steps[k];
      const t = typeof step.move.t === 'number' ? h('span', { class: 'muted small' }, ` · ${formatMs(step.move.t)}`) : null;
      this.moveList.appendChild(h('li', { dataset: { replayMove: k } },
        h('button', { type: 'button', class: 'link', onclick: () => this.go(k) }, moveText(step.move, (s) => this.seatName(s))), t));
    }
    this.draw();
  }

  go(step, remember = true, best = null) {
    if (!this.steps) return;
    const next = Math.min(Math.max(step, 0), this.last);
    const changed = best !== this.bestShown;
    this.bestShown = best;
    if (next === this.step && this.root.dataset.replayStep === String(next) && !changed) return;
    this.step = next;
    if (remember) {
      // The address names the step, so a link (or a reload) comes back to it.
      history.replaceState(null, '', `#/game/${encodeURIComponent(this.id)}/${next}`);
    }
    this.draw();
  }

  keydown(e) {
    if (!this.steps || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
    const to = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, Home: 0, End: this.last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.go(to);
  }

  draw() {
    const r = this.record;
    const pos = this.steps[this.step];
    const atEnd = this.step === this.last;
    this.root.dataset.replayStep = String(this.step);

    this.controls.first.disabled = this.step === 0;
    this.controls.prev.disabled = this.step === 0;
    this.controls.next.disabled = atEnd;
    this.controls.last.disabled = atEnd;
    this.counter.textContent = `Move ${this.step} of ${this.last}`;

    // Who acts next: the receiver places after a give; the placer gives (or calls) after placing.
    let mover = null;
    if (!atEnd) {
      const m = pos.move;
      if (!m) mover = r.first;
      else if (m.kind === 'give') mover = 1 - m.seat;
      else mover = m.seat;
    }
    this.players.replaceChildren(...[0, 1].map((seat) => h('div', { class: `player seat${seat}${mover === seat ? ' active' : ''}` },
      h('div', { class: 'player-name' }, h('span', { class: 'name' }, this.seatName(seat))),
      mover === seat ? h('span', { class: 'turn-mark' }, pos.inHand !== null ? 'places next' : 'gives next') : null)));

    this.status.textContent = pos.move
      ? `Move ${this.step}: ${moveText(pos.move, (s) => this.seatName(s))}.`
      : `The start: ${this.seatName(r.first)} gives ${this.seatName(1 - r.first)} the first piece.`;

    if (atEnd && r.result) {
      const finalBoard = pos.board;
      const text = resultText({ result: r.result, you: null, board: finalBoard, rules: r.rules, seatName: (s) => this.seatName(s) });
      this.resultBox.replaceWith(this.resultBox = h('div', {
        class: 'result', role: 'status', dataset: { replayResult: '', reason: r.result.reason, winner: r.result.winner ?? 'none' },
      }, text));
    } else {
      this.resultBox.replaceWith(this.resultBox = h('div', { hidden: true }));
    }

    this.play.replaceChildren(h('div', { class: 'replay-board-row' }, this.bar, boardFrame(this.buildBoard(pos, atEnd))), this.buildSide(pos));
    this.drawAnalysis();

    for (const li of this.moveList.children) {
      const current = Number(li.dataset.replayMove) === this.step;
      li.classList.toggle('current', current);
      if (current) li.setAttribute('aria-current', 'step');
      else li.removeAttribute('aria-current');
    }
    this.showCurrentMove();
  }

  /** Scrolls the move list (a box of its own, style.css) to the current move; never the page,
   *  which would take the controls away from under the pointer. */
  showCurrentMove() {
    const list = this.moveList;
    const current = list.querySelector('[aria-current="step"]');
    if (!current || list.scrollHeight <= list.clientHeight) return;
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + current.offsetHeight - list.clientHeight;
  }

  buildBoard(pos, atEnd) {
    const line = atEnd && this.record.result && Array.isArray(this.record.result.line) ? this.record.result.line : [];
    const board = h('div', { class: 'board', dataset: { role: 'replay-board' }, role: 'group', 'aria-label': 'Board, 4 by 4: columns A to D, rows 1 to 4' });
    for (let sq = 0; sq < 16; sq++) {
      const p = pos.board[sq];
      const occupied = p !== null;
      const classes = ['square'];
      if (line.includes(sq)) classes.push('win');
      if (pos.lastSquare === sq) classes.push('last');
      if (occupied) classes.push('occupied');
      const best = this.shownBest();
      const isBest = best !== null && best.square === sq;
      if (isBest) classes.push('best');
      const cell = h('div', {
        class: classes.join(' '), role: 'img', dataset: { square: sq, piece: occupied ? p : null, best: isBest ? 'true' : null },
        'aria-label': `${squareName(sq)}: ${occupied ? pieceName(p) : 'empty'}${line.includes(sq) ? `, part of the winning ${patternKind(line)}` : ''}${isBest ? ', the best move' : ''}`,
      });
      if (occupied) cell.appendChild(pieceSvg(p));
      board.appendChild(cell);
    }
    return board;
  }

  buildSide(pos) {
    const hand = h('div', { class: 'in-hand', dataset: { replayInHand: '', piece: pos.inHand } });
    if (pos.inHand !== null) {
      hand.append(h('div', { class: 'hand-piece' }, pieceSvg(pos.inHand, { label: true })),
        h('div', { class: 'hand-text' }, h('span', { class: 'muted' }, 'Piece in hand'), h('strong', {}, pieceName(pos.inHand))));
    } else {
      hand.append(h('div', { class: 'hand-piece empty' }), h('div', { class: 'hand-text muted' }, 'No piece in hand'));
    }
    const left = new Set(pos.available);
    const avail = h('div', { class: 'available', dataset: { replayAvailable: '' }, role: 'group', 'aria-label': 'Pieces not yet given' });
    const best = this.shownBest();
    for (let p = 0; p < 16; p++) {
      const isBest = best !== null && best.give === p;
      avail.appendChild(left.has(p)
        ? h('span', { class: `piece-slot${isBest ? ' best' : ''}`, dataset: { piece: p, best: isBest ? 'true' : null }, title: pieceName(p) }, pieceSvg(p, { label: true }))
        : h('span', { class: 'piece-slot used', 'aria-hidden': 'true' }));
    }
    return h('div', { class: 'side' }, this.analysisBox, hand, h('h3', { class: 'side-title' }, `Pieces left (${pos.available.length})`), avail);
  }

  /** The best move being shown on the board (at the step where it could have been made), or null. */
  shownBest() {
    if (this.bestShown === null || !this.analysis) return null;
    const p = this.analysis.positions[this.bestShown];
    return p && p.step === this.step && p.best.length ? p.best[0] : null;
  }

  /**
   * Who was winning after each move of the game, at a glance: one cell per move, in the bar's
   * colours, the moves that changed the result underlined. For the eyes only: the move list and
   * the summary say the same to everyone.
   */
  buildTimeline() {
    const a = this.analysis;
    const marked = new Set(a.marks().map((m) => m.step));
    const cells = a.positions.map((p, i) => {
      const end = a.endOf(i);
      const standing = a.standingAt(end);
      const leader = standing && standing.leader !== null ? String(standing.leader) : 'none';
      const classes = ['tick', `leader-${leader}`];
      if (marked.has(end)) classes.push('marked');
      if (p.step < this.step && this.step <= end) classes.push('current');
      return h('span', { class: classes.join(' '), dataset: { step: end, leader }, title: `Move ${end}: ${standingWords(standing, (s) => this.seatName(s))}` });
    });
    return h('div', { class: 'analysis-timeline', 'aria-hidden': 'true', dataset: { role: 'analysis-timeline' } }, cells);
  }

  /** The bar and the panel for this step. */
  drawAnalysis() {
    if (!this.bar) return;
    const state = this.analysis ? 'ready' : this.analysisError ? 'error' : 'loading';
    this.bar.dataset.state = state;
    this.analysisBox.dataset.state = state;
    const heading = h('h3', { class: 'side-title' }, 'Analysis');
    if (state === 'loading') {
      delete this.bar.dataset.leader;
      this.barFill.style.height = '50%';
      this.analysisBox.replaceChildren(heading, h('p', { class: 'muted', dataset: { role: 'analysis-summary' } }, 'Analysing the game…'));
      return;
    }
    if (state === 'error') {
      delete this.bar.dataset.leader;
      this.barFill.style.height = '50%';
      this.analysisBox.replaceChildren(heading, h('p', { dataset: { role: 'analysis-summary' } }, this.analysisError),
        h('button', { type: 'button', class: 'secondary', dataset: { action: 'retry-analysis' }, onclick: () => this.loadAnalysis() }, 'Try again'));
      return;
    }
    const standing = this.analysis.standingAt(this.step);
    // Seat 0's share of the bar, from the bottom: all of it when seat 0 wins, half when even.
    const share = !standing || standing.leader === null ? 50 : standing.leader === 0 ? 100 : 0;
    this.barFill.style.height = `${share}%`;
    Object.assign(this.bar.dataset, {
      step: String(this.step),
      leader: standing && standing.leader !== null ? String(standing.leader) : 'none',
      distance: standing ? String(standing.distance) : '',
      exact: standing ? String(standing.exact) : '',
    });
    const parts = [heading, h('p', { dataset: { role: 'analysis-summary' } }, standingWords(standing, (s) => this.seatName(s))),
      this.buildTimeline(),
      h('p', { class: 'muted small' }, `The bar beside the board: ${this.seatName(0)} light, from the bottom; ${this.seatName(1)} dark, from the top.`)];
    if (standing && !standing.exact) {
      parts.push(h('p', { class: 'muted small' }, 'Early positions are searched for a limited time: a win found is certain, an even position may not be.'));
    }
    // The move being looked at; or, while its best move is shown, the one that was played instead.
    const showing = this.analysis.marks().find((m) => m.position === this.bestShown);
    const mark = showing && this.analysis.positions[showing.position].step === this.step ? showing : this.analysis.markAround(this.step);
    if (mark) {
      const position = this.analysis.positions[mark.position];
      parts.push(h('p', { class: 'analysis-mark', dataset: { role: 'analysis-mark', seat: mark.seat } },
        h('strong', {}, '?? '), `${this.seatName(mark.seat)} ${mark.words} with move ${mark.step}.`));
      if (position.best.length) {
        const shown = this.bestShown === mark.position && this.step === position.step;
        // The best move is shown where it could have been played: at the start of the move
        // marked, which may be a step or two back. Both the button and the answer say so.
        if (shown) {
          const best = position.best[0];
          parts.push(h('p', { class: 'best-move', role: 'status', dataset: { role: 'best-move', square: best.square, give: best.give } },
            bestMoveWords(position.step, mark.step, this.seatName(mark.seat), best)));
        } else {
          parts.push(h('button', { type: 'button', class: 'secondary', dataset: { action: 'show-best-move' },
            onclick: () => this.go(position.step, true, mark.position) },
          position.step === this.step ? 'Show best move' : `Show best move (back to move ${position.step})`));
        }
      }
    }
    this.analysisBox.replaceChildren(...parts);
  }

  async copyLink() {
    const link = `${window.location.origin}${window.location.pathname}#/game/${encodeURIComponent(this.id)}/${this.step}`;
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      window.prompt('Copy this link to the replay:', link);
    }
  }
}
