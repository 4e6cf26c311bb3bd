// The question a resignation asks before it is sent. Resign, and Leave during a game in
// progress, are replaced in place by "Resign this game? [Keep playing] [Yes, resign]"; the
// question waits as long as the player takes, and its confirm button stays disabled for a
// moment, so that a double click on Resign cannot resign on its own. Keep playing, Escape and a
// press elsewhere take it back. The game view holds the question (`view.confirming`:
// {kind: 'resign' | 'leave', armed}, or null) and draws it with confirmGroup.

import { h } from './dom.js';
import { afterPress } from './press.js';
import { canResign } from './game-turn.js';

const ARM_MS = 400;

/** Resign or Leave (resigns) asks first: the question replaces the button, in place. */
export function askConfirm(view, kind) {
  const room = view.room;
  if (!room || !canResign(room)) return;
  view.confirming = { kind, armed: performance.now() + ARM_MS };
  view.update();
  clearTimeout(view.armTimer);
  view.armTimer = setTimeout(() => { if (view.confirming) view.update(); }, ARM_MS + 20);
  // The safe answer takes the focus: a second Enter keeps playing.
  const cancel = view.root.querySelector('[data-action="cancel-resign"]');
  if (cancel) cancel.focus({ preventScroll: true });
}

/** Takes the question back. The focus returns to the button it came from when the player
 *  cancelled; after a click elsewhere it stays where that click put it. */
export function cancelConfirm(view, byPlayer = true) {
  if (!view.confirming) return;
  const kind = view.confirming.kind;
  view.confirming = null;
  view.update();
  if (byPlayer) {
    const back = view.root.querySelector(`[data-action="${kind}"]`);
    if (back) back.focus({ preventScroll: true });
  }
}

/** A press outside the question takes it back, after the click it makes (press.js): a click
 *  on a piece both gives it and answers "no". Not the second press of a double click on
 *  Resign, though, which lands where the button was. */
export function pressOutside(view, e) {
  const c = view.confirming;
  if (c && performance.now() >= c.armed && !(e.target.closest && e.target.closest('.confirm'))) afterPress(() => cancelConfirm(view, false));
}

function confirmResign(view) {
  const room = view.room;
  const c = view.confirming;
  view.confirming = null;
  if (!room || !c) return;
  if (c.kind === 'leave') {
    view.leave(room);
    return;
  }
  if (canResign(room)) view.app.act(room, 'resign');
  view.update();
}

/** The question, in place of the button it came from: "Resign this game? [Keep playing] [Yes, resign]". */
export function confirmGroup(view, kind) {
  const leaving = kind === 'leave';
  const question = leaving ? 'Leave and resign this game?' : 'Resign this game?';
  return h('span', { class: 'confirm confirm-resign', role: 'group', 'aria-label': question, dataset: { role: 'confirm' } },
    h('span', { class: 'confirm-question' }, question),
    h('button', { type: 'button', class: 'secondary', dataset: { action: 'cancel-resign' }, onclick: () => cancelConfirm(view) },
      leaving ? 'Stay' : 'Keep playing'),
    h('button', { type: 'button', class: 'danger strong', dataset: { action: 'confirm-resign' },
      disabled: performance.now() < view.confirming.armed, onclick: () => confirmResign(view) },
    leaving ? 'Yes, resign and leave' : 'Yes, resign'));
}
