// Who the tab is to the server (web/js/session.js), against PROTOCOL.md section 4: hello with
// the token when there is one, else with the name; the welcome's token and name remembered;
// names checked before they are sent; a rename only while connected; a restart said until the
// server is back; the server's clock read from pong at the middle of the round trip; and an
// account's welcome (its cookie is who it is: a welcome without a token keeps none).

import test from 'node:test';
import assert from 'node:assert/strict';
import { Session, nameProblem } from '../../../web/js/session.js';
import { fakeHost, fakeStorage } from './fakes.mjs';

test('a new tab with no name asks for one and says no hello', () => {
  fakeStorage();
  const host = fakeHost();
  const session = new Session(host);
  assert.equal(session.needsName, true);
  session.opened();
  assert.deepEqual(host.sent, []);
});

test('a name typed in says hello with it, once connected', () => {
  const storage = fakeStorage();
  const host = fakeHost();
  const session = new Session(host);
  session.setName('  Ann  ');
  assert.equal(session.needsName, false);
  assert.equal(storage.getItem('quarto.name'), 'Ann', 'trimmed, and remembered');
  assert.deepEqual(host.ofType('hello'), [{ type: 'hello', name: 'Ann' }]);
  assert.equal(host.sent[0].ctx.kind, 'hello');
});

test('a tab with a token resumes with it, and the welcome\'s identity is remembered', () => {
  const storage = fakeStorage();
  storage.setItem('quarto.token', '5f0c1d2e3a4b59687766554433221100');
  storage.setItem('quarto.name', 'Ann');
  const host = fakeHost();
  const session = new Session(host);
  assert.equal(session.needsName, false);
  session.opened();
  assert.deepEqual(host.ofType('hello'), [{ type: 'hello', token: '5f0c1d2e3a4b59687766554433221100' }]);
  assert.equal(host.sent[0].ctx.kind, 'resume');
  session.welcome({ type: 'welcome', player: 'pk3x9abqz', name: 'Annie', token: 'aa', protocol: 1 });
  assert.equal(session.welcomed, true);
  assert.equal(session.me.id, 'pk3x9abqz');
  assert.equal(storage.getItem('quarto.name'), 'Annie');
  assert.equal(storage.getItem('quarto.token'), 'aa');
});

test('a token the server no longer knows is forgotten; a refused name is asked again', () => {
  const storage = fakeStorage();
  storage.setItem('quarto.token', 'old');
  storage.setItem('quarto.name', 'Ann');
  const session = new Session(fakeHost());
  session.forgetToken();
  assert.equal(storage.getItem('quarto.token'), null);
  assert.equal(session.needsName, false, 'the name is still there to say hello with');
  session.helloRefused({ code: 'rate_limited' });
  assert.equal(session.me.name, 'Ann', 'too fast is no reason to forget the name');
  session.helloRefused({ code: 'bad_message' });
  assert.equal(session.needsName, true);
  assert.equal(storage.getItem('quarto.name'), null);
});

test('names are checked as the server checks them: not empty, at most 32 bytes', () => {
  assert.equal(nameProblem('Ann'), null);
  assert.ok(nameProblem(''));
  assert.equal(nameProblem('x'.repeat(32)), null);
  assert.match(nameProblem('é'.repeat(17)), /too long/);
  fakeStorage();
  const host = fakeHost();
  const session = new Session(host);
  session.setName('   ');
  assert.equal(session.needsName, true);
  assert.deepEqual(host.notices.map((n) => n.where), [{ form: 'name' }], 'said under the name');
  assert.deepEqual(host.sent, []);
});

test('a rename is sent only while welcomed, and the same name sends nothing', () => {
  fakeStorage();
  const host = fakeHost();
  const session = new Session(host);
  session.setName('Ann');
  host.sent.length = 0;
  assert.equal(session.rename('Bob'), false, 'not connected yet');
  assert.deepEqual(host.notices.at(-1).where, { form: 'rename' });
  session.welcome({ player: 'p1', name: 'Ann', token: 't' });
  assert.equal(session.rename('Ann'), true);
  assert.deepEqual(host.sent, []);
  assert.equal(session.rename(' Bob '), true);
  assert.deepEqual(host.ofType('rename'), [{ type: 'rename', name: 'Bob' }]);
  session.renamed({ type: 'renamed', name: 'Bob' });
  assert.equal(session.me.name, 'Bob');
  assert.match(host.announced.at(-1), /Bob/);
});

test('a server restart is said until the server is back, then that it is back', () => {
  fakeStorage();
  const host = fakeHost();
  const session = new Session(host);
  session.closed({ code: 1012, reason: 'server restarting' });
  assert.equal(session.restarting, true);
  assert.equal(host.notices[0].options.key, 'restart');
  assert.equal(host.notices[0].options.untilEnded, true);
  session.welcome({ player: 'p1', name: 'Ann', token: 't' });
  assert.equal(session.restarting, false);
  assert.deepEqual(host.ended, ['restart']);
  assert.equal(host.notices.at(-1).kind, 'info');
  session.closed({ code: 1006 });
  assert.equal(session.restarting, false, 'a lost connection is no restart');
  assert.equal(session.welcomed, false);
});

