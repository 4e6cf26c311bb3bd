// Stand-ins for what the browser gives the client's stores: localStorage, and the App they talk
// through (the requests it sends, the notices and announcements it makes, the address).

/** Installs an empty localStorage in this process and returns it (a Map underneath). */
export function fakeStorage() {
  const items = new Map();
  const storage = {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => { items.set(key, String(value)); },
    removeItem: (key) => { items.delete(key); },
    clear: () => items.clear(),
    items,
  };
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true });
  return storage;
}

/**
 * An App as the stores see it: `send` gives each message a req (or null while `connected` is
 * false) and records it with its context; notices, announcements and redraws are recorded too.
 */
export function fakeHost({ hash = '#/' } = {}) {
  let nextReq = 1;
  const host = {
    connected: true,
    address: hash,
    sent: [], // {msg, ctx, req}
    notices: [], // {text, kind, where, options}
    ended: [],
    announced: [],
    opened: [], // room and tournament addresses opened
    changes: 0,
    send(msg, ctx) {
      if (!host.connected) return null;
      const req = nextReq++;
      host.sent.push({ msg, ctx, req });
      return req;
    },
    sendOrComplain(msg, ctx) {
      const req = host.send(msg, ctx);
      if (req === null) host.notify('Not connected', 'error', null);
      return req;
    },
    notify(text, kind = 'error', where = null, options = {}) { host.notices.push({ text, kind, where, options }); },
    endNotice(key) { host.ended.push(key); },
    announce(text) { if (text) host.announced.push(text); },
    changed() { host.changes += 1; },
    openRoom(id) { host.opened.push(`room:${id}`); },
    openTournament(id) { host.opened.push(`tournament:${id}`); },
    hash() { return host.address; },
    /** The messages of `type` sent so far. */
    ofType(type) { return host.sent.filter((s) => s.msg.type === type).map((s) => s.msg); },
  };
  return host;
}
