// A player's profile (#/player/NAME), from GET /api/players/NAME and its games: each pool's
// rating with its deviation (provisional marked), wins, draws and losses, the rating over time
// (rating-chart.js, one line per pool played), the recent games a page at a time with their
// replays, and the tournaments played. Needs no name and no connection: anybody may look.
//
// Hooks: [data-role="profile"] (data-state: loading | ready | missing | error, data-player);
// [data-role="pool-rating"][data-pool] (data-rating, data-provisional); [data-role="results"]
// (data-wins, data-draws, data-losses); [data-role="rating-chart"] the chart's box;
// [data-role="profile-games"] (data-state, data-offset) with one [data-game-id] per game
// (data-outcome: won | lost | draw; data-change for a rated one) and its data-action="replay";
// data-action newer-games / older-games; [data-role="profile-tournaments"]; data-action retry.

import './pages-style.js';
import { h } from './dom.js';
import { fetchPlayer, fetchPlayerGames, problemText, GAMES_PAGE } from './api.js';
import { ratingChart, chartSummary, CHART_HEIGHT } from './rating-chart.js';
import { tournamentHref } from './tournaments.js';
import { STATUS_WORDS } from './tournament-table.js';
import { rulesSummary, POOLS, POOL_WORDS, ratingText, deviationText, changeText, profileHref, isBot } from './words.js';

const REASONS = { quarto: 'Quarto', missed_quarto: 'a missed Quarto claimed', timeout: 'on time', resign: 'by resignation',
  false_claim: 'a wrong call', board_full: 'board full', abandoned: 'abandoned' };

/** A game of the archive as `player` (id, or else `name`) played it: {seat, outcome: won | lost |
 *  draw, opponent ({id, name} or null), reason (in words), change ("+12", '' when unrated), rating
 *  ({rating, provisional} after the game, or null)}. */
export function gameFromSide(g, player, name) {
  const players = Array.isArray(g.players) ? g.players : [];
  let seat = players.findIndex((p) => p && p.id === player);
  if (seat < 0) seat = players.findIndex((p) => p && typeof p.name === 'string' && p.name.toLowerCase() === String(name).toLowerCase());
  const opponent = seat === 0 || seat === 1 ? players[1 - seat] ?? null : null;
  const w = g.result ? g.result.winner : null;
  const outcome = w !== 0 && w !== 1 ? 'draw' : w === seat ? 'won' : 'lost';
  const r = Array.isArray(g.ratings) ? g.ratings.find((x) => x && x.seat === seat) : null;
  return {
    seat, outcome, opponent,
    reason: REASONS[g.result && g.result.reason] ?? (g.result ? g.result.reason : ''),
    change: r ? changeText(r.before, r.after) : '',
    rating: r && typeof r.after === 'number' ? { rating: r.after, provisional: r.provisional === true } : null,
  };
}

/** The series of the chart: one per pool with history, oldest first. */
export function historySeries(history) {
  return POOLS.filter((pool) => history && Array.isArray(history[pool]) && history[pool].length)
    .map((pool) => ({ pool, points: history[pool].filter((p) => typeof p.at_ms === 'number' && typeof p.rating === 'number') }))
    .filter((s) => s.points.length);
}

const OUTCOME_WORDS = { won: 'Won against', lost: 'Lost to', draw: 'Draw with' };
const plural = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;

export class ProfileView {
  constructor(name) {
    this.name = name;
    this.offset = 0;
    this.root = h('article', { class: 'profile', dataset: { role: 'profile', state: 'loading', player: name }, 'aria-labelledby': 'profile-title' });
    this.onResize = () => {
      cancelAnimationFrame(this.resizeFrame);
      this.resizeFrame = requestAnimationFrame(() => this.drawChart());
    };
  }

  title() {
    return `${this.name} — Quarto`;
  }

  mount(container) {
    container.replaceChildren(this.root);
    window.addEventListener('resize', this.onResize);
    this.load();
  }

  unmount() {
    this.gone = true;
    window.removeEventListener('resize', this.onResize);
    cancelAnimationFrame(this.resizeFrame);
  }

  update() {}

  head(extra = null) {
    return h('div', { class: 'card-title-row' },
      h('h2', { id: 'profile-title', tabindex: '-1' }, this.name, extra),
      h('p', { class: 'profile-links' }, h('a', { href: '#/leaderboard', dataset: { action: 'leaderboard' } }, 'Leaderboard'), ' · ',
        h('a', { href: '#/', dataset: { action: 'lobby' } }, 'Lobby')));
  }

