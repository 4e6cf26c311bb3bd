// One room's summary over HTTP (GET api/rooms/ID, protocol section 15), for pages about a room
// this tab is not in: the invitation, the door. HTTP rather than the socket because the
// invitation's visitor has no name yet (the socket's hello needs one), and because it answers
// for private rooms too, which list_rooms leaves out. Polled while a page shows it, so that a
// seat taken meanwhile shows before the visitor clicks. The same for a tournament's snapshot
// (GET api/tournaments/ID), which a visitor without a name reads and watches.

const POLL_MS = 3000;

export class RoomInfo {
  /** `onChange` is called after every answer; `path`: where the document is, before its id. */
  constructor(id, onChange, path = 'api/rooms/') {
    this.id = id;
    this.onChange = onChange;
    this.path = path;
    this.state = 'loading'; // loading | ready | missing (no such room) | error (no answer)
    this.room = null; // the summary: {id, name, status, players, spectators, rules, clock, private, tournament}
    this.timer = null;
    this.asked = 0;
  }

  start() {
    this.stopped = false;
    this.fetch();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Asks now (again), e.g. after a join was refused. */
  refresh() {
    clearTimeout(this.timer);
    this.fetch();
  }

  async fetch() {
    const asked = ++this.asked;
    let state = 'error';
    let room = null;
    try {
      const res = await fetch(`${this.path}${encodeURIComponent(String(this.id))}`, { cache: 'no-store' });
      if (res.status === 404) state = 'missing';
      else if (res.ok) {
        room = await res.json();
        state = room && typeof room === 'object' && room.status ? 'ready' : 'error';
      }
    } catch {
      state = 'error';
    }
    if (this.stopped || asked !== this.asked) return; // gone, or overtaken by a newer request
    this.state = state;
    if (state === 'ready' || state === 'missing') this.room = state === 'ready' ? room : null;
    this.onChange();
    this.timer = setTimeout(() => this.fetch(), POLL_MS);
  }
}
