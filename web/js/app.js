// The client's conversation with the server (protocol v1): one connection, the requests in
// flight, and every message routed to the store it is about: the session (session.js), the
// lobby's list (lobby-store.js), the rooms we follow (room-store.js) and tournaments
// (tournament-store.js). Views read the state and call the actions through this App, and
// listen to its events: `change` (redraw), `notice` (a message for the player), `notice-end`,
// `announce` (for screen readers).

import { Connection, socketUrl } from './connection.js';
import { ROOM_EVENTS } from './room.js';
import { describeError } from './errors.js';
import { Session } from './session.js';
import { LobbyStore } from './lobby-store.js';
import { RoomStore } from './room-store.js';
import { TournamentStore } from './tournament-store.js';
import { tournamentHref } from './tournaments.js';

/** What a request was about, for its errors to be shown there (see App.notify). */
function whereOf(ctx) {
  if (!ctx) return null;
  if (ctx.kind === 'create') return { form: 'create-room' };
  if (ctx.kind === 'create_tournament') return { form: 'create-tournament' };
  if (ctx.kind === 'hello') return { form: 'name' };
  if (ctx.tournament !== undefined && ctx.tournament !== null) return { tournament: ctx.tournament };
  if (ctx.key !== undefined) return { room: ctx.key };
  return null;
}

export class App extends EventTarget {
  constructor() {
    super();
    this.conn = new Connection(socketUrl());
    this.reqs = new Map(); // req -> {kind, key, tournament, phase, ...}: what it asked, for its answer
    this.changeQueued = false;
    this.session = new Session(this);
    this.roomStore = new RoomStore(this, this.session);
    this.lobby = new LobbyStore(this, this.session, this.roomStore);
    this.tournamentStore = new TournamentStore(this, this.session, this.roomStore);
  }

