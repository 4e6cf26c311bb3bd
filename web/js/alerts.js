// Telling a player whose tab is not in front that it is their move: the page title starts with
// "● Your move" (with the seconds left under 10 s), a short beep plays when the move comes to
// them and again at 10 s left, and, if they asked for it, a system notification while the page
// is hidden. The header's switches turn the sound (data-role="sound-toggle") and the
// notifications (data-role="notify-toggle") on and off; both are remembered.

import { h } from './dom.js';
import { clockLeft } from './room.js';
import { load, save } from './storage.js';

export const TITLE_MARK = '● Your move';
const TITLE_PREFIX = /^● Your move(?: \(\d+ s\))? — /;
const KEY_SOUND = 'quarto.sound';
const KEY_NOTIFY = 'quarto.notify';
const LOW_MS = 10000;

const SVG_NS = 'http://www.w3.org/2000/svg';
function icon(paths) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', 'tool-icon');
  for (const [d, cls] of paths) {
    const p = document.createElementNS(SVG_NS, 'path');
    p.setAttribute('d', d);
    if (cls) p.setAttribute('class', cls);
    svg.appendChild(p);
  }
  return svg;
}
const SPEAKER = 'M4 9h4l5-4v14l-5-4H4z';
const WAVES = 'M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12';
const SLASH = 'M3 3l18 18';
const BELL = 'M6 17V11a6 6 0 0 1 12 0v6l2 2H4zM10 20a2 2 0 0 0 4 0';

export class TurnAlerts {
  constructor(app) {
    this.app = app;
    this.rooms = new Map(); // roomKey -> {mine, move, warned}: what the last tick saw
    this.soundOn = load(KEY_SOUND) !== 'off';
    this.notifyOn = load(KEY_NOTIFY) === 'on' && this.notifyAllowed();
    this.audio = null;
    // Browsers start sound only after a gesture: the first click or key press wakes it.
    const wake = () => {
      if (this.audio && this.audio.state === 'suspended') this.audio.resume().catch(() => {});
    };
    document.addEventListener('pointerdown', wake, true);
    document.addEventListener('keydown', wake, true);
  }

  notifyAllowed() {
    return typeof Notification !== 'undefined' && Notification.permission === 'granted';
  }

  /** The header's switches, drawn once into `container` and kept current in place. */
  mount(container) {
    this.soundButton = h('button', {
      type: 'button', class: 'tool-toggle', role: 'switch', dataset: { role: 'sound-toggle' },
      title: 'A short sound when it is your move, and at 10 seconds left', onclick: () => this.toggleSound(),
    }, icon([[SPEAKER], [WAVES, 'on-only'], [SLASH, 'off-only']]), h('span', { class: 'tool-label' }, 'Sound'));
    const parts = [this.soundButton];
    if (typeof Notification !== 'undefined') {
      this.notifyButton = h('button', {
        type: 'button', class: 'tool-toggle', role: 'switch', dataset: { role: 'notify-toggle' },
        title: 'A system notification when it is your move and this page is hidden', onclick: () => this.toggleNotify(),
      }, icon([[BELL], [SLASH, 'off-only']]), h('span', { class: 'tool-label' }, 'Notify'));
      parts.push(this.notifyButton);
    }
    container.replaceChildren(...parts);
    this.drawSwitches();
  }

  drawSwitches() {
    if (this.soundButton) this.soundButton.setAttribute('aria-checked', String(this.soundOn));
    if (this.notifyButton) this.notifyButton.setAttribute('aria-checked', String(this.notifyOn));
  }

  toggleSound() {
    this.soundOn = !this.soundOn;
    save(KEY_SOUND, this.soundOn ? 'on' : 'off');
    this.drawSwitches();
    if (this.soundOn) this.beep(false); // what it sounds like (and wakes the audio, in this click)
  }

  /** Asks the browser's permission only now, after the player's click. */
  async toggleNotify() {
    if (this.notifyOn) {
      this.notifyOn = false;
    } else if (typeof Notification !== 'undefined') {
      let permission = Notification.permission;
      if (permission === 'default') {
        try { permission = await Notification.requestPermission(); } catch { permission = 'denied'; }
      }
      this.notifyOn = permission === 'granted';
      if (!this.notifyOn) this.app.notify('Notifications are blocked for this site in the browser’s settings.', 'info');
    }
    save(KEY_NOTIFY, this.notifyOn ? 'on' : 'off');
    this.drawSwitches();
  }

  /** Runs with the clocks (~10 times a second). `shownKey` is the room on screen, if any. */
  tick(shownKey) {
    let titleRoom = null;
    for (const [key, room] of this.app.rooms) {
      const mine = room.isPlayer && room.status === 'playing' && room.turn === room.you;
      const move = `${room.moves.length}`;
      const before = this.rooms.get(key);
      const now = { mine, move, warned: before && before.move === move ? before.warned : false };
      // A room seen for the first time counts as a move that has just come: a page opened or
      // reloaded on its player's move says so too.
      if (mine && (!before || !before.mine || before.move !== move)) this.yourMove(room);
      if (mine) {
        const left = clockLeft(room.clock, room.you);
        const allowance = room.clockRules ? room.clockRules.move_ms : null;
        if (left !== null && left < LOW_MS && left > 0 && !now.warned && typeof allowance === 'number' && allowance > LOW_MS) {
          now.warned = true;
          this.beep(true);
        }
        if (!titleRoom || key === shownKey) titleRoom = room;
      }
      this.rooms.set(key, now);
    }
    for (const key of [...this.rooms.keys()]) if (!this.app.rooms.has(key)) this.rooms.delete(key);
    this.drawTitle(titleRoom);
  }

  drawTitle(room) {
    const base = document.title.replace(TITLE_PREFIX, '');
    let title = base;
    if (room) {
      const left = clockLeft(room.clock, room.you);
      const secs = left !== null && left < LOW_MS ? ` (${Math.ceil(left / 1000)} s)` : '';
      title = `${TITLE_MARK}${secs} — ${base}`;
    }
    if (document.title !== title) document.title = title;
  }

  yourMove(room) {
    this.beep(false);
    if (this.notifyOn && document.visibilityState === 'hidden' && this.notifyAllowed()) {
      try {
        const n = new Notification('Quarto: your move', { body: room.name, tag: `quarto-${room.id}` });
        n.onclick = () => { window.focus(); n.close(); };
      } catch { /* some browsers allow notifications only from a service worker */ }
    }
  }

  /** Two short notes: rising for "your move", two high ones for "10 seconds left". */
  beep(urgent) {
    if (!this.soundOn) return;
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      if (!this.audio) this.audio = new Ctx();
      const ctx = this.audio;
      if (ctx.state === 'suspended') ctx.resume().catch(() => {});
      let t = ctx.currentTime + 0.02;
      for (const f of urgent ? [988, 988] : [660, 880]) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = 'sine';
        osc.frequency.value = f;
        gain.gain.setValueAtTime(0.0001, t);
        gain.gain.exponentialRampToValueAtTime(0.18, t + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.14);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t);
        osc.stop(t + 0.15);
        t += 0.17;
      }
    } catch { /* no audio here: the title still says it */ }
  }
}
