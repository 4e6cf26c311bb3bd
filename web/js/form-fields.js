// Form pieces shared by the new-room and the new-tournament forms: the traits that count, and
// a seconds field read into milliseconds with a clear complaint when it is out of range.

import { h } from './dom.js';
import { ATTRIBUTES } from './pieces.js';

/** The "Traits that count" fieldset; `chosen()` lists the checked traits' keys. */
export function traitsFieldset(role) {
  const labels = ATTRIBUTES.map((a) => h('label', { class: 'check' },
    h('input', { type: 'checkbox', checked: true, value: a.key, dataset: { role, attribute: a.key } }), ` ${a.label}`));
  const node = h('fieldset', {}, h('legend', {}, 'Traits that count'), ...labels);
  const inputs = labels.map((l) => l.querySelector('input'));
  const chosen = () => inputs.filter((i) => i.checked).map((i) => i.value);
  const set = (keys) => { for (const i of inputs) i.checked = keys.includes(i.value); };
  return { node, chosen, set };
}

/**
 * Reads `input` (seconds, decimals allowed) as whole milliseconds. An empty field gives
 * `emptyMs`. Out of range: `complain(message)` (the form says it in place), focuses the field,
 * returns undefined.
 */
export function readSeconds(complain, input, { min, max, emptyMs, message }) {
  const text = input.value.trim();
  if (text === '') return emptyMs;
  const s = Number(text);
  if (!Number.isFinite(s) || s < min || s > max) {
    complain(message);
    input.focus();
    return undefined;
  }
  return Math.round(s * 1000);
}

/** Reads a whole number in [min, max]; empty gives `empty`; otherwise like readSeconds. */
export function readWhole(complain, input, { min, max, empty, message }) {
  const text = input.value.trim();
  if (text === '') return empty;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) {
    complain(message);
    input.focus();
    return undefined;
  }
  return n;
}
