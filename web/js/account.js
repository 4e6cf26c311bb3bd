// The account page (#/account): a guest logs in or creates an account (the guest's games become
// the account's: the sign-up sends its token); an account sees its ratings and logs out (here or
// everywhere), changes its password, downloads its data or deletes itself. After each change of
// identity the App opens a new WebSocket, whose welcome is the new identity's.
//
// Hooks: [data-role="account"] the page (data-state: guest | connecting | account);
// forms [data-role="log-in-form"], [data-role="sign-up-form"], [data-role="password-form"], their
// fields data-role log-in-name, log-in-password, sign-up-name, sign-up-password, old-password,
// new-password and submit buttons data-action log-in-submit, sign-up-submit, change-password;
// data-action log-out, log-out-everywhere, export, delete-account, confirm-delete, cancel-delete;
// [data-role="account-ratings"] with one [data-pool] per pool.

import './pages-style.js';
import { h } from './dom.js';
import { feedbackSlot, say, clearSlot } from './feedback.js';
import { nameProblem } from './session.js';
import { MAX_PLAYER_NAME_BYTES } from './limits.js';
import { POOLS, POOL_WORDS, ratingText, deviationText, profileHref } from './words.js';
import {
  signUp, logIn, logOut, fetchMe, changePassword, deleteAccount, passwordProblem, problemText, EXPORT_HREF, PASSWORD_CHARS,
} from './api.js';

const PASSWORD_HINT = `${PASSWORD_CHARS.min} to ${PASSWORD_CHARS.maxBytes} characters.`;

function field(id, label, attrs, hint = null) {
  const input = h('input', { id, ...attrs, 'aria-describedby': hint ? `${id}-hint` : null });
  return { input, node: [h('label', { for: id }, label), input, hint ? h('small', { id: `${id}-hint`, class: 'muted field-hint' }, hint) : null] };
}

/** The ratings of an account (the welcome's or /api/me's `ratings`) as a list, one item per pool. */
export function ratingsList(ratings) {
  return h('ul', { class: 'pool-list', dataset: { role: 'account-ratings' } }, POOLS.map((pool) => {
    // A pool not played yet is a new player's rating, 0 games: said as such.
    const r = ratings && ratings[pool] && ratings[pool].games !== 0 ? ratings[pool] : null;
    const games = r && typeof r.games === 'number' ? `${r.games} game${r.games === 1 ? '' : 's'}` : '';
    return h('li', { dataset: { pool } }, h('strong', {}, `${POOL_WORDS[pool]}: `),
      r ? [ratingText(r), ' ', h('span', { class: 'muted' }, [deviationText(r.rd), games, r.provisional ? 'provisional' : ''].filter(Boolean).join(' · '))]
        : h('span', { class: 'muted' }, 'no rated game yet'));
  }));
}

export class AccountView {
  constructor(app) {
    this.app = app;
    this.root = h('section', { class: 'account-page', dataset: { role: 'account' }, 'aria-labelledby': 'account-title' });
    this.drawn = null;
    this.expecting = null; // {name, after}: logged in, until a welcome after the `after`th
    this.ratings = null; // /api/me's, newer than the welcome's
    this.confirming = false; // Delete waits for its confirmation
    this.busy = false;
  }

  title() {
    return 'Account — Quarto';
  }

  mount(container) {
    container.replaceChildren(this.root);
    this.update();
  }

  unmount() {
    this.gone = true;
    clearTimeout(this.waitTimer);
  }

  focusFirst() {
    const first = this.root.querySelector('input, button');
    if (first) first.focus({ preventScroll: true });
  }

  state() {
    if (this.app.me.account) return 'account';
    if (this.expecting && this.app.session.welcomes <= this.expecting.after) return 'connecting';
    return 'guest';
  }