  async load() {
    this.root.dataset.state = 'loading';
    this.root.setAttribute('aria-busy', 'true');
    this.root.replaceChildren(h('div', { class: 'card' }, this.head(), h('p', { class: 'muted' }, 'Loading…')));
    const [player, games] = await Promise.all([fetchPlayer(this.name), fetchPlayerGames(this.name, 0)]);
    if (this.gone) return;
    this.root.removeAttribute('aria-busy');
    if (!player.ok || !player.body || typeof player.body !== 'object') {
      const missing = player.status === 404;
      this.root.dataset.state = missing ? 'missing' : 'error';
      this.root.replaceChildren(h('div', { class: 'card' }, this.head(),
        h('p', { role: missing ? null : 'alert' }, problemText(player, { action: 'profile', name: this.name })),
        missing ? null : h('button', { type: 'button', class: 'secondary', dataset: { action: 'retry' }, onclick: () => this.load() }, 'Try again')));
      return;
    }
    this.profile = player.body;
    this.root.dataset.state = 'ready';
    this.gamesBox = h('div', { class: 'profile-games-list' });
    this.chartBox = h('div', { class: 'chart-box', dataset: { role: 'rating-chart' } });
    this.root.replaceChildren(this.summary(), this.chartSection(), this.gamesSection(), this.tournamentsSection());
    this.drawChart();
    this.showGames(games, 0);
  }

  summary() {
    const p = this.profile;
    const ratings = p.ratings && typeof p.ratings === 'object' ? p.ratings : {};
    const res = p.results && typeof p.results === 'object' ? p.results : {};
    const n = (k) => (typeof res[k] === 'number' ? res[k] : 0);
    return h('section', { class: 'card profile-head' },
      this.head(h('span', { class: 'pill profile-kind' }, p.account ? 'account' : 'guest')),
      h('ul', { class: 'pool-cards' }, POOLS.map((pool) => {
        const r = ratings[pool] && ratings[pool].games !== 0 ? ratings[pool] : null; // 0 games: a new player's rating
        return h('li', { class: 'pool-card', dataset: { role: 'pool-rating', pool, rating: r ? Math.round(r.rating) : null, provisional: r ? String(!!r.provisional) : null } },
          h('span', { class: 'pool-name' }, POOL_WORDS[pool]),
          r ? [h('strong', { class: 'pool-rating' }, ratingText(r)), ' ', h('span', { class: 'muted' }, deviationText(r.rd)),
            h('span', { class: 'muted small pool-games' }, [typeof r.games === 'number' ? plural(r.games, 'game') : null,
              r.provisional ? 'provisional: it settles as more games are played' : null].filter(Boolean).join(' · '))]
            : h('span', { class: 'muted small pool-games' }, 'no rated game yet'));
      })),
      h('p', { class: 'results', dataset: { role: 'results', wins: n('wins'), draws: n('draws'), losses: n('losses') } },
        `${plural(n('wins'), 'win')} · ${plural(n('draws'), 'draw')} · ${n('losses')} loss${n('losses') === 1 ? '' : 'es'}`));
  }

  chartSection() {
    const series = historySeries(this.profile.history);
    this.series = series;
    if (!series.length) return null;
    return h('section', { class: 'card', 'aria-labelledby': 'chart-title' },
      h('h3', { id: 'chart-title' }, 'Rating over time'),
      series.length > 1 || series[0].pool !== 'standard'
        ? h('ul', { class: 'chart-legend' }, series.map((s) => h('li', {}, h('span', { class: `legend-swatch series-${s.pool}`, 'aria-hidden': 'true' }), POOL_WORDS[s.pool])))
        : null,
      this.chartBox);
  }

  /** The chart at the width of its box (again when the window's width changes). */
  drawChart() {
    if (!this.chartBox || !this.series || !this.series.length || !this.chartBox.isConnected) return;
    const width = Math.floor(this.chartBox.clientWidth);
    if (!width || width === this.chartWidth) return;
    this.chartWidth = width;
    const offsetMin = -new Date().getTimezoneOffset();
    const label = `Rating over time. ${chartSummary(this.series, POOL_WORDS, offsetMin)}`;
    this.chartBox.replaceChildren(ratingChart(this.series, { width, height: width < 480 ? CHART_HEIGHT - 30 : CHART_HEIGHT, offsetMin, label }));
  }

  gamesSection() {
    this.newer = h('button', { type: 'button', class: 'secondary small-button', dataset: { action: 'newer-games' }, onclick: () => this.page(-1) }, '← Newer');
    this.older = h('button', { type: 'button', class: 'secondary small-button', dataset: { action: 'older-games' }, onclick: () => this.page(1) }, 'Older →');
    this.pageWords = h('span', { class: 'muted small', 'aria-live': 'polite' });
    this.gamesSectionNode = h('section', { class: 'card', 'aria-labelledby': 'games-title', dataset: { role: 'profile-games', state: 'loading' } },
      h('h3', { id: 'games-title', tabindex: '-1' }, 'Recent games'),
      this.gamesBox,
      h('nav', { class: 'pager', 'aria-label': 'Pages of games' }, this.newer, this.pageWords, this.older));
    return this.gamesSectionNode;
  }

