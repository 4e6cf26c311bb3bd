// Feedback in place: a message shown in the flow of the page next to what it is about (a form,
// the game's status line), never floating over the controls. A slot holds at most one message,
// which goes away by itself. Errors are data-role="error" (role alert), other messages
// data-role="notice" (role status).

import { h } from './dom.js';

export const ERROR_MS = 8000;
export const INFO_MS = 5000;

export function feedbackSlot(className = '') {
  return h('div', { class: `feedback-slot ${className}`.trim() });
}

/** Shows `text` in `slot` (replacing what was there) for a few seconds. */
export function say(slot, text, kind = 'error') {
  clearTimeout(slot.feedbackTimer);
  const message = feedbackLine(text, kind, () => message.remove());
  slot.replaceChildren(message);
  slot.feedbackTimer = setTimeout(() => message.remove(), kind === 'error' ? ERROR_MS : INFO_MS);
}

export function clearSlot(slot) {
  clearTimeout(slot.feedbackTimer);
  slot.replaceChildren();
}

/** One message: the text and a button that dismisses it. `live`: it announces itself (role
 *  alert or status); a view that redraws it often announces it once by other means instead. */
export function feedbackLine(text, kind, dismiss, live = true) {
  const error = kind === 'error';
  return h('p', { class: `feedback ${error ? 'error' : 'info'}`, role: live ? (error ? 'alert' : 'status') : null, dataset: { role: error ? 'error' : 'notice' } },
    h('span', {}, text),
    h('button', { type: 'button', class: 'close', 'aria-label': 'Dismiss', onclick: dismiss }, '×'));
}
