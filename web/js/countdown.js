// The countdown to a tournament round's start (protocol section 19, `starts_at_ms`): drawn as a
// span that says how long is left, and refreshed in place every tick without redrawing the page.
// Times are the server's: `serverNow()` is the local clock corrected by the offset `pong` measured.

import { h } from './dom.js';

/** "0:18", "2:05"; "now" once the time has come (the server's pairing follows). */
export function countdownText(ms) {
  if (ms <= 0) return 'now';
  const total = Math.ceil(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** A span counting down to `startsAt` (server unix ms), kept current by tickCountdowns. */
export function countdownSpan(startsAt, now) {
  return h('span', { class: 'countdown', dataset: { role: 'round-countdown', startsAt }, role: 'timer' },
    countdownText(startsAt - now));
}

/** Refreshes every countdown under `root`; cheap, runs with the clocks' tick. */
export function tickCountdowns(root, now) {
  for (const el of root.querySelectorAll('[data-role="round-countdown"]')) {
    const text = countdownText(Number(el.dataset.startsAt) - now);
    if (el.textContent !== text) el.textContent = text;
  }
}
