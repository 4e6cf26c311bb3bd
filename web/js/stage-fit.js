// What a player needs to move fits the window without scrolling: the board takes the height the
// rest leaves it (its width on a phone, where everything is stacked; beside it, on a wider
// screen, the piece in hand, the buttons and the pool, which turns 8 wide when 4 wide would
// reach below the window). Measured after each redraw of the game view, each tick (a notice
// above may come or go) and each resize; the result is the game root's --board-size.

// The phone layout's breakpoint (as in style.css).
const PHONE = '(max-width: 760px)';
// Room kept below the lowest thing that must show, and the smallest board worth drawing.
const MARGIN = 8;
const SMALLEST = 160;
// The largest board: beyond it the pieces are large enough, and the eye has far to travel.
const LARGEST = 560;
// The side column's least width beside the board (style.css, .play-area), and the gap.
const SIDE_MIN = 240;
const GAP = 16;

/** Sizes the board of the game view `root`; returns the size set (px), or null. */
export function fitStage(root) {
  const stage = root.querySelector('.stage');
  const board = root.querySelector('[data-role="board"]');
  const frame = board && board.closest('.board-frame');
  if (!stage || !frame) return null;
  const docTop = (e) => e.getBoundingClientRect().top + window.scrollY;
  const labels = frame.offsetWidth - board.offsetWidth; // the rows' coordinates beside the board
  let size;
  if (window.matchMedia(PHONE).matches) {
    const rest = stage.offsetHeight - board.offsetHeight;
    const room = window.innerHeight - docTop(stage) - rest - MARGIN;
    size = Math.min(frame.parentElement.clientWidth - labels, room);
  } else {
    const play = root.querySelector('.play-area');
    const room = window.innerHeight - docTop(board) - MARGIN;
    size = Math.min(play.clientWidth - labels - SIDE_MIN - GAP, room, LARGEST);
  }
  size = Math.floor(Math.max(SMALLEST, size));
  if (root.style.getPropertyValue('--board-size') !== `${size}px`) root.style.setProperty('--board-size', `${size}px`);
  fitPool(root);
  return size;
}

/** Beside the board, the pool 4 wide when the side column then fits the window, else 8 wide. */
function fitPool(root) {
  const play = root.querySelector('.play-area');
  const side = root.querySelector('.side');
  if (!play || !side) return;
  if (window.matchMedia(PHONE).matches) {
    play.classList.remove('pool-wide');
    return;
  }
  // Trying 4 wide lays the page out twice: only when what decides it has changed (this runs on
  // every tick of the clocks).
  const inputs = `${window.innerHeight} ${play.clientWidth} ${side.getBoundingClientRect().top + window.scrollY} ${side.childElementCount}`;
  if (play.dataset.poolFitFor === inputs) return;
  const fits = () => side.getBoundingClientRect().bottom + window.scrollY <= window.innerHeight - MARGIN;
  play.classList.remove('pool-wide');
  if (!fits()) play.classList.add('pool-wide');
  play.dataset.poolFitFor = inputs;
}