  start() {
    this.conn.addEventListener('open', () => this.onOpen());
    this.conn.addEventListener('close', (e) => this.onClose(e.detail));
    this.conn.addEventListener('state', () => this.changed());
    this.conn.addEventListener('message', (e) => this.onMessage(e.detail));
    this.conn.connect();
    // A tab that comes back to the foreground reconnects at once instead of waiting.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.conn.retryNow();
    });
    window.addEventListener('online', () => this.conn.retryNow());
  }

  // ---- notifications to the views ----

  changed() {
    if (this.changeQueued) return;
    this.changeQueued = true;
    queueMicrotask(() => {
      this.changeQueued = false;
      this.dispatchEvent(new CustomEvent('change'));
    });
  }

  /**
   * A message for the player. `where` says what it is about, so that the view showing that
   * thing can show it in place: {room: KEY}, {tournament: KEY}, {form: 'name' | 'create-room' |
   * 'create-tournament'}; otherwise (or when no view on screen takes it) it goes to the
   * notices under the header. `options.key` names a notice under the header for endNotice,
   * and with `options.untilEnded` it stays until then instead of a few seconds.
   */
  notify(text, kind = 'error', where = null, options = {}) {
    this.dispatchEvent(new CustomEvent('notice', { detail: { text, kind, where, ...options } }));
  }

  /** Takes the notices named `key` away. */
  endNotice(key) {
    this.dispatchEvent(new CustomEvent('notice-end', { detail: key }));
  }

  announce(text) {
    if (text) this.dispatchEvent(new CustomEvent('announce', { detail: text }));
  }

  openRoom(id) {
    this.go(`#/room/${encodeURIComponent(String(id))}`);
  }

  openTournament(id) {
    this.go(tournamentHref(id));
  }

  go(target) {
    if (window.location.hash !== target) window.location.hash = target;
    else this.changed();
  }

  /** The address on screen. */
  hash() {
    return window.location.hash;
  }

  // ---- requests ----

  /** Sends `msg`; its answer is routed with `ctx` (what it asked). Null when not connected. */
  send(msg, ctx) {
    const req = this.conn.send(msg);
    if (req !== null && ctx !== undefined) this.reqs.set(req, ctx);
    return req;
  }

  /** Like send, and says so when the message cannot go now. */
  sendOrComplain(msg, ctx) {
    const req = this.send(msg, ctx);
    if (req === null) this.notify('Not connected to the server right now — reconnecting, please try again in a moment.', 'error', whereOf(ctx));
    return req;
  }

  // ---- the connection ----

  onOpen() {
    this.session.opened();
    this.changed();
  }

  onClose(detail) {
    // Only our server's own restart (1012) stops its clocks; behind a proxy that closed with
    // 1001 the games may go on.
    this.roomStore.connectionLost(!!detail && detail.code === 1012);
    this.tournamentStore.connectionLost();
    this.session.closed(detail);
    this.changed();
  }

  onWelcome(msg, resumed) {
    // An account's hello by name resumes too; another player than before (logged in or out) does not.
    const before = this.me.id;
    resumed = (before === null || before === msg.player) && (resumed || Array.isArray(msg.rooms));
    this.session.welcome(msg);
    this.roomStore.welcome(resumed);
    this.lobby.list();
    this.session.ping(); // the server's clock, for the countdowns to a tournament round's start
    this.tournamentStore.welcome(resumed);
    this.roomStore.sendInvite();
    this.roomStore.awaitResume(resumed);
    this.changed();
  }

  // ---- messages, each to its store ----

  onMessage(msg) {
    const ctx = msg.req !== undefined ? this.reqs.get(msg.req) : undefined;
    if (ctx) this.reqs.delete(msg.req);
    switch (msg.type) {
      case 'welcome': this.onWelcome(msg, ctx ? ctx.kind === 'resume' : !!this.me.token); break;
      case 'renamed': this.session.renamed(msg); break;
      case 'pong': this.session.pong(msg); break;
      case 'rooms': this.lobby.listed(msg); this.changed(); break;
      case 'room_created': this.roomStore.created(msg); break;
      case 'room': this.tournamentStore.announcePairing(this.roomStore.snapshot(msg)); this.changed(); break;
      case 'synced': this.roomStore.synced(msg); this.changed(); break;
      case 'room_closed': this.roomStore.closed(msg); this.changed(); break;
      case 'tournaments': this.tournamentStore.listed(msg); break;
      case 'tournament_created': this.openTournament(msg.tournament); break;
      case 'tournament': this.tournamentStore.snapshot(msg, ctx); break;
      case 'tournament_pairing': this.tournamentStore.pairing(msg); break;
      case 'tournament_round': this.tournamentStore.roundNotice(msg); break;
      case 'error': this.onError(msg, ctx); break;
      default:
        // This player renamed on another tab: this one shows it too.
        if (msg.type === 'player_renamed' && msg.player && msg.player.id === this.me.id) this.session.renamed(msg.player);
        if (ROOM_EVENTS.has(msg.type) || (msg.room !== undefined && typeof msg.seq === 'number')) this.onEvent(msg);
    }
  }

  onEvent(ev) {
    if (!this.roomStore.event(ev)) return;
    if (ev.type === 'game_over') this.dispatchEvent(new CustomEvent('gameover', { detail: { key: String(ev.room) } }));
    this.changed();
  }

  /** A request refused: the store it is about says it, or it is said where it belongs. */
  onError(msg, ctx) {
    const kind = ctx ? ctx.kind : null;
    if (kind === 'resume') {
      // The token is no longer known (a server restart keeps only the tokens of seated players
      // and tournament entrants): start as a new player. Only a lost seat is worth a word; a
      // spectator's page watches its rooms again by itself.
      const lostSeat = this.roomStore.dropAll();
      this.session.forgetToken();
      if (this.me.name) {
        if (lostSeat) this.notify('Your previous session could not be resumed (the server may have restarted); you are back in the lobby.', 'info');
        this.session.hello();
      }
    } else if (kind === 'sync') {
      this.roomStore.syncRefused(msg, ctx);
    } else if (ctx && ctx.tournament !== undefined && this.tournamentStore.refused(msg, ctx)) {
      return; // said on the page or in the list
    } else if (kind === 'join' && this.roomStore.joinRefused(ctx)) {
      // a room we only meant to watch again: nothing to say
    } else {
      if (kind === 'hello' && this.session.helloRefused(msg)) {
        this.roomStore.inviteFailed();
        this.notify('You have been logged out (on every device, or by a new password): log in again, or play as a guest.', 'info');
        return this.changed();
      }
      if (kind === 'hello') this.roomStore.inviteFailed();
      this.notify(describeError(msg, { kind, phase: ctx ? ctx.phase : undefined }), 'error', whereOf(ctx));
    }
    this.changed();
  }

  // ---- what the views read and do ----

  get me() { return this.session.me; }
  get welcomed() { return this.session.welcomed; }
  get everWelcomed() { return this.session.everWelcomed; }
  get restarting() { return this.session.restarting; }
  get needsName() { return this.session.needsName; }
  get rooms() { return this.roomStore.rooms; }
  get idTypes() { return this.roomStore.idTypes; }
  get joining() { return this.roomStore.joining; }
  get expectRoom() { return this.roomStore.expectRoom; }
  get inviting() { return this.roomStore.inviting; }
  get resuming() { return this.roomStore.resuming; }
  get tournaments() { return this.tournamentStore.book; }

  setName(name) { this.session.setName(name); }
  /** Logged in or out (the cookie set or gone): greeted anew on a new connection (once named). */
  signedIn(name) { this.session.signedIn(name); this.conn.reconnect(); this.changed(); }
  signedOut() { this.session.signedOut(); this.conn.reconnect(); this.changed(); }
  rename(name) { return this.session.rename(name); }
  ping() { this.session.ping(); }
  serverNow() { return this.session.serverNow(); }

  listRooms() { this.lobby.list(); }
  createRoom(options) { return this.roomStore.create(options); }
  join(id, as, silent = false) { this.roomStore.join(id, as, silent); }
  leave(room) { this.roomStore.leave(room); }
  /** A game action in a room: give, place, quarto, pass, resign, rematch, claim_victory. */
  act(room, type, fields = {}) { return this.roomStore.act(room, type, fields); }

  /**
   * An invitation accepted in one step: the name (when this tab has none yet: hello), then the
   * seat or a place in the audience (`as`), sent as soon as the server has welcomed us.
   */
  acceptInvite(id, as, name) {
    if (this.needsName) {
      this.session.setName(name);
      if (this.needsName) return; // refused in place: empty or too long
    }
    this.roomStore.invite(id, as);
  }

  dropInvite(key) { this.roomStore.dropInvite(key); }

  listTournaments() { this.tournamentStore.list(); }
  createTournament(options) { return this.tournamentStore.create(options); }
  watchTournament(id) { this.tournamentStore.watch(id); }
  unwatchTournament(id) { this.tournamentStore.unwatch(id); }
  /** join_tournament, withdraw_tournament, start/pause/resume_tournament, remove_player, add_bot. */
  tournamentAct(id, type, fields = {}) { return this.tournamentStore.act(id, type, fields); }
}
