// The game view's board: 16 squares, each a button that says what is on it and why it is marked
// (the last placement, the squares chosen for a Quarto call, the winning line, the squares the
// claim prompt names), inside its coordinates (board-frame.js). Every square stays focusable
// (the arrow keys cross occupied ones, game-keys.js); one of them is the board's single Tab
// stop, and one that does nothing now says so with aria-disabled.

import { h } from './dom.js';
import { pieceSvg, pieceName } from './pieces.js';
import { squareName, patternKind } from './words.js';
import { boardFrame } from './board-frame.js';
import { promptedSquares } from './claim-prompt.js';
import { boardStop } from './game-keys.js';
import { canPlace } from './game-turn.js';

/**
 * How square `sq` of `room` looks: {piece (or null), enabled, classes, label, chosen}. Beside the
 * room: `selecting` (the squares chosen for a Quarto call, or null), `placing` (the player has a
 * piece to place), `prompted` (the Set of squares the claim prompt names) and `line` (the
 * winning line's squares, or []). `chosen` is null when no call is being made.
 */
export function squareLook(room, sq, { selecting = null, placing = false, prompted = new Set(), line = [] } = {}) {
  const p = room.board[sq];
  const occupied = p !== null && p !== undefined;
  const chosen = selecting ? selecting.includes(sq) : null;
  const classes = ['square'];
  if (line.includes(sq)) classes.push('win');
  if (chosen) classes.push('selected');
  if (room.lastSquare === sq) classes.push('last');
  if (occupied) classes.push('occupied');
  if (prompted.has(sq)) classes.push('prompted');
  let label = `${squareName(sq)}: ${occupied ? pieceName(p) : 'empty'}`;
  if (chosen) label += ', chosen for the Quarto call';
  if (line.includes(sq)) label += `, part of the winning ${patternKind(line)}`;
  else if (prompted.has(sq)) label += ', named in the claim prompt';
  return {
    piece: occupied ? p : null,
    enabled: selecting ? occupied : (placing && !occupied),
    classes: classes.join(' '),
    label,
    chosen,
  };
}

/** The board of `room` in its frame, played through `view` (clickSquare, boardCursor). */
export function boardBox(view, room) {
  const line = room.result && Array.isArray(room.result.line) ? room.result.line : [];
  const placing = canPlace(room, view.selecting);
  const prompted = promptedSquares(room);
  const board = h('div', { class: `board${placing ? ' placing' : ''}${view.selecting ? ' selecting' : ''}`, dataset: { role: 'board' }, role: 'group', 'aria-label': 'Board, 4 by 4: columns A to D, rows 1 to 4' });
  const cursor = boardStop(view, room, placing);
  for (let sq = 0; sq < 16; sq++) {
    const look = squareLook(room, sq, { selecting: view.selecting, placing, prompted, line });
    const btn = h('button', {
      type: 'button', class: look.classes, dataset: { square: sq, piece: look.piece, claimLine: prompted.has(sq) ? 'true' : null },
      'aria-label': look.label, 'aria-pressed': look.chosen === null ? null : String(look.chosen),
      'aria-disabled': look.enabled ? null : 'true', tabindex: sq === cursor ? '0' : '-1',
      onclick: () => view.clickSquare(sq), onfocus: () => { view.boardCursor = sq; },
    });
    if (look.piece !== null) btn.appendChild(pieceSvg(look.piece));
    board.appendChild(btn);
  }
  return h('div', { class: 'board-wrap' }, boardFrame(board));
}
