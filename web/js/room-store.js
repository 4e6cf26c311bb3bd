// The rooms this tab follows, as player or spectator, kept in step with the server (protocol
// sections 9 to 12): snapshots replace a room, its events apply strictly in seq order, a gap
// or a reconnection asks for what was missed (`sync`). Also joining, leaving and acting in a
// room, the rooms remembered across reloads (to resume them, or to watch them again), and an
// invitation accepted before the server has welcomed us.
//
// `host` is the App: send(msg, ctx) tracks a request, sendOrComplain(msg, ctx) also says when
// the connection is down, notify(text, kind, where), announce(text), changed(), openRoom(id).
// `session` says whether the server has welcomed us; `now` is the clock that spaces the syncs.

import { Room } from './room.js';
import { describeError } from './errors.js';
import { loadList, saveList } from './storage.js';

const KEY_WATCHING = 'quarto.watching';
const KEY_ROOMS = 'quarto.rooms';
const SYNC_RETRY_MS = 3000;
const RESUME_WAIT_MS = 3000;
// A room that still lags after this many syncs in a row is not going to catch up.
const MAX_RESYNCS = 3;

export const roomKey = (id) => String(id);

/** A room id from the address bar (room ids are opaque strings in protocol v1). */
export function parseRoomId(text) {
  try { return decodeURIComponent(text); } catch { return text; }
}

