// Where the keyboard goes after an action that replaces the page (a name given, a room created,
// an invitation accepted): the view that follows takes the focus on its main control, instead
// of leaving it on the page's body with the element that had it gone. main.js asks once the
// view that follows is drawn (not a placeholder while it connects or loads).

let expected = false;

/** The next view drawn is where the player arrives. */
export function expectArrival() {
  expected = true;
}

/** Whether the view just drawn is where the player arrives (asked once). */
export function takeArrival() {
  const was = expected;
  expected = false;
  return was;
}

// A view without focusFirst(): its main control, found by the hooks it keeps across redraws
// (the invitation link's copy button in a waiting room, else the board's Tab stop).
const MAIN_CONTROLS = ['[data-action="copy-invite"]', '[data-role="available"] [tabindex="0"]', '[data-role="board"] [tabindex="0"]'];

/** Focuses the main control of `view` (drawn in `container`); false when it has none. */
export function focusMainControl(view, container) {
  if (typeof view.focusFirst === 'function') {
    view.focusFirst();
    return true;
  }
  for (const selector of MAIN_CONTROLS) {
    const e = container.querySelector(selector);
    if (e && !e.disabled && e.getAttribute('aria-disabled') !== 'true') {
      e.focus({ preventScroll: true });
      return true;
    }
  }
  return false;
}
