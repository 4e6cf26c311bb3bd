// The WebSocket link to the server: one JSON object per text frame (protocol v1).
// Reconnects with exponential backoff when the socket closes; the application decides what to
// say after each (re)open (hello with the token, then sync for the rooms it follows).

const MIN_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 10000;
// A server that closed with 1012 (restarting) or 1001 (going away) is expected back within
// seconds, and the clock of a player to move runs again from the moment it listens: retry
// every 250 to 500 ms (random, so that its clients do not all come back at once) for this long,
// instead of a backoff grown over the outage, then back off as after any loss.
const RESTART_RETRY_MS = 500;
const RESTART_QUICK_FOR_MS = 30000;
const REQUEST_TIMEOUT_MS = 10000;

export function socketUrl(loc = window.location) {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}/ws`;
}

export class Connection extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.ws = null;
    this.state = 'idle'; // idle | connecting | open | waiting (to reconnect)
    this.attempt = 0;
    this.retryAt = 0;
    this.retryTimer = null;
    this.restartSince = 0; // when the server said it was restarting; 0 when it did not
    this.nextReq = 1;
    this.pending = new Map(); // req -> {resolve, reject, timer}
  }

  connect() {
    if (this.ws || this.state === 'connecting') return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.setState('connecting');
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.restartSince = 0;
      this.setState('open');
      this.dispatchEvent(new CustomEvent('open'));
    });
    ws.addEventListener('message', (ev) => {
      if (this.ws !== ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        console.warn('quarto: ignoring a frame that is not JSON', ev.data);
        return;
      }
      if (!msg || typeof msg !== 'object') return;
      if (msg.req !== undefined && this.pending.has(msg.req)) {
        const p = this.pending.get(msg.req);
        this.pending.delete(msg.req);
        clearTimeout(p.timer);
        p.resolve(msg);
      }
      this.dispatchEvent(new CustomEvent('message', { detail: msg }));
    });
    ws.addEventListener('close', (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === 1012 || ev.code === 1001) this.restartSince = Date.now();
      this.failPending('The connection to the server was lost.');
      this.dispatchEvent(new CustomEvent('close', { detail: { code: ev.code, reason: ev.reason } }));
      this.scheduleReconnect();
    });
    // 'error' is always followed by 'close'; nothing to do here.
  }

  scheduleReconnect() {
    const delay = this.retryingQuickly
      ? Math.round(RESTART_RETRY_MS * (0.5 + Math.random() * 0.5))
      : Math.round(Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** this.attempt) * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.retryAt = Date.now() + delay;
    this.setState('waiting');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** A new socket, whose handshake carries the session cookie (after a log in or out). */
  reconnect() {
    this.attempt = 0;
    if (this.ws) this.ws.close(1000);
    else this.retryNow();
  }

  /** A restarting server is being retried every half second (RESTART_RETRY_MS). */
  get retryingQuickly() {
    return this.restartSince !== 0 && Date.now() - this.restartSince < RESTART_QUICK_FOR_MS;
  }

  /** Reconnect now instead of waiting for the backoff timer. */
  retryNow() {
    if (this.state === 'waiting') this.connect();
  }

  setState(s) {
    this.state = s;
    this.dispatchEvent(new CustomEvent('state', { detail: s }));
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends a message; returns its req id, or null when the socket is not open. */
  send(msg) {
    if (!this.isOpen) return null;
    const req = msg.req !== undefined ? msg.req : this.nextReq++;
    const out = { ...msg, req };
    this.ws.send(JSON.stringify(out));
    return req;
  }

  /** Sends a message and resolves with the server's direct reply (which may be an error). */
  request(msg, timeoutMs = REQUEST_TIMEOUT_MS) {
    return new Promise((resolve, reject) => {
      const req = this.send(msg);
      if (req === null) {
        reject(new Error('Not connected to the server.'));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(req);
        reject(new Error('The server did not answer in time.'));
      }, timeoutMs);
      this.pending.set(req, { resolve, reject, timer });
    });
  }

  failPending(text) {
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error(text));
    }
    this.pending.clear();
  }
}