  /** The page before (-1) or after (1) the one shown, or the page at `at`. */
  async page(direction, at = null) {
    const offset = at ?? Math.max(0, this.offset + direction * GAMES_PAGE);
    const pressed = direction < 0 ? 'newer-games' : direction > 0 ? 'older-games' : 'retry-games';
    this.gamesSectionNode.dataset.state = 'loading';
    this.newer.disabled = this.older.disabled = true;
    const result = await fetchPlayerGames(this.name, offset);
    if (this.gone) return;
    this.showGames(result, offset);
    // The keyboard stays on the button pressed while it can go on; else it goes to the list's title.
    const again = this.gamesSectionNode.querySelector(`[data-action="${pressed}"]`);
    (again && !again.disabled ? again : this.gamesSectionNode.querySelector('#games-title')).focus({ preventScroll: true });
  }

  showGames(result, offset) {
    const section = this.gamesSectionNode;
    const games = result.ok && result.body && Array.isArray(result.body.games) ? result.body.games : null;
    if (!games) {
      section.dataset.state = 'error';
      this.gamesBox.replaceChildren(h('p', { class: 'muted', role: 'alert' }, problemText(result, { action: 'games' }), ' ',
        h('button', { type: 'button', class: 'link', dataset: { action: 'retry-games' }, onclick: () => this.page(0, offset) }, 'Try again')));
      this.newer.disabled = this.offset === 0;
      this.older.disabled = true;
      return;
    }
    this.offset = offset;
    section.dataset.state = 'ready';
    section.dataset.offset = String(offset);
    this.newer.disabled = offset === 0;
    this.older.disabled = games.length < GAMES_PAGE;
    this.pageWords.textContent = games.length ? `Games ${offset + 1}–${offset + games.length}` : '';
    this.gamesBox.replaceChildren(games.length
      ? h('ul', { class: 'rooms profile-games' }, games.map((g) => this.gameRow(g)))
      : h('p', { class: 'muted' }, offset ? 'No older games.' : 'No finished games yet.'));
  }

  gameRow(g) {
    const side = gameFromSide(g, this.profile.player, this.name);
    const opp = side.opponent;
    const when = typeof g.ended_ms === 'number' ? new Date(g.ended_ms).toLocaleDateString() : '';
    const moves = typeof g.move_count === 'number' ? plural(g.move_count, 'move') : null;
    return h('li', { class: 'room-item', dataset: { gameId: g.id, outcome: side.outcome, change: side.change || null } },
      h('div', { class: 'room-main' },
        h('strong', {}, `${OUTCOME_WORDS[side.outcome]} `, opp ? (isBot(opp.id) ? opp.name : h('a', { href: profileHref(opp.name) }, opp.name)) : '?'),
        side.reason ? ` (${side.reason})` : '',
        side.change ? [' ', h('span', { class: `rating-delta ${side.change.startsWith('+') ? 'up' : side.change.startsWith('-') ? 'down' : ''}` },
          side.change), h('span', { class: 'muted small' }, ` → ${ratingText(side.rating)}`)] : null,
        h('div', { class: 'muted small' }, [when, moves, g.rated ? 'rated' : null, rulesSummary(g.rules, g.clock)].filter(Boolean).join(' · '))),
      h('div', { class: 'room-buttons' },
        h('a', { class: 'button secondary', href: `#/game/${encodeURIComponent(g.id)}`, dataset: { action: 'replay', game: g.id },
          'aria-label': `Replay: ${OUTCOME_WORDS[side.outcome].toLowerCase()} ${opp ? opp.name : '?'}${when ? `, ${when}` : ''}` }, 'Replay')));
  }

  tournamentsSection() {
    const list = Array.isArray(this.profile.tournaments) ? this.profile.tournaments : [];
    return h('section', { class: 'card', 'aria-labelledby': 'profile-tournaments-title', dataset: { role: 'profile-tournaments' } },
      h('h3', { id: 'profile-tournaments-title' }, 'Tournaments'),
      list.length
        ? h('ul', { class: 'profile-tournaments' }, list.map((t) => h('li', {},
          h('a', { href: tournamentHref(t.id) }, t.name || `Tournament ${t.id}`), ' ',
          t.status ? h('span', { class: `pill ${t.status}` }, STATUS_WORDS[t.status] || t.status) : null)))
        : h('p', { class: 'muted' }, 'No tournament played yet.'));
  }
}
