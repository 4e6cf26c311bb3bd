// The board's frame: the columns A–D above it and the rows 1–4 beside it, named as squareName
// (words.js) names the squares, so that "A2 B2 C2 D2" in a prompt, the move list or How to play
// can be found at a glance. The squares already say their names to screen readers: the labels
// are for the eyes only. Each label sits over the middle of its column or row (style.css,
// .board-frame and .mini-frame).

import { h } from './dom.js';
import { squareName } from './words.js';

/** `board` (the 4×4 grid of squares) in a frame with its coordinates. */
export function boardFrame(board) {
  const labels = [];
  for (let i = 0; i < 4; i++) {
    labels.push(h('span', { class: `coord col c${i}`, dataset: { boardCoord: 'column' } }, squareName(i)[0]));
    labels.push(h('span', { class: `coord row r${i}`, dataset: { boardCoord: 'row' } }, squareName(i * 4).slice(1)));
  }
  return h('div', { class: 'board-frame' },
    h('div', { class: 'board-box' }, board, h('div', { class: 'coords', 'aria-hidden': 'true' }, labels)));
}

/** How to play's small diagram of a board (`board`, fixed cells) with its coordinates. */
export function miniFrame(board) {
  const names = (at) => [0, 1, 2, 3].map((i) => h('span', { class: 'mini-coord', dataset: { boardCoord: 'mini' } }, at(i)));
  return h('div', { class: 'mini-frame' },
    h('div', { class: 'mini-cols', 'aria-hidden': 'true' }, names((i) => squareName(i)[0])),
    h('div', { class: 'mini-rows', 'aria-hidden': 'true' }, names((i) => squareName(i * 4).slice(1))),
    board);
}
