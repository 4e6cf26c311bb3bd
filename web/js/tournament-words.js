// A tournament in words: its settings in a line, what is happening now (the page's summary
// and the invitation's status), a start time, and a rank ("3rd"). Pure functions of the
// snapshot (protocol section 19).

import { rulesSummary } from './words.js';
import {
  FORMAT_WORDS, formatPoints, rounds, gamesPerPairing, totalRounds, roundComplete, leaders, waitingRound,
} from './tournament-table.js';

/** A moment in the reader's own words and time zone ("Mar 5, 2027, 7:30 PM"). */
export function formatStart(ms) {
  try {
    return new Date(ms).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
  } catch {
    return new Date(ms).toString();
  }
}

/** The format, rounds, pairing, pause, rules and clock in a line. */
export function settingsText(t) {
  const s = t.settings || {};
  const parts = [FORMAT_WORDS[t.format] || t.format];
  const total = totalRounds(t);
  if (total) parts.push(`${total} round${total === 1 ? '' : 's'}`);
  else if (t.format === 'round_robin') parts.push('everyone meets everyone');
  else parts.push('rounds set at the start');
  const gpp = gamesPerPairing(t);
  parts.push(gpp === 2 ? '2 games per pairing (each starts once)' : '1 game per pairing');
  if (typeof s.round_pause_seconds === 'number' && s.round_pause_seconds > 0) parts.push(`${s.round_pause_seconds} s between rounds`);
  parts.push(rulesSummary(s.rules || {}, s.clock || {}));
  if (s.rated) parts.push('rated');
  return parts.join(' · ');
}

/** What is happening now, in words (the page's summary line, the invitation's status). */
export function summaryText(t) {
  const players = (t.players || []).filter((p) => p.active !== false).length;
  const list = rounds(t);
  const current = list[list.length - 1];
  const total = totalRounds(t);
  const of = total ? ` of ${total}` : '';
  switch (t.status) {
    case 'registering': {
      const max = t.settings && t.settings.max_players;
      const count = `${players} player${players === 1 ? '' : 's'} registered${max ? ` (at most ${max})` : ''}`;
      const start = t.settings && typeof t.settings.start_at_ms === 'number'
        ? `It starts by itself at ${formatStart(t.settings.start_at_ms)} if at least 2 players have registered, or when the director starts it.`
        : 'The director starts it when everybody is here.';
      return `Registration is open: ${count}. ${start}`;
    }
    case 'running':
      if (waitingRound(t)) return `Round ${current.round - 1}${of} is over. Round ${current.round} is paired: its games start after a short pause.`;
      return current ? `Round ${current.round}${of} is being played.` : 'Starting…';
    case 'paused':
      if (waitingRound(t)) return `Paused by the director before round ${current.round}${of}: its games start when the director resumes.`;
      if (current && !roundComplete(current)) return `Paused by the director: the games of round ${current.round} are played out, then the tournament waits for the director to resume it.`;
      return `Paused by the director${current ? ` after round ${current.round}${of}` : ''}: the next round starts when the director resumes.`;
    case 'finished': {
      const top = leaders(t);
      if (!top) return 'The tournament is over.';
      const pts = `${formatPoints(top.points)} point${top.points === 1 ? '' : 's'}`;
      return top.shared
        ? `The tournament is over: ${top.names} share first place with ${pts}.`
        : `The tournament is over: ${top.names} wins with ${pts}.`;
    }
    default:
      return '';
  }
}

/** 1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd". */
export function ordinal(n) {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] || s[v] || s[0]}`;
}
