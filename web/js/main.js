// Entry point: routes the address (#/ lobby, #/room/ID a room, #/tournament/ID a tournament,
// #/game/ID[/STEP] the replay of a finished game, #/rules how to play, #/account logging in and
// the account, #/player/NAME a player's profile, #/leaderboard[/POOL] the best ratings) to a
// view, keeps the header's connection line current, shows notices, polls the lobby and ticks the clocks.

import { App } from './app.js';
import { parseRoomId, roomKey } from './room-store.js';
import { tournamentKey } from './tournaments.js';
import { NameView, LobbyView, DoorView, ConnectingView } from './lobby.js';
import { InviteView } from './invite.js';
import { h } from './dom.js';
import { TurnAlerts } from './alerts.js';
import { feedbackLine, ERROR_MS, INFO_MS } from './feedback.js';
import { MAX_PLAYER_NAME_BYTES } from './limits.js';
import { pressing, afterPress } from './press.js';
import { takeArrival, focusMainControl } from './arrival.js';

const LOBBY_POLL_MS = 2000;
const TICK_MS = 100;

const app = new App();
const alerts = new TurnAlerts(app);
const container = document.getElementById('app');
const connLine = document.getElementById('conn');
const who = document.getElementById('who');
const header = document.querySelector('header.top');
const notices = document.getElementById('notices');
const announcer = document.getElementById('announcer');

let view = null;
let viewKey = null;

// The lobby's own modules load with the page (index.html preloads them); the game, tournament,
// replay and rules views load when first shown, so a first visit fetches what the lobby needs.
const VIEW_MODULES = { game: './game.js', tournament: './tournament.js', replay: './replay.js', rules: './rules.js',
  tournamentInvite: './tournament-invite.js', account: './account.js', profile: './profile.js', leaderboard: './leaderboard.js' };
const loadedViews = new Map(); // name -> module
const loadingViews = new Set();

/** The view `name` if its module is here (`make(module)`); else a placeholder while it loads. */
function lazyView(name, key, make, arg) {
  const module = loadedViews.get(name);
  if (module) return { key, make: () => make(module), arg };
  if (!loadingViews.has(name)) {
    loadingViews.add(name);
    import(VIEW_MODULES[name]).then((m) => loadedViews.set(name, m)).catch(() => {
      app.notify('Part of the page could not be loaded; check the connection and reload.');
    }).finally(() => { loadingViews.delete(name); render(); });
  }
  return { key: `loading:${name}`, make: () => new LoadingView() };
}

class LoadingView {
  constructor() { this.root = h('section', { class: 'card door', 'aria-busy': 'true' }, h('p', { class: 'muted' }, 'Loading…')); }
  mount(container) { container.replaceChildren(this.root); }
  update() {}
}

