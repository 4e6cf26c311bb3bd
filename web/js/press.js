// A press in progress (a mouse button, a finger, a pen) holds back the page's redraws. The views
// draw themselves anew on every change, and a redraw between the press and its release puts a
// new element under the release: the browser then sends the click to neither element, and the
// player's click is lost (a message from the server can come at any moment). Redraws wait for
// the release, and run right after the click it makes.

// A press the page never hears end (released outside the window) holds nothing longer than this.
const LONGEST_HOLD_MS = 2000;

const down = new Set(); // pointerId of each pointer pressed
const held = new Set(); // what to run once no pointer is pressed
let holdLimit = null;

/** True while a pointer is pressed on the page. */
export function pressing() {
  return down.size > 0;
}

/** Runs `fn` now, or, while a pointer is pressed, once it is released (once, however often asked). */
export function afterPress(fn) {
  if (pressing()) held.add(fn);
  else fn();
}

function runHeld() {
  if (pressing()) return;
  const fns = [...held];
  held.clear();
  for (const fn of fns) fn();
}

function releaseAll() {
  down.clear();
  clearTimeout(holdLimit);
  runHeld();
}

addEventListener('pointerdown', (e) => {
  down.add(e.pointerId);
  clearTimeout(holdLimit);
  holdLimit = setTimeout(releaseAll, LONGEST_HOLD_MS);
}, true);

for (const type of ['pointerup', 'pointercancel']) {
  addEventListener(type, (e) => {
    down.delete(e.pointerId);
    if (pressing()) return;
    clearTimeout(holdLimit);
    // The click comes after the release, in the same task: the redraw follows it.
    if (held.size > 0) setTimeout(runHeld, 0);
  }, true);
}

addEventListener('blur', releaseAll);