/** The key of the room an address shows (`#/room/ID`), or null. */
export function roomInHash(hash) {
  const m = hash.match(/^#\/room\/([^/?#]+)/);
  return m ? roomKey(parseRoomId(m[1])) : null;
}

export class RoomStore {
  constructor(host, session, now = () => Date.now()) {
    this.host = host;
    this.session = session;
    this.now = now;
    this.rooms = new Map(); // roomKey -> Room
    this.idTypes = new Map(); // roomKey -> the id as the server spells it
    this.syncing = new Map(); // roomKey -> time the sync was sent
    this.joining = new Set(); // roomKeys with a join in flight
    this.expectRoom = null; // roomKey of a room we created, to open when its snapshot arrives
    this.inviting = null; // {key, id, as, sent, failed}: an invitation accepted, joined once welcomed
    this.resuming = false; // welcomed back, the snapshots of the rooms we were in still coming
    this.resyncs = 0; // syncs in a row that left a room behind the server
    this.watching = new Set(loadList(KEY_WATCHING).map(String)); // rooms we watch: watched again after a reconnection
    this.remembered = new Set(loadList(KEY_ROOMS).map(String)); // rooms we are in
  }

  get(id) {
    return this.rooms.get(roomKey(id)) ?? null;
  }

  /** Remembers the id as the server spells it, under its key. */
  learn(id) {
    this.idTypes.set(roomKey(id), id);
  }

  saveWatching() {
    saveList(KEY_WATCHING, this.watching);
  }

  saveRemembered() {
    saveList(KEY_ROOMS, this.remembered);
  }

  /** A room we are no longer in, nor watching. */
  forget(key) {
    this.rooms.delete(key);
    this.watching.delete(key);
    this.saveWatching();
    this.remembered.delete(key);
    this.saveRemembered();
  }

  // ---- what the server says ----

  /** `room_created`: the room opens on screen once its snapshot is here. */
  created(msg) {
    const key = roomKey(msg.room);
    this.learn(msg.room);
    if (this.rooms.has(key)) this.host.openRoom(msg.room);
    else this.expectRoom = key;
  }

  /** A `room` snapshot: the room as it is now, whatever we had of it. Returns its key. */
  snapshot(msg) {
    const key = roomKey(msg.room);
    this.learn(msg.room);
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
      this.host.openRoom(msg.room);
    }
    return key;
  }

  /** A room event: applied when it is the next of its room; a gap asks for what is missing.
   *  Returns whether it was applied. */
  event(ev) {
    const room = this.rooms.get(roomKey(ev.room));
    if (!room) return false; // not a room we follow (or its snapshot is still on the way)
    if (typeof ev.seq !== 'number') return false;
    if (ev.seq <= room.seq) return false; // already applied (e.g. replayed by a sync)
    if (ev.seq > room.seq + 1) {
      this.requestSync(room);
      return false;
    }
    this.host.announce(room.applyEvent(ev));
    return true;
  }

  /** Asks for the events after the room's seq; at most once every few seconds unless `force`. */
  requestSync(room, force = false) {
    const key = roomKey(room.id);
    const last = this.syncing.get(key);
    if (!force && last && this.now() - last < SYNC_RETRY_MS) return;
    const req = this.host.send({ type: 'sync', room: room.id, since: room.seq }, { kind: 'sync', key });
    if (req === null) return;
    this.syncing.set(key, this.now());
  }

  /** `synced`, the end of a sync's answer: by now the room must have reached that seq. */
  synced(msg) {
    const key = roomKey(msg.room);
    this.syncing.delete(key);
    const room = this.rooms.get(key);
    if (room && typeof msg.seq === 'number' && room.seq < msg.seq) {
      this.resyncs += 1;
      if (this.resyncs <= MAX_RESYNCS) this.requestSync(room, true);
      else this.host.notify('This game view could not catch up with the server; please reload the page.');
    } else {
      this.resyncs = 0;
    }
  }

  /** `room_closed`: an idle room the server has reclaimed. */
  closed(msg) {
    const key = roomKey(msg.room);
    const room = this.rooms.get(key);
    this.rooms.delete(key);
    this.watching.delete(key);
    this.saveWatching();
    this.host.notify(`${room ? room.name : 'A room'} was closed by the server after a while without activity.`, 'info');
  }

  /** A sync refused: the room is gone, or we are no longer in it. */
  syncRefused(msg, ctx) {
    const room = this.rooms.get(ctx.key);
    this.syncing.delete(ctx.key);
    if (msg.code === 'not_in_room' && room && !room.isPlayer) {
      // Spectators are not kept across a lost connection: watch again.
      this.rooms.delete(ctx.key);
      this.join(room.id, 'spectator', true);
    } else if (msg.code === 'no_such_room' || msg.code === 'not_in_room') {
      this.forget(ctx.key);
      if (msg.code === 'no_such_room') this.host.notify(`${room ? room.name : 'A room'} has been closed by the server.`, 'info');
    } else if (msg.code !== 'rate_limited') {
      this.host.notify(describeError(msg), 'error', { room: ctx.key });
    }
  }

  /** A join refused; true when nothing more is to be said (a room we only meant to watch again). */
  joinRefused(ctx) {
    this.joining.delete(ctx.key);
    // The invitation page stays, says why, and offers what is left (watching, the lobby).
    if (this.inviting && this.inviting.key === ctx.key) Object.assign(this.inviting, { sent: false, failed: true });
    if (ctx.silent && ctx.as === 'spectator') {
      this.watching.delete(ctx.key);
      this.saveWatching();
      return true;
    }
    return false;
  }

  // ---- the connection ----

  /** The connection is lost; `serverRestart`: the server said it restarts, so its clocks stop. */
  connectionLost(serverRestart) {
    this.syncing.clear();
    this.joining.clear();
    if (serverRestart) for (const room of this.rooms.values()) room.freezeClocks();
  }

  /** Welcomed: catch up with every room we follow. `resumed`: as the player we were. */
  welcome(resumed) {
    if (!resumed) {
      // A brand-new player owns no seat anywhere: drop what an older identity followed.
      for (const [key, room] of this.rooms) if (room.isPlayer) this.rooms.delete(key);
      this.remembered = new Set([...this.rooms.keys(), ...this.watching]);
      this.saveRemembered();
    }
    // The resume snapshots may already cover them, in which case the events we get back are
    // old and ignored.
    for (const room of this.rooms.values()) this.requestSync(room, true);
  }

  /**
   * After a resume the server sends a snapshot of each room we are in, each from its own room
   * (so in no fixed order). Until the rooms we remember have come back (or a few seconds have
   * passed), a room's address shows "connecting" rather than offering to join it again.
   */
  awaitResume(resumed) {
    clearTimeout(this.resumeTimer);
    if (resumed && [...this.remembered].some((k) => !this.rooms.has(k))) {
      this.resuming = true;
      this.resumeTimer = setTimeout(() => this.finishResume(), RESUME_WAIT_MS);
    } else {
      this.finishResume();
    }
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
    this.host.changed();
  }

  /** Our token was refused: we are in no room any more. Returns whether we had a seat. */
  dropAll() {
    const lostSeat = [...this.rooms.values()].some((room) => room.isPlayer);
    this.rooms.clear();
    this.resuming = false;
    this.remembered.clear();
    this.saveRemembered();
    return lostSeat;
  }

  // ---- actions ----

  create(options) {
    return this.host.sendOrComplain({ type: 'create_room', ...options }, { kind: 'create' });
  }

  join(id, as, silent = false) {
    const key = roomKey(id);
    this.joining.add(key);
    const req = this.host.sendOrComplain({ type: 'join', room: id, as }, { kind: 'join', key, as, silent });
    if (req === null) this.joining.delete(key);
    if (as === 'spectator') { this.watching.add(key); this.saveWatching(); }
    this.host.changed();
  }

  leave(room) {
    const key = roomKey(room.id);
    this.host.sendOrComplain({ type: 'leave', room: room.id }, { kind: 'leave', key });
    this.forget(key);
    this.host.changed();
  }

  /** A game action in a room: give, place, quarto, pass, resign, rematch, claim_victory. */
  act(room, type, fields = {}) {
    return this.host.sendOrComplain({ type, room: room.id, ...fields }, { kind: type, key: roomKey(room.id), phase: room.phase });
  }

  /** An invitation accepted: its seat or place in the audience, taken once we are welcomed. */
  invite(id, as) {
    this.inviting = { key: roomKey(id), id, as, sent: false, failed: false };
    this.sendInvite();
    this.host.changed();
  }

  sendInvite() {
    const inv = this.inviting;
    if (!inv || inv.sent || !this.session.welcomed) return;
    inv.sent = true;
    this.join(inv.id, inv.as);
  }

  /** The hello the invitation waited for was refused: its page says so. */
  inviteFailed() {
    if (this.inviting) this.inviting.failed = true;
  }

  /** The invitation's page has gone: nothing to join for it any more. */
  dropInvite(key) {
    if (this.inviting && this.inviting.key === key) this.inviting = null;
  }
}
