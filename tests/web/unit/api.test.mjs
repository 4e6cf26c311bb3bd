// The HTTP API of accounts, profiles and the leaderboard as the client calls it (web/js/api.js):
// the requests as the server's contract spells them (sign-up with the guest's token, log in,
// log out here or everywhere, the password, profiles paged, the leaderboard by pool), answers
// read without throwing, Retry-After in seconds, and each refusal in words.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  request, signUp, logIn, logOut, changePassword, deleteAccount, fetchMe, fetchPlayer, fetchPlayerGames, fetchLeaderboard,
  passwordProblem, problemText,
} from '../../../web/js/api.js';

/** A fetch that records its calls and answers `status` with `body` (and `headers`). */
function fakeFetch(status, body = null, headers = {}) {
  const calls = [];
  const f = async (path, init) => {
    calls.push({ path, method: init.method, body: init.body === undefined ? undefined : JSON.parse(init.body), init });
    return {
      ok: status >= 200 && status < 300,
      status,
      headers: { get: (k) => headers[k] ?? null },
      text: async () => (body === null ? '' : typeof body === 'string' ? body : JSON.stringify(body)),
    };
  };
  f.calls = calls;
  return f;
}

test('sign-up sends the name, the password and the guest\'s token, so that its games come along', async () => {
  const f = fakeFetch(201, { player: 'pk3x9abqz', name: 'Ann' });
  const r = await signUp('Ann', 'correct horse', 'tok123', f);
  assert.deepEqual(f.calls[0].body, { name: 'Ann', password: 'correct horse', token: 'tok123' });
  assert.equal(f.calls[0].path, 'api/accounts');
  assert.equal(f.calls[0].method, 'POST');
  assert.equal(f.calls[0].init.headers['Content-Type'], 'application/json');
  assert.equal(f.calls[0].init.credentials, 'same-origin', 'the session cookie is set and sent');
  assert.deepEqual(r, { ok: true, status: 201, body: { player: 'pk3x9abqz', name: 'Ann' }, retryAfter: null });
  const g = fakeFetch(201, {});
  await signUp('Ann', 'correct horse', null, g);
  assert.deepEqual(g.calls[0].body, { name: 'Ann', password: 'correct horse' }, 'no token: no "token" field');
});

test('the other routes, as the contract names them', async () => {
  const cases = [
    [(f) => logIn('Ann', 'pw', f), 'POST', 'api/sessions', { name: 'Ann', password: 'pw' }],
    [(f) => logOut(false, f), 'DELETE', 'api/sessions/current', undefined],
    [(f) => logOut(true, f), 'DELETE', 'api/sessions', undefined],
    [(f) => fetchMe(f), 'GET', 'api/me', undefined],
    [(f) => changePassword('old one!', 'new one!', f), 'POST', 'api/me/password', { old: 'old one!', new: 'new one!' }],
    [(f) => deleteAccount(f), 'DELETE', 'api/me', undefined],
    [(f) => fetchPlayer('Zoë B', f), 'GET', 'api/players/Zo%C3%AB%20B', undefined],
    [(f) => fetchPlayerGames('Ann', 20, f), 'GET', 'api/players/Ann/games?limit=10&offset=20', undefined],
    [(f) => fetchLeaderboard('advanced', f), 'GET', 'api/leaderboard?pool=advanced', undefined],
  ];
  for (const [call, method, path, body] of cases) {
    const f = fakeFetch(204);
    const r = await call(f);
    assert.equal(f.calls[0].method, method, path);
    assert.equal(f.calls[0].path, path);
    assert.deepEqual(f.calls[0].body, body, path);
    assert.equal(r.ok, true);
    assert.equal(r.body, null, 'an empty 204 reads as no body');
  }
});

test('a refusal is read, not thrown: its body, its status, Retry-After in seconds', async () => {
  const r = await request('POST', 'api/sessions', {}, fakeFetch(429, { type: 'error', code: 'rate_limited', message: 'Too many.' }, { 'Retry-After': '30' }));
  assert.deepEqual(r, { ok: false, status: 429, body: { type: 'error', code: 'rate_limited', message: 'Too many.' }, retryAfter: 30 });
  const html = await request('GET', 'api/me', undefined, fakeFetch(502, '<html>Bad gateway</html>'));
  assert.equal(html.body, null, 'a body that is no JSON is none');
  const down = await request('GET', 'api/me', undefined, async () => { throw new TypeError('Failed to fetch'); });
  assert.deepEqual(down, { ok: false, status: 0, body: null, retryAfter: null });
});

test('passwords as the server counts them: 8 characters to 256 bytes', () => {
  assert.match(passwordProblem('seven!!'), /too short/);
  assert.equal(passwordProblem('eight!!!'), null);
  assert.equal(passwordProblem('ééééééé€'), null, 'eight characters, more bytes');
  assert.match(passwordProblem('🙂🙂🙂🙂🙂🙂🙂'), /too short/, 'seven emoji are seven characters');
  assert.equal(passwordProblem('a'.repeat(256)), null);
  assert.match(passwordProblem('a'.repeat(257)), /too long/);
  assert.match(passwordProblem('é'.repeat(129)), /too long/, '258 bytes');
});

const refusal = (status, code, extra = {}) => ({ ok: false, status, body: { type: 'error', code, message: 'server words' }, retryAfter: null, ...extra });

test('each refusal in words', () => {
  assert.match(problemText(refusal(409, 'name_taken'), { action: 'sign-up', name: 'Ann' }), /“Ann” belongs to an account.*log in/);
  assert.match(problemText(refusal(400, 'bad_password')), /8 to 256 characters/);
  assert.equal(problemText(refusal(401, 'wrong_credentials'), { action: 'log-in' }), 'Wrong name or password.');
  assert.equal(problemText(refusal(401, 'wrong_credentials'), { action: 'password' }), 'The current password is wrong.');
  assert.equal(problemText(refusal(429, 'rate_limited', { retryAfter: 42 })), 'Too many attempts: please wait 42 seconds before trying again.');
  assert.equal(problemText(refusal(429, 'rate_limited', { retryAfter: 1 })), 'Too many attempts: please wait 1 second before trying again.');
  assert.match(problemText({ ok: false, status: 429, body: null, retryAfter: 5 }), /wait 5 seconds/, 'a 429 without a body');
  assert.match(problemText(refusal(429, 'rate_limited')), /wait a little/);
  assert.equal(problemText(refusal(400, 'bad_request')), 'server words', 'otherwise the server\'s own words');
  assert.match(problemText({ ok: false, status: 401, body: null, retryAfter: null }, { action: 'delete' }), /not logged in/);
  assert.equal(problemText({ ok: false, status: 404, body: null, retryAfter: null }, { action: 'profile', name: 'Nobody' }), 'No player is called “Nobody”.');
  assert.match(problemText({ ok: false, status: 0, body: null, retryAfter: null }), /could not be reached/);
  assert.equal(problemText({ ok: false, status: 500, body: null, retryAfter: null }), 'The server refused (500).');
});