  /** Drawn again when the identity changes, never while typing otherwise (new ratings replace
   *  their list only). */
  update() {
    const me = this.app.me;
    const state = this.state();
    if (this.expecting && state === 'guest') {
      // Welcomed again, but not as the account: the cookie did not come along.
      this.expecting = null;
      this.pendingProblem = 'You are logged in, but this page could not connect as your account: please reload the page.';
    }
    if (state === 'account') this.expecting = null;
    if (state === 'account' && this.ratingsNode) {
      const list = ratingsList(this.ratings ?? me.ratings);
      if (list.outerHTML !== this.ratingsNode.outerHTML) { this.ratingsNode.replaceWith(list); this.ratingsNode = list; }
    }
    const key = [state, me.name, this.confirming].join('\n');
    if (key === this.drawn) return;
    const first = this.drawn === null;
    const stateChanged = first || this.drawn.split('\n')[0] !== state;
    const hadFocus = this.root.contains(document.activeElement);
    this.drawn = key;
    this.root.dataset.state = state;
    this.ratingsNode = null;
    this.root.replaceChildren(...(state === 'account' ? this.accountParts() : state === 'connecting' ? this.connectingParts() : this.guestParts()));
    if (state === 'account' && stateChanged) this.refreshRatings();
    if (this.pendingProblem && this.logInSlot) { say(this.logInSlot, this.pendingProblem); this.pendingProblem = null; }
    // After a log in or out the keyboard goes to the new state's heading; after a question asked
    // or taken back, to what replaced the button pressed.
    const target = this.focusAfter ? this.root.querySelector(this.focusAfter) : !first && (stateChanged || hadFocus) ? this.root.querySelector('h2') : null;
    if (target) target.focus({ preventScroll: true });
    this.focusAfter = null;
  }

  // ---- a guest: log in, or create an account ----

  guestParts() {
    const me = this.app.me;
    const loginName = field('log-in-name', 'Name', { type: 'text', autocomplete: 'username', maxlength: MAX_PLAYER_NAME_BYTES, required: true, dataset: { role: 'log-in-name' } });
    const loginPassword = field('log-in-password', 'Password', { type: 'password', autocomplete: 'current-password', required: true, dataset: { role: 'log-in-password' } });
    this.logInSlot = feedbackSlot();
    this.logInButton = h('button', { type: 'submit', class: 'primary', dataset: { action: 'log-in-submit' } }, 'Log in');
    const login = h('form', { class: 'card account-form', dataset: { role: 'log-in-form' }, 'aria-labelledby': 'account-title',
      onsubmit: (e) => { e.preventDefault(); this.logIn(loginName.input.value, loginPassword.input.value); } },
    h('h2', { id: 'account-title', tabindex: '-1' }, 'Log in'),
    loginName.node, loginPassword.node, this.logInSlot, this.logInButton);

    const guest = me.name && me.token ? me.name : null;
    const signName = field('sign-up-name', 'Name', { type: 'text', autocomplete: 'username', maxlength: MAX_PLAYER_NAME_BYTES, required: true,
      value: me.name || '', dataset: { role: 'sign-up-name' } });
    const signPassword = field('sign-up-password', 'Password', { type: 'password', autocomplete: 'new-password', required: true,
      dataset: { role: 'sign-up-password' } }, PASSWORD_HINT);
    this.signUpSlot = feedbackSlot();
    const signup = h('form', { class: 'card account-form', dataset: { role: 'sign-up-form' }, 'aria-labelledby': 'sign-up-title',
      onsubmit: (e) => { e.preventDefault(); this.signUp(signName.input.value, signPassword.input.value); } },
    h('h2', { id: 'sign-up-title' }, 'Create an account'),
    h('p', { class: 'muted small' }, 'An account keeps your name for you on every device, and plays rated games. ',
      guest ? `The games you played here as ${guest} become the account's.` : null),
    signName.node, signPassword.node, this.signUpSlot,
    h('button', { type: 'submit', class: 'secondary', dataset: { action: 'sign-up-submit' } }, 'Create account'));
    return [h('div', { class: 'account-grid' }, login, signup), this.backLinks()];
  }

