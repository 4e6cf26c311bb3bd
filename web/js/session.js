// Who this tab is to the server (protocol section 4): the name and the token it remembers, the
// hello that says them on every (re)connection, the welcome, renaming, and the server's clock
// as ping and pong measure it. The other stores ask it whether the server has welcomed us.
// An account's session cookie goes with the handshake: the hello is the same, the welcome an
// account's (`account`, `ratings`), maybe without a token (the cookie is then who we are).
//
// `host` is the App: send(msg, ctx) tracks a request, notify(text, kind, where, options),
// endNotice(key), announce(text), changed().

import { MAX_PLAYER_NAME_BYTES, tooLong } from './limits.js';
import { load, save } from './storage.js';

const KEY_NAME = 'quarto.name';
const KEY_TOKEN = 'quarto.token';

/** Why `name` (trimmed) cannot be a player's name, or null when it can. */
export function nameProblem(name, empty = 'Please type a name.') {
  if (!name) return empty;
  return tooLong('Your name', name, MAX_PLAYER_NAME_BYTES);
}

export class Session {
  constructor(host) {
    this.host = host;
    this.me = { id: null, name: load(KEY_NAME), token: load(KEY_TOKEN), account: false, ratings: null };
    this.welcomed = false;
    this.welcomes = 0; // so far: a new identity's is the next one
    this.everWelcomed = false;
    this.restarting = false; // closed by a server restart (1012), not yet signed in again
    this.serverOffset = 0; // server epoch ms - local epoch ms (from pong)
    this.pingSentAt = null; // when the ping in flight left, to read pong's time at the middle of the trip
  }

  /** Nothing to say hello with: the page asks for a name first. */
  get needsName() {
    return !this.me.token && !this.me.name;
  }

  hello() {
    if (this.me.token) this.host.send({ type: 'hello', token: this.me.token }, { kind: 'resume' });
    else if (this.me.name) this.host.send({ type: 'hello', name: this.me.name }, { kind: 'hello' });
    // else: the name view is shown; setName() says hello.
  }

  opened() {
    this.welcomed = false;
    this.hello();
  }

  /** The connection closed with `detail` ({code, reason}): says why when it is worth a word. */
  closed(detail) {
    this.welcomed = false;
    const code = detail ? detail.code : null;
    if (code === 1009) this.host.notify('A message was too large for the server; the connection was reset.');
    else if (code === 1008) this.host.notify('The server closed the connection after too many rejected messages.');
    // A restart or upgrade (1012; 1001 from a proxy or an older server): say so until the page
    // is back in (a restart can outlast a notice's few seconds), then reconnect and resume as
    // after any disconnect.
    // The account's sessions were ended (4001): ours too, unless the next welcome is the account's.
    else if (code === 4001) this.sessionEnded = true;
    else if (code === 1012 || code === 1001) {
      this.restarting = true;
      this.host.notify('The server is restarting… reconnecting.', 'info', null, { key: 'restart', untilEnded: true });
    }
  }

  welcome(msg) {
    this.welcomes += 1;
    this.sessionEnded = false;
    this.welcomed = true;
    this.everWelcomed = true;
    if (this.restarting) {
      this.restarting = false;
      this.host.endNotice('restart');
      this.host.notify('The server is back.', 'info');
    }
    this.me.id = msg.player;
    this.me.account = msg.account === true;
    this.me.ratings = this.me.account && msg.ratings && typeof msg.ratings === 'object' ? msg.ratings : null;
    if (msg.name) { this.me.name = msg.name; save(KEY_NAME, msg.name); }
    if (msg.token) { this.me.token = msg.token; save(KEY_TOKEN, msg.token); }
    else if (this.me.account) this.forgetToken(); // the cookie is the identity
  }

  /** Logged in or signed up: the next hello says the account's name (the cookie decides). */
  signedIn(name) {
    if (typeof name === 'string' && name) { this.me.name = name; save(KEY_NAME, name); }
  }

  /** Logged out: a guest next, who needs a name of its own (an account's is refused). */
  signedOut() {
    this.forgetToken();
    this.me.name = null;
    save(KEY_NAME, null);
    this.me.account = false;
    this.me.ratings = null;
  }

  /** The name typed on the name page: remembered, and said in a hello if none was said yet. */
  setName(name) {
    const clean = String(name).trim();
    const problem = nameProblem(clean, 'Please type a name (any name will do).');
    if (problem) {
      this.host.notify(problem, 'error', { form: 'name' });
      return;
    }
    this.me.name = clean;
    save(KEY_NAME, clean);
    if (!this.welcomed) this.hello(); // sent only while connected
    this.host.changed();
  }

  /** A new name for the same player (same seats and games); true when it was sent. */
  rename(name) {
    const clean = String(name).trim();
    if (clean === this.me.name) return true;
    const problem = nameProblem(clean);
    if (problem) {
      this.host.notify(problem, 'error', { form: 'rename' });
      return false;
    }
    if (!this.welcomed) {
      this.host.notify('Not connected to the server: your name can change once it is back.', 'error', { form: 'rename' });
      return false;
    }
    this.host.send({ type: 'rename', name: clean }, { kind: 'rename' });
    return true;
  }

  /** `renamed`, or this player's `player_renamed` from another tab. */
  renamed(player) {
    if (typeof player.name !== 'string') return;
    this.me.name = player.name;
    save(KEY_NAME, player.name);
    this.host.announce(`You are now ${player.name}.`);
    this.host.changed();
  }

  /** The token is no longer known: this tab starts again as a new player. */
  forgetToken() {
    this.me.token = null;
    save(KEY_TOKEN, null);
  }

  /** A hello with a name was refused: the name is asked again (unless we were only too fast).
   *  True when it was refused because our session ended (its name is an account's). */
  helloRefused(msg) {
    if (msg.code === 'rate_limited') return false;
    this.me.name = null;
    save(KEY_NAME, null);
    if (!this.sessionEnded) return false;
    this.signedOut();
    return true;
  }

  ping() {
    if (!this.welcomed) return;
    if (this.host.send({ type: 'ping' }) !== null) this.pingSentAt = Date.now();
  }

  pong(msg, now = Date.now()) {
    // The server read its clock about halfway between our ping and its pong.
    const asked = this.pingSentAt ?? now;
    if (typeof msg.time_ms === 'number') this.serverOffset = msg.time_ms - (asked + now) / 2;
    this.pingSentAt = null;
  }

  /** The server's clock now (unix ms), as well as the last pong tells. */
  serverNow() {
    return Date.now() + this.serverOffset;
  }
}
