// Under the game: who gave first (the coin flip), and the moves so far in words (words.js), in a
// list that folds (data-role="moves-toggle") and stays as the player left it across redraws.

import { h } from './dom.js';
import { moveText } from './words.js';

/** "Coin flip: Ann (you) gave first.", once the game has begun (or a player left it), else null. */
export function coinText(room) {
  if (!((room.status !== 'waiting' || room.departed) && (room.first === 0 || room.first === 1))) return null;
  return `Coin flip: ${room.seatName(room.first)}${room.first === room.you ? ' (you)' : ''} gave first.`;
}

/** The coin flip's line, or null. */
export function coinLine(room) {
  const text = coinText(room);
  return text === null ? null : h('p', { class: 'coin', dataset: { role: 'coin' } }, text);
}

/** The moves of `room`; `view.movesOpen` remembers whether the list is open. */
export function moveList(view, room) {
  const list = h('ol', { class: 'moves', dataset: { role: 'moves' } });
  for (const m of room.moves) list.appendChild(h('li', {}, moveText(m, (seat) => room.seatName(seat))));
  return h('details', { class: 'moves-box', open: view.movesOpen !== false, ontoggle: (e) => { view.movesOpen = e.target.open; } },
    h('summary', { dataset: { role: 'moves-toggle' } }, `Moves (${room.moves.length})`),
    room.moves.length ? list : h('p', { class: 'muted' }, 'No moves yet.'));
}
