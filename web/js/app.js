// The client's state and its conversation with the server (protocol v1): session (hello, resume
// by token), lobby list, the rooms this tab follows (as player or spectator), event ordering by
// seq with sync on a gap, tournaments (section 19), and every player action. Views read from
// here and call the actions.

import { MAX_PLAYER_NAME_BYTES, tooLong } from './limits.js';
import { Connection, socketUrl } from './connection.js';
import { Room, ROOM_EVENTS } from './room.js';
import { describeError } from './errors.js';
import { TournamentBook, tournamentKey, tournamentHref, pairingText, playerName } from './tournaments.js';
import { resultText } from './words.js';

const KEY_NAME = 'quarto.name';
const KEY_TOKEN = 'quarto.token';
const KEY_WATCHING = 'quarto.watching';
const KEY_ROOMS = 'quarto.rooms';
// The lobby shows this many rooms (the server sends those with a free seat first).
const LOBBY_PAGE = 50;
const SYNC_RETRY_MS = 3000;
const RESUME_WAIT_MS = 3000;

function load(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}
function save(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* private mode: nothing to remember */ }
}

export const roomKey = (id) => String(id);

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
export { tournamentKey };

/** A room id from the address bar (room ids are opaque strings in protocol v1). */
export function parseRoomId(text) {
  try { return decodeURIComponent(text); } catch { return text; }
}

