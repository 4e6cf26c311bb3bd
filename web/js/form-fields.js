// The fields that set a game's rules and clock, shared by the new-room and the new-tournament
// forms: the traits that count, the two variants, the seconds per move and to claim, built and
// read in one place with the bounds of limits.js; the Rated checkbox that follows from them;
// and number fields read with a clear complaint when they are out of range.

import { h } from './dom.js';
import { ATTRIBUTES } from './pieces.js';
import { MOVE_SECONDS, CLAIM_SECONDS } from './limits.js';
import { ratedProblem, RATED_PROBLEMS, poolOf, POOL_WORDS } from './words.js';

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

/** A number field whose browser bounds are `bounds` ({min, max}). */
export function numberField(role, id, value, bounds, step, extra = {}) {
  return h('input', { id, type: 'number', dataset: { role }, value, min: bounds.min, max: bounds.max, step, inputmode: 'decimal', ...extra });
}

/**
 * `text` (seconds, decimals allowed) as whole milliseconds: `emptyMs` when it is empty, and
 * undefined when it is no number or outside [bounds.min, bounds.max] seconds.
 */
export function secondsToMs(text, bounds, emptyMs) {
  const trimmed = String(text).trim();
  if (trimmed === '') return emptyMs;
  const s = Number(trimmed);
  if (!Number.isFinite(s) || s < bounds.min || s > bounds.max) return undefined;
  return Math.round(s * 1000);
}

/** `text` as a whole number in [bounds.min, bounds.max]; `empty` when it is empty, else undefined. */
export function wholeNumber(text, bounds, empty) {
  const trimmed = String(text).trim();
  if (trimmed === '') return empty;
  const n = Number(trimmed);
  if (!Number.isInteger(n) || n < bounds.min || n > bounds.max) return undefined;
  return n;
}

/** The value read by `parse(input.value)`; when it is undefined, `complain(message)` (the form
 *  says it in place) and the field takes the focus. */
function readField(complain, input, parse, message) {
  const value = parse(input.value);
  if (value === undefined) {
    complain(message);
    input.focus();
  }
  return value;
}

/** Reads a seconds field as milliseconds (see secondsToMs); undefined after a complaint. */
function readSeconds(complain, input, { bounds, emptyMs, message }) {
  return readField(complain, input, (text) => secondsToMs(text, bounds, emptyMs), message);
}

/** Reads a whole-number field (see wholeNumber); undefined after a complaint. */
export function readWhole(complain, input, { bounds, empty, message }) {
  return readField(complain, input, (text) => wholeNumber(text, bounds, empty), message);
}

/** The CLOCK a form sends when its seconds fields are empty: untimed, the default claim window. */
const EMPTY_MOVE_MS = null;
const EMPTY_CLAIM_MS = CLAIM_SECONDS.initial * 1000;

/** What the complaints call a move clock left empty: "no clock", "untimed games". */
export function clockMessages(untimed) {
  return {
    move: `The move clock must be between ${MOVE_SECONDS.min} and ${MOVE_SECONDS.max} seconds (or empty for ${untimed}).`,
    claim: `The claim window must be between ${CLAIM_SECONDS.min} and ${CLAIM_SECONDS.max} seconds.`,
  };
}

/**
 * The rules and clock fields of a form. Their data-roles and ids start with `rolePrefix` and
 * `idPrefix` (the new-room form has none, the tournament's `tournament-` and `t-`): the traits
 * `attribute`, the variants `squares` and `false-claim` (ids `opt-squares`, `opt-false-claim`),
 * the seconds `move-seconds` and `claim-seconds`. `untimed` names an empty move clock in the
 * complaint; `moveHint` is the id of the words under the move field. The caller lays them out.
 */
export function gameFields({ rolePrefix = '', idPrefix = '', untimed, moveHint = null }) {
  const role = (name) => `${rolePrefix}${name}`;
  const id = (name) => `${idPrefix}${name}`;
  const traits = traitsFieldset(role('attribute'));
  const squares = h('input', { id: id('opt-squares'), type: 'checkbox', dataset: { role: role('squares') } });
  const falseClaim = h('input', { id: id('opt-false-claim'), type: 'checkbox', dataset: { role: role('false-claim') } });
  const move = numberField(role('move-seconds'), id('move-seconds'), String(MOVE_SECONDS.initial), MOVE_SECONDS, 'any',
    moveHint ? { 'aria-describedby': moveHint } : {});
  const claim = numberField(role('claim-seconds'), id('claim-seconds'), String(CLAIM_SECONDS.initial), CLAIM_SECONDS, 'any');
  const variants = h('fieldset', {}, h('legend', {}, 'Variants'),
    h('label', { class: 'check' }, squares, ' 2×2 squares also count (advanced)'),
    h('label', { class: 'check' }, falseClaim, ' A wrong Quarto call loses the game'));
  const messages = clockMessages(untimed);

  const rules = () => ({ squares: squares.checked, attributes: traits.chosen(), false_claim: falseClaim.checked ? 'lose' : 'reject' });

  /** {rules, clock} for the server; undefined after a complaint about the field at fault. */
  const read = (complain) => {
    if (traits.chosen().length === 0) {
      complain('Choose at least one trait that counts for a Quarto.');
      return undefined;
    }
    const moveMs = readSeconds(complain, move, { bounds: MOVE_SECONDS, emptyMs: EMPTY_MOVE_MS, message: messages.move });
    if (moveMs === undefined) return undefined;
    const claimMs = readSeconds(complain, claim, { bounds: CLAIM_SECONDS, emptyMs: EMPTY_CLAIM_MS, message: messages.claim });
    if (claimMs === undefined) return undefined;
    return { rules: rules(), clock: { move_ms: moveMs, claim_ms: claimMs } };
  };

  /** The clock as typed so far, bounds or not (undefined where it is no number): for a summary. */
  const typedClock = () => ({
    move_ms: secondsToMs(move.value, { min: -Infinity, max: Infinity }, EMPTY_MOVE_MS),
    claim_ms: secondsToMs(claim.value, { min: -Infinity, max: Infinity }, EMPTY_CLAIM_MS),
  });

  return { traits, squares, falseClaim, move, claim, variants, rules, read, typedClock };
}

/**
 * The Rated checkbox of a form with `fields` (gameFields; the same prefixes): data-role `rated`,
 * disabled while ratedProblem finds one, and `rated-why` under it: why not (a guest gets a Log in
 * link and `login`, the rest of the sentence), else the pool. `show(account)` after each change;
 * `chosen()`: send "rated": true.
 */
export function ratedOption(fields, { rolePrefix = '', idPrefix = '', label, login }) {
  const whyId = `${idPrefix}rated-why`;
  const box = h('input', { id: `${idPrefix}opt-rated`, type: 'checkbox', dataset: { role: `${rolePrefix}rated` }, 'aria-describedby': whyId });
  const why = h('small', { id: whyId, class: 'muted rated-why', dataset: { role: `${rolePrefix}rated-why` } });
  const show = (account) => {
    const problem = ratedProblem({ account, rules: fields.rules(), clock: fields.typedClock() });
    box.disabled = !!problem;
    if (problem) box.checked = false;
    if (problem === 'account') why.replaceChildren(h('a', { href: '#/account', dataset: { action: 'log-in' } }, 'Log in'), login);
    else why.textContent = problem ? RATED_PROBLEMS[problem] : `Counts for the ${POOL_WORDS[poolOf(fields.rules())].toLowerCase()} rating.`;
  };
  const node = h('div', { class: 'rated-option' }, h('label', { class: 'check' }, box, label), why);
  return { node, show, chosen: () => box.checked && !box.disabled };
}
