// Tournaments as this tab follows them (protocol section 19): the lobby's list, the pages being
// watched (again after every reconnection), the player's and director's requests, and the
// pairings that take a player to their next board, with the notices that go with them. What is
// known of each tournament is kept in `book` (tournaments.js).
//
// `host` is the App: send(msg, ctx) tracks a request, sendOrComplain(msg, ctx) also says when
// the connection is down, notify(text, kind, where), announce(text), changed(),
// openRoom(id), openTournament(id), hash() (the address on screen). `session` is who we
// are; `roomStore` the rooms we follow, where pairings seat us.

import { TournamentBook, tournamentKey, tournamentHref, pairingText, playerName } from './tournaments.js';
import { roomKey, roomInHash } from './room-store.js';
import { LOBBY_PAGE } from './lobby-store.js';
import { describeError } from './errors.js';
import { resultText } from './words.js';

export class TournamentStore {
  constructor(host, session, roomStore) {
    this.host = host;
    this.session = session;
    this.roomStore = roomStore;
    this.book = new TournamentBook(); // snapshots, the list, and which rooms are whose games
  }

  // ---- actions ----

  list() {
    if (this.session.welcomed) this.host.send({ type: 'list_tournaments', limit: LOBBY_PAGE }, { kind: 'list_tournaments', tournament: null });
  }

  create(options) {
    return this.host.sendOrComplain({ type: 'create_tournament', ...options }, { kind: 'create_tournament', tournament: null });
  }

  /** The tournament's page is on screen: receive its snapshots (again after every reconnect). */
  watch(id) {
    const key = tournamentKey(id);
    this.book.viewing.add(key);
    this.book.idTypes.set(key, id);
    if (this.session.welcomed) this.sendWatch(key);
  }

  sendWatch(key) {
    const id = this.book.idTypes.get(key) ?? key;
    this.host.send({ type: 'watch_tournament', tournament: id }, { kind: 'watch_tournament', tournament: key });
  }

  /**
   * The page is gone. Its players and director stay subscribed: the server sends
   * tournament_pairing only to subscribed connections, and this tab must still take them
   * to their next game.
   */
  unwatch(id) {
    const key = tournamentKey(id);
    this.book.viewing.delete(key);
    if (this.isMine(this.book.get(key))) return;
    if (this.session.welcomed) this.host.send({ type: 'unwatch_tournament', tournament: this.book.idTypes.get(key) ?? id });
  }

  /** join_tournament, withdraw_tournament, start/pause/resume_tournament, remove_player, add_bot. */
  act(id, type, fields = {}) {
    const key = tournamentKey(id);
    const req = this.host.sendOrComplain({ type, tournament: this.book.idTypes.get(key) ?? id, ...fields },
      { kind: type, tournament: key, player: fields.player });
    if (req !== null) this.book.setPending(key, type, fields.player);
    this.host.changed();
    return req;
  }

  /** Whether we direct or play in `t` (a snapshot, or null). */
  isMine(t) {
    const me = this.session.me.id;
    return !!(t && me && (t.director === me || this.book.isEntrant(t, me)));
  }

  // ---- the connection ----

  /**
   * Welcomed: the tournament pages on screen are watched again, and so are the unfinished
   * tournaments we play in or direct (`resumed`). A server subscribes their players and
   * director by itself on hello with their token, but through another node of a cluster only
   * the tournament's own node knows we are in it, and a pairing goes only to subscribed
   * connections.
   */
  welcome(resumed) {
    for (const key of this.book.viewing) this.sendWatch(key);
    if (!resumed) return;
    for (const [key, t] of this.book.snapshots) {
      if (this.book.viewing.has(key) || t.status === 'finished') continue;
      if (this.isMine(t)) this.sendWatch(key);
    }
  }

  connectionLost() {
    this.book.connectionLost();
  }

  // ---- what the server says ----

