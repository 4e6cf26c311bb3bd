// The lobby's list of rooms (protocol section 5, list_rooms → rooms), asked again while the
// lobby or a room's door is on screen. Views read `rooms` (null until the first answer),
// `total` and `at` (when the last answer came).
//
// `host` is the App: send(msg, ctx) tracks a request, changed(). `session` says whether the
// server has welcomed us; `roomStore` learns the ids as the server spells them.

// The lobby shows this many rooms (the server sends those with a free seat first), and as many
// tournaments.
export const LOBBY_PAGE = 50;

export class LobbyStore {
  constructor(host, session, roomStore) {
    this.host = host;
    this.session = session;
    this.roomStore = roomStore;
    this.rooms = null;
    this.total = 0;
    this.at = 0;
  }

  list() {
    if (this.session.welcomed) this.host.send({ type: 'list_rooms', limit: LOBBY_PAGE }, { kind: 'list' });
  }

  /** `rooms`: the list as the server sends it. */
  listed(msg) {
    this.rooms = Array.isArray(msg.rooms) ? msg.rooms : [];
    this.total = Number(msg.total) || 0;
    this.at = Date.now();
    for (const r of this.rooms) this.roomStore.learn(r.id);
  }
}
