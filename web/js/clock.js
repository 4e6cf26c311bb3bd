// Move clocks: shown counting down smoothly from the server's remaining_ms, measured from the
// moment each CLOCK object arrived (the server stays authoritative; every event resets them).

import { clockLeft } from './room.js';

export function formatMs(ms) {
  if (ms === null || ms === undefined) return '—';
  if (ms < 10000) return `${(Math.floor(ms / 100) / 10).toFixed(1)} s`;
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mmss = `${h ? `${h}:${String(m).padStart(2, '0')}` : m}:${String(s).padStart(2, '0')}`;
  return mmss;
}

export function clockText(room, seat) {
  const untimed = room.clock.remaining[seat] === null || room.clock.remaining[seat] === undefined;
  if (untimed) return room.clockRules && room.clockRules.move_ms === null ? 'untimed' : '—';
  return formatMs(clockLeft(room.clock, seat));
}

/** Refreshes every clock and claim countdown in `root` for `room`; cheap, runs ~10 times/s. */
export function tickClocks(root, room) {
  if (!room) return;
  for (const el of root.querySelectorAll('[data-role="clock"]')) {
    const seat = Number(el.dataset.seat);
    const text = clockText(room, seat);
    const left = clockLeft(room.clock, seat);
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle('untimed', text === 'untimed');
    const low = left !== null && room.clock.running === seat && left < 10000;
    el.classList.toggle('low', low);
    el.classList.toggle('running', room.clock.running === seat);
  }
  for (const el of root.querySelectorAll('[data-role="claim-time"]')) {
    const left = room.claimLeft();
    const text = left === null ? '' : formatMs(left);
    if (el.textContent !== text) el.textContent = text;
  }
}
