// The game view's keyboard: the board and the pool are one Tab stop each, with the arrow keys
// (and Home, End) inside; each remembers where it was left (the view's boardCursor and
// poolCursor). When a redraw takes away the element that had the focus (a piece just given, a
// question just answered), the focus goes where the player's next action is, not to the page.

/** Handles an arrow key on a square or a piece of `view`; returns whether it did. */
export function arrowKey(view, e) {
  const t = e.target;
  const sq = t && t.closest && t.closest('[data-square]');
  if (sq && view.root.contains(sq)) {
    const n = Number(sq.dataset.square);
    const row = Math.floor(n / 4);
    const to = {
      ArrowLeft: n % 4 ? n - 1 : null, ArrowRight: n % 4 < 3 ? n + 1 : null,
      ArrowUp: n >= 4 ? n - 4 : null, ArrowDown: n < 12 ? n + 4 : null, Home: row * 4, End: row * 4 + 3,
    }[e.key];
    if (to === undefined) return false;
    if (to !== null) focusIn(view.root, '[data-role="board"]', `[data-square="${to}"]`, () => { view.boardCursor = to; });
    return true;
  }
  const piece = t && t.closest && t.closest('[data-role="available"] [data-piece]');
  if (piece && view.root.contains(piece)) {
    const to = poolTarget(piece, e.key);
    if (to === undefined) return false;
    if (to !== null) focusIn(view.root, '[data-role="available"]', `[data-piece="${to}"]`, () => { view.poolCursor = to; });
    return true;
  }
  return false;
}

/** Moves a group's Tab stop to `selector` and focuses it. */
function focusIn(root, group, selector, remember) {
  remember();
  const box = root.querySelector(group);
  if (!box) return;
  for (const b of box.querySelectorAll('[tabindex="0"]')) b.setAttribute('tabindex', '-1');
  const target = box.querySelector(selector);
  if (target) { target.setAttribute('tabindex', '0'); target.focus(); }
}

/** Where an arrow key goes in the pool: its slots are a grid (4 or 8 wide), some empty. */
function poolTarget(from, key) {
  const pool = from.closest('[data-role="available"]');
  const here = Number(from.dataset.piece);
  const left = [...pool.querySelectorAll('[data-piece]')].map((b) => Number(b.dataset.piece));
  const cols = Math.max(1, getComputedStyle(pool).gridTemplateColumns.split(' ').filter(Boolean).length);
  const i = left.indexOf(here);
  const step = (d) => {
    for (let s = here + d; s >= 0 && s < 16; s += d) if (left.includes(s)) return s;
    return null;
  };
  switch (key) {
    case 'ArrowLeft': return i > 0 ? left[i - 1] : null;
    case 'ArrowRight': return i < left.length - 1 ? left[i + 1] : null;
    case 'ArrowUp': return step(-cols);
    case 'ArrowDown': return step(cols);
    case 'Home': return left[0];
    case 'End': return left[left.length - 1];
    default: return undefined;
  }
}

/** The board's Tab stop: the square last focused, else one the player can use now. */
export function boardStop(view, room, placing) {
  if (Number.isInteger(view.boardCursor)) return view.boardCursor;
  const free = room.board.findIndex((x) => x === null);
  if (placing && free >= 0) return free;
  if (view.selecting) {
    const taken = room.board.findIndex((x) => x !== null);
    if (taken >= 0) return taken;
  }
  return room.lastSquare ?? 0;
}

/** The pool's Tab stop: the piece last focused while it is there, else the nearest one after it. */
export function poolStop(view, room) {
  const left = room.available.slice().sort((a, b) => a - b);
  if (!left.length) return null;
  const want = Number.isInteger(view.poolCursor) ? view.poolCursor : left[0];
  return left.find((p) => p >= want) ?? left[left.length - 1];
}

/**
 * The focus was in the view and its element is gone: it goes to the next action. While a game
 * is on, that is the pool when the player gives, else the board (a free square, where the
 * piece to come will go); once it is over, the rematch (or the way back to the tournament).
 */
export function focusNextAction(view, room) {
  const a = document.activeElement;
  if (a && a !== document.body && view.root.contains(a)) return;
  let target = null;
  if (room.isPlayer && room.status === 'playing') {
    if (room.turn === room.you && room.phase === 'give' && room.available.length) {
      target = view.root.querySelector('[data-role="available"] [tabindex="0"]');
    } else {
      const here = view.boardCursor;
      if (!Number.isInteger(here) || room.board[here] !== null) {
        const free = room.board.map((p, sq) => (p === null ? sq : -1)).filter((sq) => sq >= 0);
        if (free.length) view.boardCursor = free.find((sq) => sq > (here ?? -1)) ?? free[0];
        for (const b of view.root.querySelectorAll('[data-role="board"] [data-square]')) {
          b.setAttribute('tabindex', Number(b.dataset.square) === view.boardCursor ? '0' : '-1');
        }
      }
      target = view.root.querySelector('[data-role="board"] [tabindex="0"]');
    }
  } else if (room.status === 'finished' || room.departed) {
    target = view.root.querySelector('[data-action="rematch"]:not(:disabled), [data-action="back-to-tournament"], [data-action="replay"]');
  }
  if (target) target.focus({ preventScroll: true });
}