  connectingParts() {
    return [h('div', { class: 'card', 'aria-busy': 'true' },
      h('h2', { id: 'account-title', tabindex: '-1' }, `Welcome, ${this.expecting.name}`),
      h('p', { class: 'muted', role: 'status' }, 'Connecting as your account…'))];
  }

  backLinks() {
    return h('p', { class: 'account-links' },
      h('a', { href: '#/', dataset: { action: 'lobby' } }, 'Back to the lobby'), ' · ',
      h('a', { href: '#/leaderboard', dataset: { action: 'leaderboard' } }, 'Leaderboard'));
  }

  async logIn(name, password) {
    const clean = String(name).trim();
    const problem = nameProblem(clean) ?? (password ? null : 'Please type your password.');
    if (problem) return say(this.logInSlot, problem);
    await this.send(this.logInSlot, () => logIn(clean, password), { action: 'log-in', name: clean }, (body) => this.signedIn(body, clean),
      (result) => this.holdLogIn(result));
  }

  async signUp(name, password) {
    const clean = String(name).trim();
    const problem = nameProblem(clean) ?? passwordProblem(password);
    if (problem) return say(this.signUpSlot, problem);
    await this.send(this.signUpSlot, async () => {
      const token = this.app.me.token;
      const result = await signUp(clean, password, token);
      // A guest the server has forgotten (an hour after its last visit) has no games to bring.
      if (!result.ok && token && result.body && result.body.code === 'unknown_token') return signUp(clean, password, null);
      return result;
    }, { action: 'sign-up', name: clean }, (body) => this.signedIn(body, clean));
  }

  /** Logged in or signed up: the page waits for the account's welcome on a new connection. */
  signedIn(body, typed) {
    const name = body && typeof body.name === 'string' ? body.name : typed;
    this.expecting = { name, after: this.app.session.welcomes };
    this.app.signedIn(name);
    this.app.announce(`Logged in as ${name}.`);
  }

  /** Too many attempts: Log in waits as long as the server says. */
  holdLogIn(result) {
    if (result.status !== 429 || !this.logInButton) return;
    const button = this.logInButton;
    button.disabled = true;
    clearTimeout(this.waitTimer);
    this.waitTimer = setTimeout(() => { button.disabled = false; }, (result.retryAfter ?? 10) * 1000);
  }

  /** A request from a form: its slot says a refusal; `done(body)` on success. */
  async send(slot, call, context, done, refused = () => {}) {
    if (this.busy) return;
    this.busy = true;
    clearSlot(slot);
    this.root.setAttribute('aria-busy', 'true');
    const result = await call();
    this.busy = false;
    this.root.removeAttribute('aria-busy');
    if (this.gone) return;
    if (result.ok) done(result.body);
    else {
      say(slot, problemText(result, context));
      refused(result);
    }
    this.app.changed();
  }

  // ---- an account ----

  async refreshRatings() {
    const result = await fetchMe();
    if (this.gone || !result.ok || !result.body || typeof result.body.ratings !== 'object') return;
    this.ratings = result.body.ratings;
    this.update();
  }

