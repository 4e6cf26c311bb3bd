// The panel beside the board: the piece in hand, the player's actions (Quarto!, Pass, Resign;
// once the game is over Rematch or Back to the tournament, and Replay; a spectator's Take the
// free seat), and the pieces left to give, a grid with one Tab stop and the arrow keys inside
// (game-keys.js), as on the board.

import { h } from './dom.js';
import { pieceSvg, pieceName } from './pieces.js';
import { tournamentHref } from './tournaments.js';
import { poolStop } from './game-keys.js';
import { askConfirm, confirmGroup } from './game-confirm.js';
import { canGive, canPass } from './game-turn.js';

function inHand(room) {
  const hand = h('div', { class: 'in-hand', dataset: { role: 'in-hand' } });
  if (room.inHand !== null && room.status === 'playing') {
    const holder = room.turn;
    const whose = holder === room.you ? 'Your piece to place' : `${room.seatName(holder)}'s piece to place`;
    hand.append(h('div', { class: 'hand-piece', dataset: { handPiece: room.inHand } }, pieceSvg(room.inHand, { label: true })),
      h('div', { class: 'hand-text' }, h('span', { class: 'muted' }, whose), h('strong', {}, pieceName(room.inHand))));
  } else {
    hand.append(h('div', { class: 'hand-piece empty' }), h('div', { class: 'hand-text muted' }, 'No piece in hand'));
  }
  return hand;
}

function actions(view, room) {
  const me = room.you;
  const box = h('div', { class: 'actions' });
  if (room.isPlayer && room.status === 'playing') {
    const callable = room.canCall(me);
    // The same button in the claim window as at any other time: the prompt above the board
    // says what there is to judge, and nothing here may hint that a call would win.
    box.appendChild(h('button', {
      type: 'button', class: `quarto${view.selecting ? ' active' : ''}`, dataset: { action: 'quarto' },
      disabled: !callable && !view.selecting, 'aria-pressed': String(!!view.selecting), 'aria-keyshortcuts': 'Q',
      title: view.selecting ? 'Cancel the call (Q or Escape)' : 'Call Quarto (Q)',
      onclick: () => view.clickQuarto(),
    }, view.selecting ? 'Cancel call' : 'Quarto!', h('kbd', { class: 'shortcut', 'aria-hidden': 'true' }, 'Q')));
    if (canPass(room, view.selecting)) {
      box.appendChild(h('button', { type: 'button', dataset: { action: 'pass' }, onclick: () => view.app.act(room, 'pass') }, 'Pass'));
    }
    box.appendChild(view.confirming && view.confirming.kind === 'resign' ? confirmGroup(view, 'resign')
      : h('button', { type: 'button', class: 'danger', dataset: { action: 'resign' }, onclick: () => askConfirm(view, 'resign') }, 'Resign'));
  }
  const tlink = view.tournamentLink();
  if (tlink && room.status === 'finished') {
    // The server refuses a rematch in a tournament room: the tournament pairs the next game.
    box.appendChild(h('a', { class: `button ${room.isPlayer ? 'primary' : 'secondary'}`, href: tournamentHref(tlink.tournament),
      dataset: { action: 'back-to-tournament' } }, 'Back to the tournament'));
  } else if (room.isPlayer && room.status === 'finished') {
    const asked = room.rematch[me];
    box.appendChild(h('button', { type: 'button', class: 'primary', dataset: { action: 'rematch' }, disabled: asked,
      onclick: () => view.app.act(room, 'rematch') }, asked ? 'Rematch asked…' : 'Rematch'));
  }
  if ((room.status === 'finished' || room.departed) && room.gameId) {
    box.appendChild(h('a', { class: 'button secondary', href: `#/game/${encodeURIComponent(String(room.gameId))}`,
      dataset: { action: 'replay' } }, 'Replay'));
  }
  if (!room.isPlayer && room.freeSeat !== null && room.status === 'waiting' && room.rated && !view.app.me.account) {
    box.appendChild(h('a', { class: 'button primary', href: '#/account', dataset: { action: 'log-in-to-play' } }, 'Log in to play'));
  } else if (!room.isPlayer && room.freeSeat !== null && room.status === 'waiting') {
    box.appendChild(h('button', { type: 'button', class: 'primary', dataset: { action: 'join-player' },
      onclick: () => view.app.join(room.id, 'player') }, 'Take the free seat'));
  }
  if (!room.isPlayer) box.appendChild(h('p', { class: 'muted' }, 'You are watching this game.'));
  return box;
}

function pool(view, room) {
  const giving = canGive(room, view.selecting);
  const avail = h('div', { class: `available${giving ? ' giving' : ''}`, dataset: { role: 'available' }, role: 'group', 'aria-label': 'Pieces left to give' });
  const left = new Set(room.available);
  const stop = poolStop(view, room);
  for (let p = 0; p < 16; p++) {
    if (left.has(p)) {
      // As on the board: one Tab stop, the arrow keys inside, aria-disabled while not giving.
      avail.appendChild(h('button', {
        type: 'button', class: 'piece-btn', dataset: { piece: p, slot: p }, 'aria-label': giving ? `Give ${pieceName(p)}` : pieceName(p),
        title: pieceName(p), 'aria-disabled': giving ? null : 'true', tabindex: p === stop ? '0' : '-1',
        onclick: () => view.clickPiece(p), onfocus: () => { view.poolCursor = p; },
      }, pieceSvg(p)));
    } else {
      avail.appendChild(h('span', { class: 'piece-slot used', 'aria-hidden': 'true' }));
    }
  }
  return avail;
}

/** The side panel of `room`, played through `view`. */
export function sidePanel(view, room) {
  return h('div', { class: `side${room.status === 'playing' ? '' : ' over'}` },
    inHand(room),
    actions(view, room),
    h('h3', { class: 'side-title' }, `Pieces left (${room.available.length})`),
    pool(view, room));
}