function route() {
  const hash = window.location.hash;
  const replay = hash.match(/^#\/game\/([^/?#]+)(?:\/(\d+))?/);
  if (replay) return { name: 'replay', id: parseRoomId(replay[1]), step: replay[2] ?? null };
  if (/^#\/rules\/?$/.test(hash)) return { name: 'rules' };
  if (/^#\/account\/?$/.test(hash)) return { name: 'account' };
  let p = hash.match(/^#\/player\/([^/?#]+)/);
  if (p) return { name: 'profile', player: parseRoomId(p[1]) };
  p = hash.match(/^#\/leaderboard(?:\/(standard|advanced))?\/?$/);
  if (p) return { name: 'leaderboard', pool: p[1] ?? 'standard' };
  let m = hash.match(/^#\/room\/([^/?#]+)/);
  if (m) return { name: 'room', id: parseRoomId(m[1]) };
  m = hash.match(/^#\/tournament\/([^/?#]+)/);
  if (m) return { name: 'tournament', id: parseRoomId(m[1]) };
  return { name: 'lobby' };
}

function wantedView() {
  const r = route();
  // A replay needs neither a name nor the server's greeting: anybody with the link may watch it.
  if (r.name === 'replay') return lazyView('replay', `replay:${r.id}`, (m) => new m.ReplayView(r.id, r.step), r.step);
  if (r.name === 'rules') return lazyView('rules', 'rules', (m) => new m.RulesView());
  // Over HTTP: no name needed.
  if (r.name === 'profile') return lazyView('profile', `profile:${r.player}`, (m) => new m.ProfileView(r.player));
  if (r.name === 'leaderboard') return lazyView('leaderboard', 'leaderboard', (m) => new m.LeaderboardView(app, r.pool), r.pool);
  if (r.name === 'account') return lazyView('account', 'account', (m) => new m.AccountView(app));
  // A room's link opened without a name is an invitation: one page takes the name and joins,
  // and stays until the room's snapshot is in (or says why it is not).
  if (r.name === 'room') {
    const key = roomKey(r.id);
    const invited = app.inviting && app.inviting.key === key && !app.rooms.has(key);
    if (app.needsName || invited) return { key: `invite:${key}`, make: () => new InviteView(app, r.id) };
  }
  // So is a tournament's link: its page, with Register and Watch (watching needs no name).
  if (r.name === 'tournament' && app.needsName) {
    return lazyView('tournamentInvite', `tournament-invite:${tournamentKey(r.id)}`, (m) => new m.TournamentInviteView(app, r.id));
  }
  if (app.needsName) return { key: 'name', make: () => new NameView(app) };
  if (!app.everWelcomed) return { key: 'connecting', make: () => new ConnectingView(app) };
  if (r.name === 'room') {
    const key = roomKey(r.id);
    if (app.rooms.has(key)) return lazyView('game', `game:${key}`, (m) => new m.GameView(app, key));
    return { key: `door:${key}`, make: () => new DoorView(app, r.id) };
  }
  if (r.name === 'tournament') return lazyView('tournament', `tournament:${tournamentKey(r.id)}`, (m) => new m.TournamentView(app, r.id));
  return { key: 'lobby', make: () => new LobbyView(app) };
}

function render() {
  // Not under a press: the element pressed must still be there for its click.
  if (pressing()) return afterPress(render);
  const want = wantedView();
  if (want.key !== viewKey) {
    if (view && view.unmount) view.unmount();
    view = want.make();
    viewKey = want.key;
    // A new page starts at its top (the lobby's form may have been scrolled down to).
    window.scrollTo(0, 0);
    view.mount(container);
    // The player acted on the page before (a name, a new room): the keyboard follows them here.
    // A placeholder while connecting or loading waits for the view that replaces it.
    if (viewKey !== 'connecting' && !viewKey.startsWith('loading:') && takeArrival()) focusMainControl(view, container);
    // The replay titles itself once its game has loaded; a view with title() names itself.
    if (view.title) document.title = view.title();
    else if (!viewKey.startsWith('replay:')) {
      document.title = viewKey.startsWith('game:') ? `${app.rooms.get(viewKey.slice(5)).name} — Quarto` : 'Quarto';
    }
  } else {
    view.update(want.arg);
  }
  deliverHeld();
  renderHeader();
}

function renderHeader() {
  const c = app.conn;
  let text = '';
  let cls = 'ok';
  // While a restarting server is retried every half second, a countdown would only flicker.
  if (app.restarting && c.retryingQuickly && (c.state === 'connecting' || c.state === 'waiting')) {
    text = 'The server is restarting — reconnecting…'; cls = 'warn';
  } else if (c.state === 'connecting') { text = 'Connecting to the server…'; cls = 'warn'; }
  else if (c.state === 'waiting') {
    const s = Math.max(0, Math.ceil((c.retryAt - Date.now()) / 1000));
    text = app.restarting ? `The server is restarting — reconnecting in ${s} s…` : `Connection lost — reconnecting in ${s} s…`;
    cls = app.restarting ? 'warn' : 'bad';
  } else if (c.state === 'open' && !app.welcomed && !app.needsName) { text = 'Signing in…'; cls = 'warn'; }
  connLine.className = `conn-line ${cls}`;
  connLine.replaceChildren(text ? h('span', {}, text) : '',
    c.state === 'waiting' ? h('button', { type: 'button', class: 'link', onclick: () => c.retryNow() }, 'Retry now') : '');
  connLine.hidden = !text;
  // On a phone the rename box takes the place of "How to play", so that the header keeps its height.
  header.classList.toggle('renaming', renaming && !!app.me.name && !app.needsName);
  // Drawn again only when it changed, so that the focus stays.
  const drawn = [app.me.name, app.needsName, app.me.account, renaming].join('\n');
  if (drawn === whoDrawn) return;
  whoDrawn = drawn;
  // An account's name is its login: no renaming.
  const account = app.me.account
    ? h('a', { class: 'link', href: '#/account', dataset: { action: 'account' } }, 'Account')
    : h('a', { class: 'link', href: '#/account', dataset: { action: 'log-in' } }, 'Log in');
  if (app.me.name && !app.needsName) {
    who.replaceChildren(renaming ? renameForm()
      : h('span', {}, h('span', { class: 'who-label' }, 'Playing as '), h('strong', { dataset: { role: 'me' } }, app.me.name), ' ',
        app.me.account ? null : h('button', { type: 'button', class: 'link', dataset: { action: 'rename' }, 'aria-label': 'Change your name',
          onclick: () => { renaming = true; renderHeader(); } }, 'change'), ' ', account));
    const input = who.querySelector('[data-role="rename-input"]');
    if (input) { input.focus(); input.select(); }
  } else {
    who.replaceChildren(account);
  }
}

// Renaming keeps the player (same seats, same games): Enter sends it, Escape or leaving the
// field keeps the old name.
let renaming = false;
let whoDrawn = null;

function renameForm() {
  const stop = () => { renaming = false; renderHeader(); };
  const input = h('input', {
    type: 'text', value: app.me.name, maxlength: MAX_PLAYER_NAME_BYTES, autocomplete: 'nickname',
    'aria-label': 'Your new name (Enter to save, Escape to cancel)', dataset: { role: 'rename-input' },
    onkeydown: (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        if (app.rename(input.value)) stop();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        stop();
      }
    },
    onblur: () => { if (renaming) stop(); },
  });
  return h('span', { class: 'rename' }, h('span', { class: 'who-label' }, 'Name '), input);
}

/** A message the view on screen does not show in place: in the flow under the header, never
 *  over the page's controls. */
function showNotice(text, kind, key, untilEnded) {
  if (key) endNotice(key); // one at a time
  const item = feedbackLine(text, kind, () => item.remove());
  item.classList.add('notice');
  if (key) item.dataset.key = key;
  notices.appendChild(item);
  while (notices.children.length > 3) notices.firstChild.remove();
  if (!untilEnded) setTimeout(() => item.remove(), kind === 'error' ? ERROR_MS : INFO_MS);
}

function endNotice(key) {
  for (const item of [...notices.children]) if (item.dataset.key === key) item.remove();
}

// A message about the room the address already names, whose game view is not drawn yet
// (a tournament pairing): held for that view, for a few seconds at most.
let held = null;

function onNotice(detail) {
  const { text, kind, where, key, untilEnded } = detail;
  // The view that shows what the message is about shows it there.
  if (where && view && view.feedback && view.feedback(text, kind, where)) return;
  const r = route();
  if (where && where.room !== undefined && r.name === 'room' && roomKey(r.id) === where.room) {
    held = { ...detail, until: Date.now() + 3000 };
    return;
  }
  showNotice(text, kind, key, untilEnded);
}

function deliverHeld() {
  if (!held) return;
  if (viewKey === `game:${held.where.room}` && view.feedback(held.text, held.kind, held.where)) held = null;
  else if (Date.now() > held.until) { showNotice(held.text, held.kind); held = null; }
}

app.addEventListener('change', render);
app.addEventListener('notice', (e) => onNotice(e.detail));
app.addEventListener('notice-end', (e) => endNotice(e.detail));
app.addEventListener('announce', (e) => { announcer.textContent = e.detail; });
window.addEventListener('hashchange', render);

// Lobby list refresh while it (or a room's door) is on screen; a tournament's page needs none:
// the server pushes its snapshots.
setInterval(() => {
  if (document.visibilityState === 'hidden') return;
  if (viewKey === 'lobby' || (viewKey && viewKey.startsWith('door:'))) app.listRooms();
  if (viewKey === 'lobby') app.listTournaments();
}, LOBBY_POLL_MS);

// Smooth clocks; also keeps the reconnect countdown in the header current, and the title
// and sounds that tell a player it is their move.
setInterval(() => {
  if (view && view.tick) view.tick();
  alerts.tick(viewKey && viewKey.startsWith('game:') ? viewKey.slice(5) : null);
  if (!pressing()) deliverHeld(); // it draws the game view again
  if (app.conn.state === 'waiting') renderHeader();
}, TICK_MS);

// Keeps idle connections alive through proxies and measures the server's time.
setInterval(() => app.ping(), 25000);

alerts.mount(document.getElementById('alert-tools'));
app.start();
render();

// For debugging from the console.
window.quarto = app;