test('the server\'s clock: pong\'s time is read as of the middle of the round trip', () => {
  fakeStorage();
  const host = fakeHost();
  const session = new Session(host);
  session.ping();
  assert.deepEqual(host.sent, [], 'no ping before the welcome');
  session.welcome({ player: 'p1', name: 'Ann', token: 't' });
  session.ping();
  assert.deepEqual(host.ofType('ping'), [{ type: 'ping' }]);
  session.pingSentAt = 1000;
  session.pong({ type: 'pong', time_ms: 5100 }, 1200);
  assert.equal(session.serverOffset, 4000, 'the server read 5100 at our 1100');
  const before = Date.now();
  const now = session.serverNow();
  assert.ok(now >= before + 4000 && now <= Date.now() + 4000);
});

test('an account\'s welcome: its ratings; without a token, the guest\'s is forgotten and the name says hello', () => {
  const storage = fakeStorage();
  storage.setItem('quarto.token', 'guest-token');
  storage.setItem('quarto.name', 'Ann');
  const host = fakeHost();
  const session = new Session(host);
  session.opened();
  assert.deepEqual(host.ofType('hello'), [{ type: 'hello', token: 'guest-token' }], 'the hello is unchanged: the cookie decides');
  const ratings = { standard: { rating: 1512.3, rd: 80.1, volatility: 0.06, provisional: false, games: 30 } };
  session.welcome({ type: 'welcome', player: 'pk3x9abqz', name: 'Ann', account: true, ratings, protocol: 1 });
  assert.equal(session.me.account, true);
  assert.deepEqual(session.me.ratings, ratings);
  assert.equal(session.me.token, null);
  assert.equal(storage.getItem('quarto.token'), null);
  assert.equal(session.needsName, false);
  session.closed({ code: 1006 });
  session.opened();
  assert.deepEqual(host.ofType('hello').at(-1), { type: 'hello', name: 'Ann' });
});

test('a guest\'s welcome is no account\'s; an account\'s token, when it has one, is kept', () => {
  const storage = fakeStorage();
  const session = new Session(fakeHost());
  session.welcome({ type: 'welcome', player: 'p1', name: 'Ann', token: 't1', account: false, protocol: 1 });
  assert.equal(session.me.account, false);
  assert.equal(session.me.ratings, null);
  session.welcome({ type: 'welcome', player: 'p1', name: 'Ann', token: 't2', account: true, ratings: {}, protocol: 1 });
  assert.equal(storage.getItem('quarto.token'), 't2');
});

test('logged in: the account\'s name says the next hello; logged out: a guest again, with a name of its own', () => {
  const storage = fakeStorage();
  const host = fakeHost();
  const session = new Session(host);
  assert.equal(session.needsName, true);
  session.signedIn('Ann');
  assert.equal(session.needsName, false, 'logging in on a new device needs no guest name first');
  assert.equal(storage.getItem('quarto.name'), 'Ann');
  session.welcome({ type: 'welcome', player: 'p1', name: 'Ann', token: 'acct', account: true, ratings: {}, protocol: 1 });
  session.signedOut();
  assert.equal(session.me.account, false);
  assert.equal(session.me.ratings, null);
  assert.equal(storage.getItem('quarto.token'), null, 'the account\'s token would resume it without its cookie');
  assert.equal(session.needsName, true, 'a guest may not say hello with an account\'s name (name_taken)');
  session.opened();
  assert.deepEqual(host.ofType('hello'), []);
});

test('the account\'s sessions ended (4001): a welcome as the account goes on; a refused hello makes a guest of this tab', () => {
  const storage = fakeStorage();
  const session = new Session(fakeHost());
  session.welcome({ type: 'welcome', player: 'p1', name: 'Ann', account: true, ratings: {}, protocol: 1 });
  session.closed({ code: 4001, reason: 'session ended' });
  session.welcome({ type: 'welcome', player: 'p1', name: 'Ann', account: true, ratings: {}, protocol: 1 });
  assert.equal(session.helloRefused({ code: 'name_taken' }), false, 'this tab\'s session was live: a later refusal is only a name\'s');
  session.welcome({ type: 'welcome', player: 'p1', name: 'Ann', account: true, ratings: {}, protocol: 1 });
  session.closed({ code: 4001, reason: 'session ended' });
  assert.equal(session.helloRefused({ code: 'name_taken' }), true, 'the cookie is dead: the account\'s name is refused to a guest');
  assert.equal(session.me.account, false);
  assert.equal(session.needsName, true);
  assert.equal(storage.getItem('quarto.name'), null);
  session.closed({ code: 4001 });
  assert.equal(session.helloRefused({ code: 'rate_limited' }), false, 'too fast is no reason');
});