export class App extends EventTarget {
  constructor() {
    super();
    this.conn = new Connection(socketUrl());
    this.me = { id: null, name: load(KEY_NAME), token: load(KEY_TOKEN) };
    this.restarting = false; // closed by a server restart (1012), not yet signed in again
    this.welcomed = false;
    this.resuming = false;
    this.rooms = new Map(); // roomKey -> Room
    this.lobby = { rooms: null, at: 0 };
    this.idTypes = new Map(); // roomKey -> the id as the server spells it
    this.syncing = new Map(); // roomKey -> time the sync was sent
    this.reqs = new Map(); // req -> {kind, key, phase}
    this.expectRoom = null; // roomKey of a room we created, to open when its snapshot arrives
    this.joining = new Set(); // roomKeys with a join in flight
    this.inviting = null; // {key, id, as, sent, failed}: an invitation accepted, joined once welcomed
    this.serverOffset = 0; // server epoch ms - local epoch ms (from pong)
    this.pingSentAt = null; // when the ping in flight left, to read pong's time at the middle of the trip
    let watching = [];
    try { watching = JSON.parse(load(KEY_WATCHING) || '[]'); } catch { watching = []; }
    this.watching = new Set(Array.isArray(watching) ? watching.map(String) : []);
    let remembered = [];
    try { remembered = JSON.parse(load(KEY_ROOMS) || '[]'); } catch { remembered = []; }
    this.remembered = new Set(Array.isArray(remembered) ? remembered.map(String) : []); // rooms we are in
    this.changeQueued = false;
    this.tournaments = new TournamentBook(); // snapshots, the list, and which rooms are whose games
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

  // ---- session ----

  get needsName() {
    return !this.me.token && !this.me.name;
  }

  onOpen() {
    this.welcomed = false;
    this.sayHello();
    this.changed();
  }

  onClose(detail) {
    this.welcomed = false;
    this.syncing.clear();
    this.joining.clear();
    this.tournaments.connectionLost();
    if (detail && detail.code === 1009) this.notify('A message was too large for the server; the connection was reset.');
    else if (detail && detail.code === 1008) this.notify('The server closed the connection after too many rejected messages.');
    // A restart or upgrade (1012; 1001 from a proxy or an older server): say so until the page
    // is back in (a restart can outlast a notice's few seconds), then reconnect and resume as
    // after any disconnect.
    else if (detail && (detail.code === 1012 || detail.code === 1001)) {
      this.restarting = true;
      // Only our server's own restart (1012) stops its clocks; behind a proxy that closed with
      // 1001 the games may go on.
      if (detail.code === 1012) for (const room of this.rooms.values()) room.freezeClocks();
      this.notify('The server is restarting… reconnecting.', 'info', null, { key: 'restart', untilEnded: true });
    }
    this.changed();
  }

  sayHello() {
    if (!this.conn.isOpen) return;
    if (this.me.token) {
      this.track(this.conn.send({ type: 'hello', token: this.me.token }), { kind: 'resume' });
    } else if (this.me.name) {
      this.track(this.conn.send({ type: 'hello', name: this.me.name }), { kind: 'hello' });
    }
    // else: the name view is shown; setName() says hello.
  }

  setName(name) {
    const clean = String(name).trim();
    if (!clean) {
      this.notify('Please type a name (any name will do).', 'error', { form: 'name' });
      return;
    }
    const problem = tooLong('Your name', clean, MAX_PLAYER_NAME_BYTES);
    if (problem) {
      this.notify(problem, 'error', { form: 'name' });
      return;
    }
    this.me.name = clean;
    save(KEY_NAME, clean);
    if (this.conn.isOpen && !this.welcomed) this.sayHello();
    this.changed();
  }

  /** A new name for the same player (same seats and games); true when it was sent. */
  rename(name) {
    const clean = String(name).trim();
    if (clean === this.me.name) return true;
    const problem = !clean ? 'Please type a name.' : tooLong('Your name', clean, MAX_PLAYER_NAME_BYTES);
    if (problem) {
      this.notify(problem, 'error', { form: 'rename' });
      return false;
    }
    if (!this.welcomed) {
      this.notify('Not connected to the server: your name can change once it is back.', 'error', { form: 'rename' });
      return false;
    }
    this.track(this.conn.send({ type: 'rename', name: clean }), { kind: 'rename' });
    return true;
  }

  onRenamed(msg) {
    if (typeof msg.name !== 'string') return;
    this.me.name = msg.name;
    save(KEY_NAME, msg.name);
    this.announce(`You are now ${msg.name}.`);
    this.changed();
  }

  onWelcome(msg, resumed) {
    this.welcomed = true;
    this.everWelcomed = true;
    if (this.restarting) {
      this.restarting = false;
      this.endNotice('restart');
      this.notify('The server is back.', 'info');
    }
    this.me.id = msg.player;
    if (msg.name) { this.me.name = msg.name; save(KEY_NAME, msg.name); }
    if (msg.token) { this.me.token = msg.token; save(KEY_TOKEN, msg.token); }
    if (!resumed) {
      // A brand-new player owns no seat anywhere: drop what an older identity followed.
      for (const [key, room] of this.rooms) if (room.isPlayer) this.rooms.delete(key);
      this.remembered = new Set([...this.rooms.keys(), ...this.watching]);
      this.saveRemembered();
    }
    // Catch up with every room we follow; the resume snapshots may already cover them, in which
    // case the events we get back are old and ignored.
    for (const room of this.rooms.values()) this.requestSync(room, true);
    this.track(this.conn.send({ type: 'list_rooms', limit: LOBBY_PAGE }), { kind: 'list' });
    this.ping(); // the server's clock, for the countdowns to a tournament round's start
    // The tournament pages on screen are watched again, and so are the unfinished tournaments
    // we play in or direct: a server subscribes their players and director by itself on hello
    // with their token, but through another node of a cluster only the tournament's own node
    // knows we are in it, and a pairing goes only to subscribed connections.
    for (const key of this.tournaments.viewing) this.sendWatch(key);
    if (resumed) {
      for (const [key, t] of this.tournaments.snapshots) {
        if (this.tournaments.viewing.has(key) || t.status === 'finished') continue;
        if (t.director === this.me.id || this.tournaments.isEntrant(t, this.me.id)) this.sendWatch(key);
      }
    }
    this.sendInvite();
    // After a resume the server sends a snapshot of each room we are in, each from its own room
    // (so in no fixed order). Until the rooms we remember have come back (or a few seconds have
    // passed), a room's address shows "connecting" rather than offering to join it again.
    clearTimeout(this.resumeTimer);
    if (resumed && [...this.remembered].some((k) => !this.rooms.has(k))) {
      this.resuming = true;
      this.resumeTimer = setTimeout(() => this.finishResume(), RESUME_WAIT_MS);
    } else {
      this.finishResume();
    }
    this.changed();
  }

  checkResume() {
    if (this.resuming && [...this.remembered].every((k) => this.rooms.has(k))) this.finishResume();
  }

  finishResume() {
    clearTimeout(this.resumeTimer);
    this.resuming = false;
    // Rooms that did not come back are gone (closed, or we were dropped from them)...
    for (const key of [...this.remembered]) if (!this.rooms.has(key) && !this.watching.has(key)) this.remembered.delete(key);
    this.saveRemembered();
    // ...except rooms we watch: sit down in the audience again.
    for (const key of this.watching) {
      if (!this.rooms.has(key) && !this.joining.has(key)) this.join(this.idTypes.get(key) ?? parseRoomId(key), 'spectator', true);
    }
    this.changed();
  }

  saveRemembered() {
    save(KEY_ROOMS, JSON.stringify([...this.remembered]));
  }

  // ---- messages ----

  track(req, ctx) {
    if (req !== null && req !== undefined) this.reqs.set(req, ctx);
    return req;
  }

  onMessage(msg) {
    const ctx = msg.req !== undefined ? this.reqs.get(msg.req) : undefined;
    if (ctx) this.reqs.delete(msg.req);
    switch (msg.type) {
      case 'welcome':
        this.onWelcome(msg, ctx ? ctx.kind === 'resume' : !!this.me.token);
        return;
      case 'renamed':
        this.onRenamed(msg);
        return;
      case 'rooms':
        this.lobby = { rooms: Array.isArray(msg.rooms) ? msg.rooms : [], total: Number(msg.total) || 0, at: Date.now() };
        for (const r of this.lobby.rooms) this.idTypes.set(roomKey(r.id), r.id);
        this.changed();
        return;
      case 'room_created': {
        const key = roomKey(msg.room);
        this.idTypes.set(key, msg.room);
        if (this.rooms.has(key)) this.openRoom(msg.room);
        else this.expectRoom = key;
        return;
      }
      case 'room':
        this.onSnapshot(msg);
        return;
      case 'synced': {
        // The end of a sync answer: by now we must have reached the room's seq.
        const key = roomKey(msg.room);
        this.syncing.delete(key);
        const room = this.rooms.get(key);
        if (room && typeof msg.seq === 'number' && room.seq < msg.seq) {
          this.resyncs = (this.resyncs || 0) + 1;
          if (this.resyncs <= 3) this.requestSync(room, true);
          else this.notify('This game view could not catch up with the server; please reload the page.');
        } else {
          this.resyncs = 0;
        }
        this.changed();
        return;
      }
      case 'room_closed': {
        const key = roomKey(msg.room);
        const room = this.rooms.get(key);
        this.rooms.delete(key);
        this.watching.delete(key);
        this.saveWatching();
        this.notify(`${room ? room.name : 'A room'} was closed by the server after a while without activity.`, 'info');
        this.changed();
        return;
      }
      case 'tournaments':
        this.tournaments.setList(msg.tournaments);
        this.changed();
        return;
      case 'tournament_created':
        this.openTournament(msg.tournament);
        return;
      case 'tournament':
        this.tournaments.clearPending(ctx);
        if (this.tournaments.accept(msg)) this.changed();
        else if (ctx) this.changed();
        return;
      case 'tournament_pairing':
        this.onPairing(msg);
        return;
      case 'tournament_round':
        this.onRoundNotice(msg);
        return;
      case 'pong': {
        // The server read its clock about halfway between our ping and its pong.
        const now = Date.now();
        const asked = this.pingSentAt ?? now;
        if (typeof msg.time_ms === 'number') this.serverOffset = msg.time_ms - (asked + now) / 2;
        this.pingSentAt = null;
        return;
      }
      case 'error':
        this.onError(msg, ctx);
        return;
      default:
        // This player renamed on another tab: this one shows it too.
        if (msg.type === 'player_renamed' && msg.player && msg.player.id === this.me.id) this.onRenamed(msg.player);
        if (ROOM_EVENTS.has(msg.type) || (msg.room !== undefined && typeof msg.seq === 'number')) this.onEvent(msg);
    }
  }

  onSnapshot(msg) {
    const key = roomKey(msg.room);
    this.idTypes.set(key, msg.room);
    this.syncing.delete(key);
    this.joining.delete(key);
    let room = this.rooms.get(key);
    if (room) room.applySnapshot(msg);
    else {
      room = new Room(msg);
      this.rooms.set(key, room);
    }
    if (room.isPlayer) this.watching.delete(key);
    else this.watching.add(key);
    this.saveWatching();
    this.remembered.add(key);
    this.saveRemembered();
    if (this.inviting && this.inviting.key === key) this.inviting = null; // in: the game view takes over
    this.checkResume();
    if (this.expectRoom === key) {
      this.expectRoom = null;
      this.openRoom(msg.room);
    }
    this.announcePairing(key);
    this.changed();
  }

  /**
   * A tournament game has started for us: the server has seated us and sends the room's
   * snapshot next. Go there at once (the door says the game is on its way), and tell the
   * player who they play once the room's names are known.
   */
  onPairing(msg) {
    const key = roomKey(msg.room);
    this.idTypes.set(key, msg.room);
    // The next game of a pairing starts the moment the last one ends: say how that one ended,
    // since the player is taken away from its result.
    const shown = window.location.hash.match(/^#\/room\/([^/?#]+)/);
    const previous = shown ? this.rooms.get(roomKey(parseRoomId(shown[1]))) : null;
    let preface = '';
    if (previous && previous.id !== msg.room && previous.status === 'finished' && previous.result) {
      const last = resultText(previous);
      preface = `Last game: ${/[.!?]$/.test(last) ? last : `${last}.`}`;
    }
    this.tournaments.notePairing(msg, preface);
    if (!this.rooms.has(key)) this.expectRoom = key;
    this.openRoom(msg.room);
    this.announcePairing(key);
  }

  /** The server's clock now (unix ms), as well as the last pong tells. */
  serverNow() {
    return Date.now() + this.serverOffset;
  }

  /**
   * Our next tournament round is paired and starts at `starts_at_ms`: the tournament page and
   * the room of our last game of it count down by themselves; anywhere else, a notice says so.
   * The pairing (and the trip to the board) follows when the round starts.
   */
  onRoundNotice(msg) {
    const key = tournamentKey(msg.tournament);
    const t = this.tournaments.get(key);
    const name = t ? t.name : 'Your tournament';
    const seconds = Math.max(0, Math.round((msg.starts_at_ms - this.serverNow()) / 1000));
    const opponent = msg.opponent === null || msg.opponent === undefined ? null : (playerName(t, msg.opponent) || 'your opponent');
    const text = `${name}: round ${msg.round} starts in ${seconds} s — ${opponent ? `you play ${opponent}. Your board opens by itself.` : 'you have a bye.'}`;
    const shown = window.location.hash;
    const m = shown.match(/^#\/room\/([^/?#]+)/);
    const roomOnScreen = m ? roomKey(parseRoomId(m[1])) : null;
    const link = roomOnScreen ? this.tournaments.roomLink(roomOnScreen) : null;
    const mine = roomOnScreen && this.rooms.get(roomOnScreen)?.isPlayer;
    // The game view counts down in a room where we played this tournament's last round.
    const counting = shown === tournamentHref(key) || (mine && link && link.tournament === key);
    if (counting) this.announce(text);
    else this.notify(text, 'info');
  }

  announcePairing(key) {
    const pending = this.tournaments.unannounced(key);
    if (!pending || !this.rooms.has(key)) return;
    this.tournaments.announced(key);
    const { link, preface } = pending;
    const text = pairingText(link, this.rooms.get(key), this.tournaments.get(link.tournament));
    // The game's own pairing line says whom they play; what is new is how the last game ended.
    if (preface) this.notify(`${preface} ${text}`, 'info', { room: key });
    this.announce(text);
  }

  onEvent(ev) {
    const key = roomKey(ev.room);
    const room = this.rooms.get(key);
    if (!room) return; // not a room we follow (or its snapshot is still on the way)
    if (typeof ev.seq !== 'number') return;
    if (ev.seq <= room.seq) return; // already applied (e.g. replayed by a sync)
    if (ev.seq > room.seq + 1) {
      this.requestSync(room);
      return;
    }
    const text = room.applyEvent(ev);
    this.announce(text);
    if (ev.type === 'game_over') this.dispatchEvent(new CustomEvent('gameover', { detail: { key } }));
    this.changed();
  }

  requestSync(room, force = false) {
    const key = roomKey(room.id);
    const last = this.syncing.get(key);
    if (!force && last && Date.now() - last < SYNC_RETRY_MS) return;
    const req = this.conn.send({ type: 'sync', room: room.id, since: room.seq });
    if (req === null) return;
    this.syncing.set(key, Date.now());
    this.track(req, { kind: 'sync', key });
  }

  onError(msg, ctx) {
    const kind = ctx ? ctx.kind : null;
    if (kind === 'resume') {
      // The token is no longer known (a server restart keeps only the tokens of seated players
      // and tournament entrants): start as a new player. Only a lost seat is worth a word; a
      // spectator's page watches its rooms again by itself.
      const lostSeat = [...this.rooms.values()].some((room) => room.isPlayer);
      this.me.token = null;
      save(KEY_TOKEN, null);
      this.rooms.clear();
      this.resuming = false;
      this.remembered.clear();
      this.saveRemembered();
      if (this.me.name) {
        if (lostSeat) this.notify('Your previous session could not be resumed (the server may have restarted); you are back in the lobby.', 'info');
        this.sayHello();
      }
      this.changed();
      return;
    }
    if (kind === 'sync') {
      const room = this.rooms.get(ctx.key);
      this.syncing.delete(ctx.key);
      if (msg.code === 'not_in_room' && room && !room.isPlayer) {
        // Spectators are not kept across a lost connection: watch again.
        this.rooms.delete(ctx.key);
        this.join(room.id, 'spectator', true);
      } else if (msg.code === 'no_such_room' || msg.code === 'not_in_room') {
        this.rooms.delete(ctx.key);
        this.watching.delete(ctx.key);
        this.saveWatching();
        this.remembered.delete(ctx.key);
        this.saveRemembered();
        if (msg.code === 'no_such_room') this.notify(`${room ? room.name : 'A room'} has been closed by the server.`, 'info');
      } else if (msg.code !== 'rate_limited') {
        this.notify(describeError(msg), 'error', { room: ctx.key });
      }
      this.changed();
      return;
    }
    if (ctx && ctx.tournament !== undefined) {
      this.tournaments.clearPending(ctx);
      if (kind === 'list_tournaments') {
        // Polled every few seconds: say it once, in the list, not in a notice each time.
        this.tournaments.setListError(describeError(msg, { kind }));
        this.changed();
        return;
      }
      if (kind === 'watch_tournament' && msg.code !== 'rate_limited') {
        // The page says it instead of a notice.
        this.tournaments.setError(ctx.tournament, msg.code, describeError(msg, { kind }));
        this.changed();
        return;
      }
      this.notify(describeError(msg, { kind }), 'error', whereOf(ctx));
      this.changed();
      return;
    }
    if (kind === 'join') {
      this.joining.delete(ctx.key);
      // The invitation page stays, says why, and offers what is left (watching, the lobby).
      if (this.inviting && this.inviting.key === ctx.key) Object.assign(this.inviting, { sent: false, failed: true });
      if (ctx.silent && ctx.as === 'spectator') {
        this.watching.delete(ctx.key);
        this.saveWatching();
        this.changed();
        return;
      }
    }
    if (kind === 'hello' && msg.code !== 'rate_limited') {
      this.me.name = null;
      save(KEY_NAME, null);
    }
    if (kind === 'hello' && this.inviting) this.inviting.failed = true;
    this.notify(describeError(msg, { phase: ctx ? ctx.phase : undefined }), 'error', whereOf(ctx));
    this.changed();
  }

  saveWatching() {
    save(KEY_WATCHING, JSON.stringify([...this.watching]));
  }

  // ---- actions ----

  sendOrComplain(msg, ctx) {
    const req = this.conn.send(msg);
    if (req === null) {
      this.notify('Not connected to the server right now — reconnecting, please try again in a moment.', 'error', whereOf(ctx));
      return null;
    }
    return this.track(req, ctx);
  }

  listRooms() {
    if (this.welcomed) this.track(this.conn.send({ type: 'list_rooms', limit: LOBBY_PAGE }), { kind: 'list' });
  }

  ping() {
    if (!this.welcomed) return;
    if (this.conn.send({ type: 'ping' }) !== null) this.pingSentAt = Date.now();
  }

  createRoom(options) {
    return this.sendOrComplain({ type: 'create_room', ...options }, { kind: 'create' });
  }

  join(id, as, silent = false) {
    const key = roomKey(id);
    this.joining.add(key);
    const req = this.sendOrComplain({ type: 'join', room: id, as }, { kind: 'join', key, as, silent });
    if (req === null) this.joining.delete(key);
    if (as === 'spectator') { this.watching.add(key); this.saveWatching(); }
    this.changed();
  }

  /**
   * An invitation accepted in one step: the name (when this tab has none yet: hello), then the
   * seat or a place in the audience (`as`), sent as soon as the server has welcomed us.
   */
  acceptInvite(id, as, name) {
    if (this.needsName) {
      this.setName(name);
      if (this.needsName) return; // refused in place: empty or too long
    }
    this.inviting = { key: roomKey(id), id, as, sent: false, failed: false };
    if (this.welcomed) this.sendInvite();
    this.changed();
  }

  sendInvite() {
    const inv = this.inviting;
    if (!inv || inv.sent || !this.welcomed) return;
    inv.sent = true;
    this.join(inv.id, inv.as);
  }

  leave(room) {
    const key = roomKey(room.id);
    this.sendOrComplain({ type: 'leave', room: room.id }, { kind: 'leave', key });
    this.rooms.delete(key);
    this.watching.delete(key);
    this.saveWatching();
    this.remembered.delete(key);
    this.saveRemembered();
    this.changed();
  }

  /** A game action in a room: give, place, quarto, pass, resign, rematch. */
  act(room, type, fields = {}) {
    return this.sendOrComplain({ type, room: room.id, ...fields }, { kind: type, key: roomKey(room.id), phase: room.phase });
  }

  // ---- tournaments (section 19) ----

  listTournaments() {
    if (this.welcomed) this.track(this.conn.send({ type: 'list_tournaments', limit: LOBBY_PAGE }), { kind: 'list_tournaments', tournament: null });
  }

  createTournament(options) {
    return this.sendOrComplain({ type: 'create_tournament', ...options }, { kind: 'create_tournament', tournament: null });
  }

  /** The tournament's page is on screen: receive its snapshots (again after every reconnect). */
  watchTournament(id) {
    const key = tournamentKey(id);
    this.tournaments.viewing.add(key);
    this.tournaments.idTypes.set(key, id);
    if (this.welcomed) this.sendWatch(key);
  }

  sendWatch(key) {
    const id = this.tournaments.idTypes.get(key) ?? key;
    this.track(this.conn.send({ type: 'watch_tournament', tournament: id }), { kind: 'watch_tournament', tournament: key });
  }

  /**
   * The page is gone. Its players and director stay subscribed: the server sends
   * tournament_pairing only to subscribed connections, and this tab must still take them
   * to their next game.
   */
  unwatchTournament(id) {
    const key = tournamentKey(id);
    this.tournaments.viewing.delete(key);
    const t = this.tournaments.get(key);
    if (t && this.me.id && (t.director === this.me.id || this.tournaments.isEntrant(t, this.me.id))) return;
    if (this.welcomed) this.conn.send({ type: 'unwatch_tournament', tournament: this.tournaments.idTypes.get(key) ?? id });
  }

  /** join_tournament, withdraw_tournament, start/pause/resume_tournament, remove_player, add_bot. */
  tournamentAct(id, type, fields = {}) {
    const key = tournamentKey(id);
    const req = this.sendOrComplain({ type, tournament: this.tournaments.idTypes.get(key) ?? id, ...fields },
      { kind: type, tournament: key, player: fields.player });
    if (req !== null) this.tournaments.setPending(key, type, fields.player);
    this.changed();
    return req;
  }

  openTournament(id) {
    const target = tournamentHref(id);
    if (window.location.hash !== target) window.location.hash = target;
    else this.changed();
  }

  openRoom(id) {
    const target = `#/room/${encodeURIComponent(String(id))}`;
    if (window.location.hash !== target) window.location.hash = target;
    else this.changed();
  }

  roomById(id) {
    return this.rooms.get(roomKey(id)) ?? null;
  }
}