  accountParts() {
    const me = this.app.me;
    this.accountSlot = feedbackSlot();
    const head = h('section', { class: 'card' },
      h('h2', { id: 'account-title', tabindex: '-1' }, 'Your account'),
      h('p', {}, 'Logged in as ', h('strong', { dataset: { role: 'account-name' } }, me.name), '. ',
        h('a', { href: profileHref(me.name), dataset: { action: 'my-profile' } }, 'Your profile'), ' · ',
        h('a', { href: '#/leaderboard', dataset: { action: 'leaderboard' } }, 'Leaderboard'), ' · ',
        h('a', { href: '#/', dataset: { action: 'lobby' } }, 'Lobby')),
      h('h3', {}, 'Ratings'),
      this.ratingsNode = ratingsList(this.ratings ?? me.ratings),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'secondary', dataset: { action: 'log-out' }, onclick: () => this.logOut(false) }, 'Log out'),
        h('button', { type: 'button', class: 'secondary', dataset: { action: 'log-out-everywhere' }, onclick: () => this.logOut(true) },
          'Log out everywhere')),
      this.accountSlot);

    const oldPw = field('old-password', 'Current password', { type: 'password', autocomplete: 'current-password', required: true, dataset: { role: 'old-password' } });
    const newPw = field('new-password', 'New password', { type: 'password', autocomplete: 'new-password', required: true, dataset: { role: 'new-password' } },
      `${PASSWORD_HINT} Your other devices are logged out.`);
    this.passwordSlot = feedbackSlot();
    const password = h('form', { class: 'card account-form', dataset: { role: 'password-form' }, 'aria-labelledby': 'password-title',
      onsubmit: (e) => { e.preventDefault(); this.changePassword(oldPw.input, newPw.input); } },
    h('h3', { id: 'password-title' }, 'Change your password'), oldPw.node, newPw.node, this.passwordSlot,
    h('button', { type: 'submit', class: 'secondary', dataset: { action: 'change-password' } }, 'Change password'));

    this.deleteSlot = feedbackSlot();
    const data = h('section', { class: 'card', 'aria-labelledby': 'data-title' },
      h('h3', { id: 'data-title' }, 'Your data'),
      h('p', {}, h('a', { class: 'button secondary', href: EXPORT_HREF, download: 'quarto-account.json', dataset: { action: 'export' } },
        'Download your data (JSON)')),
      h('p', { class: 'muted small' }, 'Deleting the account logs you out everywhere and removes its name, password and ratings.'),
      this.confirming
        ? h('div', { class: 'confirm', role: 'group', 'aria-label': 'Delete the account' },
          h('span', { class: 'confirm-question' }, 'Delete your account for good?'),
          h('button', { type: 'button', class: 'danger strong', dataset: { action: 'confirm-delete' }, onclick: () => this.deleteAccount() }, 'Delete it'),
          h('button', { type: 'button', class: 'secondary', dataset: { action: 'cancel-delete' },
            onclick: () => { this.confirming = false; this.focusAfter = '[data-action="delete-account"]'; this.update(); } }, 'Keep it'))
        : h('button', { type: 'button', class: 'danger', dataset: { action: 'delete-account' },
          onclick: () => { this.confirming = true; this.focusAfter = '[data-action="cancel-delete"]'; this.update(); } }, 'Delete the account…'),
      this.deleteSlot);
    return [head, h('div', { class: 'account-grid' }, password, data)];
  }

  async logOut(everywhere) {
    await this.send(this.accountSlot, () => logOut(everywhere), { action: 'log-out' }, () => this.signedOut(everywhere ? 'Logged out on every device.' : 'Logged out.'),
      (result) => { if (result.status === 401) this.signedOut('Logged out.'); }); // the session had ended already
  }

  signedOut(text) {
    this.ratings = null;
    this.confirming = false;
    this.app.signedOut();
    this.app.notify(text, 'info');
  }

  async changePassword(oldInput, newInput) {
    if (!oldInput.value) return say(this.passwordSlot, 'Please type your current password.');
    const problem = passwordProblem(newInput.value);
    if (problem) return say(this.passwordSlot, problem);
    await this.send(this.passwordSlot, () => changePassword(oldInput.value, newInput.value), { action: 'password' }, () => {
      oldInput.value = '';
      newInput.value = '';
      say(this.passwordSlot, 'Password changed. Your other devices are logged out.', 'info');
    });
  }

  async deleteAccount() {
    await this.send(this.deleteSlot, () => deleteAccount(), { action: 'delete' }, () => this.signedOut('Your account has been deleted.'));
  }
}