  /** `tournaments`: the lobby's list. */
  listed(msg) {
    this.book.setList(msg.tournaments);
    this.host.changed();
  }

  /** A `tournament` snapshot, answering `ctx` or not. */
  snapshot(msg, ctx) {
    this.book.clearPending(ctx);
    if (this.book.accept(msg) || ctx) this.host.changed();
  }

  /** A request about a tournament refused; true when said here, false to say it as any other. */
  refused(msg, ctx) {
    this.book.clearPending(ctx);
    const kind = ctx.kind;
    if (kind === 'list_tournaments') {
      // Polled every few seconds: say it once, in the list, not in a notice each time.
      this.book.setListError(describeError(msg, { kind }));
      this.host.changed();
      return true;
    }
    if (kind === 'watch_tournament' && msg.code !== 'rate_limited') {
      // The page says it instead of a notice.
      this.book.setError(ctx.tournament, msg.code, describeError(msg, { kind }));
      this.host.changed();
      return true;
    }
    return false;
  }

  /**
   * `tournament_pairing`: a tournament game has started for us: the server has seated us and
   * sends the room's snapshot next. Go there at once (the door says the game is on its way),
   * and tell the player who they play once the room's names are known.
   */
  pairing(msg) {
    const rooms = this.roomStore;
    const key = roomKey(msg.room);
    rooms.learn(msg.room);
    // The next game of a pairing starts the moment the last one ends: say how that one ended,
    // since the player is taken away from its result.
    const shown = roomInHash(this.host.hash());
    const previous = shown !== null ? rooms.rooms.get(shown) : null;
    let preface = '';
    if (previous && previous.id !== msg.room && previous.status === 'finished' && previous.result) {
      const last = resultText(previous);
      preface = `Last game: ${/[.!?]$/.test(last) ? last : `${last}.`}`;
    }
    this.book.notePairing(msg, preface);
    if (!rooms.rooms.has(key)) rooms.expectRoom = key;
    this.host.openRoom(msg.room);
    this.announcePairing(key);
  }

  /** A pairing not yet told, once its room's snapshot is here: who the player plays. */
  announcePairing(key) {
    const pending = this.book.unannounced(key);
    const room = this.roomStore.rooms.get(key);
    if (!pending || !room) return;
    this.book.announced(key);
    const { link, preface } = pending;
    const text = pairingText(link, room, this.book.get(link.tournament));
    // The game's own pairing line says whom they play; what is new is how the last game ended.
    if (preface) this.host.notify(`${preface} ${text}`, 'info', { room: key });
    this.host.announce(text);
  }

  /**
   * `tournament_round`: our next round is paired and starts at `starts_at_ms`. The tournament
   * page and the room of our last game of it count down by themselves; anywhere else, a
   * notice says so. The pairing (and the trip to the board) follows when the round starts.
   */
  roundNotice(msg) {
    const key = tournamentKey(msg.tournament);
    const t = this.book.get(key);
    const name = t ? t.name : 'Your tournament';
    const seconds = Math.max(0, Math.round((msg.starts_at_ms - this.session.serverNow()) / 1000));
    const opponent = msg.opponent === null || msg.opponent === undefined ? null : (playerName(t, msg.opponent) || 'your opponent');
    const text = `${name}: round ${msg.round} starts in ${seconds} s — ${opponent ? `you play ${opponent}. Your board opens by itself.` : 'you have a bye.'}`;
    const shown = this.host.hash();
    const roomOnScreen = roomInHash(shown);
    const link = roomOnScreen !== null ? this.book.roomLink(roomOnScreen) : null;
    const mine = roomOnScreen !== null && this.roomStore.rooms.get(roomOnScreen)?.isPlayer;
    // The game view counts down in a room where we played this tournament's last round.
    const counting = shown === tournamentHref(key) || (mine && link && link.tournament === key);
    if (counting) this.host.announce(text);
    else this.host.notify(text, 'info');
  }
}
