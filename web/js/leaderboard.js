// The leaderboard (#/leaderboard, #/leaderboard/advanced), from GET /api/leaderboard?pool=: the
// best hundred established ratings of a pool (provisional ones are left out by the server), with
// rank, name (linking to the profile), rating, deviation and games. The pool switch is a pair of
// links, so that each pool has its address. Needs no name and no connection.
//
// Hooks: [data-role="leaderboard"] (data-state: loading | ready | error, data-pool);
// data-action="pool-standard" / "pool-advanced" (aria-current on the pool shown);
// [data-role="leaderboard-row"] (data-rank, data-name, data-rating); data-action="retry".

import './pages-style.js';
import { h } from './dom.js';
import { POOLS, POOL_WORDS, deviationText, profileHref } from './words.js';
import { fetchLeaderboard, problemText } from './api.js';

export class LeaderboardView {
  constructor(app, pool) {
    this.app = app;
    this.pool = pool;
    this.root = h('section', { class: 'card leaderboard', dataset: { role: 'leaderboard', state: 'loading', pool }, 'aria-labelledby': 'leaderboard-title' });
    this.switcher = h('nav', { class: 'pool-switch', 'aria-label': 'Pool' });
    this.body = h('div', { class: 'leaderboard-body', 'aria-live': 'polite' });
    this.root.append(
      h('div', { class: 'card-title-row' }, h('h2', { id: 'leaderboard-title' }, 'Leaderboard'),
        h('a', { href: '#/', class: 'small', dataset: { action: 'lobby' } }, 'Lobby')),
      this.switcher,
      h('p', { class: 'muted small' }, 'Rated games only. A rating shows here once it is established (no longer provisional).'),
      this.body);
  }

  title() {
    return 'Leaderboard — Quarto';
  }

  mount(container) {
    container.replaceChildren(this.root);
    this.load();
  }

  unmount() {
    this.gone = true;
  }

  /** The address changed to another pool (the view stays, and so does the keyboard's place). */
  update(pool) {
    if (pool && pool !== this.pool) {
      this.pool = pool;
      this.load();
    }
  }

  drawSwitch() {
    const focused = this.switcher.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    this.switcher.replaceChildren(...POOLS.map((pool) => h('a', {
      class: 'button secondary small-button', href: `#/leaderboard/${pool}`, dataset: { action: `pool-${pool}` },
      'aria-current': pool === this.pool ? 'page' : null,
    }, POOL_WORDS[pool], h('span', { class: 'pool-help' }, pool === 'advanced' ? ' (2×2 squares)' : ''))));
    if (focused) this.switcher.querySelector(`[data-action="${focused}"]`)?.focus({ preventScroll: true });
  }

  async load() {
    const pool = this.pool;
    this.root.dataset.pool = pool;
    this.root.dataset.state = 'loading';
    this.drawSwitch();
    this.body.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
    const result = await fetchLeaderboard(pool);
    if (this.gone || pool !== this.pool) return; // gone, or another pool asked for since
    const players = result.ok && result.body && Array.isArray(result.body.players) ? result.body.players : null;
    if (!players) {
      this.root.dataset.state = 'error';
      this.body.replaceChildren(h('p', { role: 'alert' }, problemText(result, { action: 'leaderboard' })),
        h('button', { type: 'button', class: 'secondary', dataset: { action: 'retry' }, onclick: () => this.load() }, 'Try again'));
      return;
    }
    this.root.dataset.state = 'ready';
    if (!players.length) {
      this.body.replaceChildren(h('p', { class: 'muted' }, `No established ${POOL_WORDS[pool].toLowerCase()} rating yet.`));
      return;
    }
    const me = this.app.me.account ? this.app.me.name : null;
    this.body.replaceChildren(h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': `${POOL_WORDS[pool]} leaderboard` },
      h('table', { class: 't-table leaderboard-table' },
        h('caption', { class: 'sr-only' }, `${POOL_WORDS[pool]} leaderboard: rank, player, rating, deviation and rated games`),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', class: 'num' }, 'Rank'), h('th', { scope: 'col' }, 'Player'),
          h('th', { scope: 'col', class: 'num' }, 'Rating'),
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: 'Rating deviation: how far off the rating may be' }, '±')),
          h('th', { scope: 'col', class: 'num' }, 'Games'))),
        h('tbody', {}, players.map((p, i) => h('tr', {
          class: p.name === me ? 'mine' : null,
          dataset: { role: 'leaderboard-row', rank: i + 1, name: p.name, rating: Math.round(p.rating) },
        },
        h('td', { class: 'num' }, String(i + 1)),
        h('th', { scope: 'row', class: 'leaderboard-name' }, h('a', { href: profileHref(p.name) }, p.name)),
        h('td', { class: 'num points' }, String(Math.round(p.rating))),
        h('td', { class: 'num muted' }, deviationText(p.rd)),
        h('td', { class: 'num' }, typeof p.games === 'number' ? String(p.games) : '')))))));
  }
}
