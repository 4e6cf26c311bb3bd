// What this client knows about tournaments (protocol section 19): the latest snapshot of each
// one it follows, the lobby's list, the requests in flight, and which rooms are whose
// tournament games (so a room can link back to its tournament and hide the rematch).

import { loadList, saveList } from './storage.js';

const KEY_ROOM_LINKS = 'quarto.tournamentRooms';
const MAX_ROOM_LINKS = 200;

export const tournamentKey = (id) => String(id);
/** The address of a tournament's page. */
export const tournamentHref = (id) => `#/tournament/${encodeURIComponent(String(id))}`;

function loadLinks() {
  return new Map(loadList(KEY_ROOM_LINKS).filter((e) => Array.isArray(e) && e.length === 2));
}

export class TournamentBook {
  constructor() {
    this.snapshots = new Map(); // tournament key -> the snapshot with the highest seq
    this.stale = new Set(); // keys whose next snapshot may restart at seq 1 (new connection)
    this.list = null; // the lobby's summaries, newest first; null until the first answer
    this.listError = null;
    this.viewing = new Set(); // keys whose page is on screen: watched again after a reconnect
    this.idTypes = new Map(); // key -> the id as the server spells it
    this.errors = new Map(); // key -> {code, text} when watching it failed
    this.pending = new Set(); // "key type player" of requests in flight, to disable their buttons
    this.roomLinks = loadLinks(); // room key -> {tournament, round, game, youStart?}
    this.toAnnounce = new Map(); // room key -> what to say first (or ''), for pairings not yet told
  }

  get(id) {
    return this.snapshots.get(tournamentKey(id)) ?? null;
  }

  /** Keeps a snapshot unless an equal or newer one is already here; returns whether it was kept. */
  accept(snapshot) {
    const key = tournamentKey(snapshot.tournament);
    const old = this.snapshots.get(key);
    // seq starts again at 1 after a server restart, so a new connection's first one always wins.
    if (old && !this.stale.has(key) && typeof snapshot.seq === 'number' && snapshot.seq <= old.seq) return false;
    this.stale.delete(key);
    this.errors.delete(key);
    this.idTypes.set(key, snapshot.tournament);
    this.snapshots.set(key, snapshot);
    this.indexRooms(snapshot);
    return true;
  }

  connectionLost() {
    for (const key of this.snapshots.keys()) this.stale.add(key);
    this.pending.clear();
  }

  setList(list) {
    this.list = Array.isArray(list) ? list : [];
    this.listError = null;
    for (const t of this.list) if (t && t.id !== undefined) this.idTypes.set(tournamentKey(t.id), t.id);
  }

  setListError(text) {
    this.listError = text;
  }

  setError(key, code, text) {
    this.errors.set(tournamentKey(key), { code, text });
  }

  pendingKey(key, type, player) {
    return `${tournamentKey(key)} ${type} ${player ?? ''}`;
  }

  setPending(key, type, player) {
    this.pending.add(this.pendingKey(key, type, player));
  }

  isPending(key, type, player) {
    return this.pending.has(this.pendingKey(key, type, player));
  }

  /** A reply (snapshot or error) to a tracked request ends its pending state. */
  clearPending(ctx) {
    if (ctx && ctx.tournament !== null && ctx.tournament !== undefined) this.pending.delete(this.pendingKey(ctx.tournament, ctx.kind, ctx.player));
  }

  isEntrant(t, playerId) {
    return !!t && Array.isArray(t.players) && t.players.some((p) => p.id === playerId);
  }

  // ---- rooms of tournament games ----

  roomLink(roomKey) {
    return this.roomLinks.get(String(roomKey)) ?? null;
  }

  /** `preface`: the result of the game the player was just taken away from, if any. */
  notePairing(ev, preface = '') {
    const key = String(ev.room);
    const old = this.roomLinks.get(key) ?? {};
    this.roomLinks.set(key, { ...old, tournament: tournamentKey(ev.tournament), round: ev.round, game: ev.game ?? 1,
      youStart: typeof ev.you_start === 'boolean' ? ev.you_start : old.youStart, opponent: ev.opponent ?? old.opponent });
    this.toAnnounce.set(key, preface);
    this.saveLinks();
  }

  /** {link, preface} of a pairing not yet told to the player, or null. */
  unannounced(roomKey) {
    const key = String(roomKey);
    if (!this.toAnnounce.has(key) || !this.roomLinks.has(key)) return null;
    return { link: this.roomLinks.get(key), preface: this.toAnnounce.get(key) };
  }

  announced(roomKey) {
    this.toAnnounce.delete(String(roomKey));
  }

  indexRooms(t) {
    let added = false;
    for (const round of Array.isArray(t.rounds) ? t.rounds : []) {
      for (const p of Array.isArray(round.pairings) ? round.pairings : []) {
        const rooms = Array.isArray(p.rooms) ? p.rooms : [];
        rooms.forEach((room, i) => {
          const key = String(room);
          const old = this.roomLinks.get(key);
          if (old && old.tournament === tournamentKey(t.tournament) && old.round === round.round) return;
          this.roomLinks.set(key, { ...old, tournament: tournamentKey(t.tournament), round: round.round, game: i + 1 });
          added = true;
        });
      }
    }
    if (added) this.saveLinks();
  }

  saveLinks() {
    const entries = [...this.roomLinks.entries()].slice(-MAX_ROOM_LINKS);
    if (entries.length < this.roomLinks.size) this.roomLinks = new Map(entries);
    saveList(KEY_ROOM_LINKS, entries);
  }
}

export function playerName(t, id) {
  if (!t || !Array.isArray(t.players)) return null;
  const p = t.players.find((x) => x.id === id);
  return p ? p.name : null;
}

/** "Round 2: you play Bo, you start." for a player's tournament game. */
export function pairingText(link, room, t) {
  const me = room ? room.you : null;
  let opponent = null;
  if (room && (me === 0 || me === 1) && room.players[1 - me]) opponent = room.players[1 - me].name;
  if (!opponent && link.opponent) opponent = playerName(t, link.opponent);
  opponent = opponent || 'your opponent';
  let youStart = link.youStart;
  if (typeof youStart !== 'boolean' && room && (room.first === 0 || room.first === 1) && (me === 0 || me === 1)) youStart = room.first === me;
  const twoGames = link.game > 1 || (t && t.settings && t.settings.games_per_pairing > 1);
  const head = `Round ${link.round}${twoGames ? `, game ${link.game}` : ''}`;
  const start = typeof youStart === 'boolean' ? (youStart ? ', you start' : `, ${opponent} starts`) : '';
  return `${head}: you play ${opponent}${start}.`;
}
