// "How to play" (#/rules): the rules, the claim window, the variants and a legend of the four
// traits, drawn with the game's own pieces. Needs no name and no connection.
//
// Hooks: data-role="how-to-play" (the page), data-role="trait-legend" (the legend; one
// data-role="trait" data-attribute=KEY per trait), data-action="lobby".

import { h } from './dom.js';
import { pieceSvg, ATTRIBUTES } from './pieces.js';
import { squareName } from './words.js';
import { miniFrame } from './board-frame.js';

const TRAIT_WORDS = {
  color: { name: 'Colour', text: 'light or dark wood' },
  height: { name: 'Height', text: 'short or tall' },
  shape: { name: 'Shape', text: 'round or square' },
  fill: { name: 'Top', text: 'solid, or hollow with a hole in the top' },
};

function legend() {
  return h('ul', { class: 'trait-legend', dataset: { role: 'trait-legend' } }, ATTRIBUTES.map((a) => {
    const w = TRAIT_WORDS[a.key];
    // The same piece with this trait off and on: every other trait stays the same.
    const base = a.key === 'color' ? 2 : a.key === 'height' ? 1 : 3;
    const off = base & ~a.bit;
    const on = base | a.bit;
    return h('li', { class: 'trait', dataset: { role: 'trait', attribute: a.key } },
      h('div', { class: 'trait-pieces' },
        h('figure', {}, pieceSvg(off), h('figcaption', {}, a.off)),
        h('figure', {}, pieceSvg(on), h('figcaption', {}, a.on))),
      h('div', {}, h('strong', {}, w.name), h('span', { class: 'muted' }, `: ${w.text}`)));
  }));
}

/** A small board drawing with the squares of `line` marked. */
function miniBoard(line, label) {
  const board = h('div', { class: 'mini-board', role: 'img', 'aria-label': label });
  for (let sq = 0; sq < 16; sq++) board.appendChild(h('span', { class: line.includes(sq) ? 'on' : '' }));
  return h('figure', { class: 'mini' }, miniFrame(board), h('figcaption', {}, label));
}

export class RulesView {
  constructor() {
    this.root = h('article', { class: 'card rules-page', dataset: { role: 'how-to-play' }, 'aria-labelledby': 'rules-title' });
  }

  title() {
    return 'How to play — Quarto';
  }

  mount(container) {
    const line = (squares) => squares.map(squareName).join(' ');
    this.root.replaceChildren(
      h('div', { class: 'card-title-row' },
        h('h2', { id: 'rules-title' }, 'How to play Quarto'),
        h('a', { class: 'button secondary', href: '#/', dataset: { action: 'lobby' } }, 'Back to the lobby')),
      h('p', {}, 'Two players, a 4×4 board and 16 pieces, all different. The twist: you never choose the piece you play. ',
        'Your opponent chooses it for you, and you choose theirs.'),

      h('h3', {}, 'The four traits'),
      h('p', {}, 'Every piece has one of each pair, and no two pieces are alike:'),
      legend(),

      h('h3', {}, 'A turn'),
      h('ol', {},
        h('li', {}, 'A coin flip decides who starts. The first player gives the other a piece from the pool.'),
        h('li', {}, 'You place the piece you were given on any empty square.'),
        h('li', {}, 'Then you either call “Quarto!” (if your piece made one), or choose a piece from the pool and give it to your opponent.')),

      h('h3', {}, 'Quarto!'),
      h('p', {}, 'A Quarto is a line of four pieces that share at least one trait: four dark pieces, four tall ones, four hollow ones… ',
        'A line is a row, a column or one of the two diagonals. Call it right after the placement that made it: ',
        'press Quarto! (or the Q key) and point at its four squares. The line must include the piece you just placed.'),
      h('div', { class: 'minis' },
        miniBoard([0, 1, 2, 3], `a row: ${line([0, 1, 2, 3])}`),
        miniBoard([2, 6, 10, 14], `a column: ${line([2, 6, 10, 14])}`),
        miniBoard([0, 5, 10, 15], `a diagonal: ${line([0, 5, 10, 15])}`)),
      h('p', {}, 'A wrong call is refused and the game goes on (unless the room says a wrong call loses). ',
        'If the board fills up and nobody has called a Quarto, the game is a draw.'),

      h('h3', {}, 'The claim window: a missed Quarto'),
      h('p', {}, 'If your opponent completes a Quarto and gives you a piece instead of calling it, you may claim it: ',
        'press Quarto! and point at the line before you place your piece, within the room’s claim time (10 seconds unless it says otherwise). ',
        'A claim wins the game. Once you have placed your piece, or the time is up, it is too late. ',
        'The game shows “Missed Quarto?” when the last piece completed a line of four, whether or not those pieces share a trait: that is for you to see.'),

      h('h3', {}, 'Clocks'),
      h('p', {}, 'Each move has its own time (for example 60 seconds): placing the piece you were given and then giving one. ',
        'The time starts again in full for every move. Running out loses the game. An untimed room has no clock.'),

      h('h3', {}, 'Variants'),
      h('dl', { class: 'variants' },
        h('dt', {}, 'Standard'), h('dd', {}, 'All four traits count; rows, columns and diagonals.'),
        h('dt', {}, 'Advanced: 2×2 squares'), h('dd', {},
          'Four pieces in a 2×2 square also make a Quarto (there are nine such squares, for example ', line([0, 1, 4, 5]), ').',
          h('div', { class: 'minis' }, miniBoard([5, 6, 9, 10], `a 2×2 square: ${line([5, 6, 9, 10])}`))),
        h('dt', {}, 'Beginner: fewer traits'), h('dd', {},
          'Only some traits count, so lines are easier to see. The Beginner preset counts colour and height only; ',
          'the form lets you choose any traits.'),
        h('dt', {}, 'A wrong call loses'), h('dd', {}, 'Calling a Quarto that is not there loses the game at once.')),

      h('h3', {}, 'Keyboard'),
      h('p', {}, 'Tab moves between the board, the pool of pieces and the buttons; the arrow keys move within the board and the pool; ',
        'Enter or Space places or gives; Q calls Quarto; Escape cancels a call or a resignation.'),

      h('p', {}, h('a', { href: '#/', dataset: { action: 'lobby' } }, 'Start a game from the lobby'), '.'));
    container.replaceChildren(this.root);
  }

  update() {}
}
