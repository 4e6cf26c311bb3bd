// The server's HTTP API for accounts, profiles and the leaderboard (the session cookie goes
// with every request of the page's origin): each call answers {ok, status, body, retryAfter},
// never throws, and `problemText` says a refusal in words. Paths are relative, as the page's
// other requests are, so that a site under a prefix works unchanged.

import { utf8Length } from './limits.js';

export const PASSWORD_CHARS = { min: 8, maxBytes: 256 };
export const GAMES_PAGE = 10;
export const EXPORT_HREF = 'api/me/export';

/** One request; `body` (an object) is sent as JSON. `fetchImpl` stands in for fetch in tests. */
export async function request(method, path, body = undefined, fetchImpl = globalThis.fetch) {
  const init = { method, cache: 'no-store', credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetchImpl(path, init);
  } catch {
    return { ok: false, status: 0, body: null, retryAfter: null };
  }
  const text = await res.text().catch(() => '');
  let parsed = null;
  try { parsed = text ? JSON.parse(text) : null; } catch { parsed = null; }
  // Retry-After in seconds (the server sends no HTTP date).
  const header = res.headers && typeof res.headers.get === 'function' ? res.headers.get('Retry-After') : null;
  const wait = header === null || header === '' ? NaN : Number(header);
  return { ok: res.ok, status: res.status, body: parsed, retryAfter: Number.isFinite(wait) && wait >= 0 ? Math.ceil(wait) : null };
}

const enc = encodeURIComponent;

/** A new account; `token` (the guest's, from its welcome) makes the guest the account, its games with it. */
export const signUp = (name, password, token, f) => request('POST', 'api/accounts', token ? { name, password, token } : { name, password }, f);
export const logIn = (name, password, f) => request('POST', 'api/sessions', { name, password }, f);
/** Logs out the session of this browser, or (`everywhere`) every session of the account. */
export const logOut = (everywhere, f) => request('DELETE', everywhere ? 'api/sessions' : 'api/sessions/current', undefined, f);
export const fetchMe = (f) => request('GET', 'api/me', undefined, f);
export const changePassword = (old, next, f) => request('POST', 'api/me/password', { old, new: next }, f);
export const deleteAccount = (f) => request('DELETE', 'api/me', undefined, f);
export const fetchPlayer = (name, f) => request('GET', `api/players/${enc(name)}`, undefined, f);
export const fetchPlayerGames = (name, offset, f, limit = GAMES_PAGE) =>
  request('GET', `api/players/${enc(name)}/games?limit=${limit}&offset=${offset}`, undefined, f);
export const fetchLeaderboard = (pool, f) => request('GET', `api/leaderboard?pool=${enc(pool)}`, undefined, f);

/** Why `password` cannot be an account's (as the server counts: 8 characters, 256 bytes), or null. */
export function passwordProblem(password) {
  if ([...password].length < PASSWORD_CHARS.min) return `The password is too short: at least ${PASSWORD_CHARS.min} characters.`;
  if (utf8Length(password) > PASSWORD_CHARS.maxBytes) return `The password is too long: at most ${PASSWORD_CHARS.maxBytes} characters (accented letters count 2, emoji 4).`;
  return null;
}

const seconds = (n) => `${n} second${n === 1 ? '' : 's'}`;

/**
 * A refused request in words. `result` is request()'s answer; `context.action` what was asked
 * ('sign-up', 'log-in', 'log-out', 'password', 'delete', 'profile', 'leaderboard') and
 * `context.name` the name it was about.
 */
export function problemText(result, { action = '', name = '' } = {}) {
  if (!result || result.status === 0) return 'The server could not be reached; check the connection and try again.';
  const body = result.body && typeof result.body === 'object' ? result.body : {};
  const said = typeof body.message === 'string' && body.message.trim() ? body.message.trim() : '';
  switch (body.code ?? (result.status === 429 ? 'rate_limited' : null)) {
    case 'name_taken':
      return `The name “${name}” belongs to an account already: choose another name, or log in if it is yours.`;
    case 'bad_password':
      return `The password must be ${PASSWORD_CHARS.min} to ${PASSWORD_CHARS.maxBytes} characters long.`;
    case 'already_account':
      return 'This guest has an account already: log in to it.';
    case 'wrong_credentials':
      return action === 'password' ? 'The current password is wrong.' : 'Wrong name or password.';
    case 'rate_limited':
      return result.retryAfter !== null
        ? `Too many attempts: please wait ${seconds(result.retryAfter)} before trying again.`
        : 'Too many attempts: please wait a little before trying again.';
    default:
  }
  if (result.status === 401) return 'You are not logged in (any more): please log in again.';
  if (result.status === 404 && action === 'profile') return `No player is called “${name}”.`;
  if (result.status === 404) return 'The server does not offer this yet.';
  if (said) return said;
  return `The server refused (${result.status}${body.code ? `, ${body.code}` : ''}).`;
}
