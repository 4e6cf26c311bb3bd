// The director's controls on the tournament page: Start (while registering, from 2 players),
// Pause after this round, Resume; entering the computer as a player (one at most); and removing
// a player, which asks first ("Remove Bo? [Yes, remove] [Cancel]"; the view holds the question
// in `view.confirming`: the player's id, or null).

import { h } from './dom.js';
import { BOT_LEVELS, DEFAULT_BOT_LEVEL } from './words.js';

/** The controls' box under the page's title, for the director of a tournament not finished. */
export function directorControls(view, t) {
  const box = h('div', { class: 'director', role: 'group', 'aria-label': "Director's controls" },
    h('span', { class: 'director-label' }, "Director's controls:"));
  if (t.status === 'registering') {
    const few = (t.players || []).length < 2;
    box.appendChild(h('button', {
      type: 'button', class: 'primary', dataset: { action: 'start-tournament' },
      disabled: few || view.pending('start_tournament'), 'aria-describedby': few ? 't-start-hint' : null,
      onclick: () => view.act('start_tournament'),
    }, 'Start the tournament'));
    if (few) box.appendChild(h('small', { id: 't-start-hint', class: 'muted' }, 'At least 2 players must register first.'));
    const bot = botEntry(view, t);
    if (bot) box.appendChild(bot);
  } else if (t.status === 'running') {
    box.appendChild(h('button', { type: 'button', class: 'secondary', dataset: { action: 'pause-tournament' },
      disabled: view.pending('pause_tournament'), onclick: () => view.act('pause_tournament') }, 'Pause after this round'));
  } else if (t.status === 'paused') {
    box.appendChild(h('button', { type: 'button', class: 'primary', dataset: { action: 'resume-tournament' },
      disabled: view.pending('resume_tournament'), onclick: () => view.act('resume_tournament') }, 'Resume'));
  }
  box.appendChild(h('small', { class: 'muted' }, t.status === 'registering'
    ? 'You can remove a player from the list below.'
    : 'Removing a player (in the standings) loses their remaining games by forfeit.'));
  return box;
}

/** The computer as an entrant: a level and a button, until one is entered (one at most). */
function botEntry(view, t) {
  const players = t.players || [];
  if (players.some((p) => p.bot)) return null;
  const full = players.length >= ((t.settings && t.settings.max_players) || Infinity);
  const level = h('select', { id: 't-bot-level', dataset: { role: 'tournament-bot-level' }, 'aria-label': "The computer's level", disabled: full },
    BOT_LEVELS.map((l) => h('option', { value: String(l.level), selected: l.level === DEFAULT_BOT_LEVEL }, `Level ${l.level} — ${l.words}`)));
  return h('span', { class: 'add-bot', role: 'group', 'aria-label': 'Enter the computer' }, level,
    h('button', { type: 'button', class: 'secondary', dataset: { action: 'add-bot' },
      disabled: full || view.pending('add_bot'), title: full ? 'The tournament is full.' : null,
      onclick: () => view.act('add_bot', { opponent: { bot: Number(level.value) } }) }, 'Enter the computer'));
}

/** Remove, or its question, for player `p` (in the players' list or the standings). */
export function removeControls(view, p) {
  if (view.confirming === p.id) {
    return h('span', { class: 'confirm', role: 'group', 'aria-label': `Remove ${p.name}?` },
      h('span', {}, `Remove ${p.name}?`),
      h('button', { type: 'button', class: 'danger', dataset: { action: 'confirm-remove', player: p.id },
        onclick: () => { view.confirming = null; view.act('remove_player', { player: p.id }); } }, 'Yes, remove'),
      h('button', { type: 'button', class: 'secondary', dataset: { action: 'cancel-remove', player: p.id },
        onclick: () => { view.confirming = null; view.update(); focusIn(view, `[data-action="remove-player"][data-player="${CSS.escape(p.id)}"]`); } }, 'Cancel'));
  }
  return h('button', {
    type: 'button', class: 'danger small-button', dataset: { action: 'remove-player', player: p.id },
    'aria-label': `Remove ${p.name}`, disabled: view.pending('remove_player', p.id),
    onclick: () => { view.confirming = p.id; view.update(); focusIn(view, `[data-action="confirm-remove"][data-player="${CSS.escape(p.id)}"]`); },
  }, 'Remove');
}

function focusIn(view, selector) {
  const e = view.root.querySelector(selector);
  if (e) e.focus();
}
