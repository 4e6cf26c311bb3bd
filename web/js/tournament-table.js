// Tables derived from a tournament snapshot (protocol section 19): points in chess notation,
// each player's result marks per game, the crosstable, and the state of a round. Pure
// functions of the snapshot, so the page can redraw from any snapshot it receives.

export const FORMAT_WORDS = { round_robin: 'Round robin', swiss: 'Swiss' };
export const STATUS_WORDS = { registering: 'registering', running: 'running', paused: 'paused', finished: 'finished' };

const REASON_WORDS = {
  quarto: 'Quarto',
  missed_quarto: 'missed Quarto claimed',
  timeout: 'on time',
  resign: 'resigned',
  false_claim: 'false Quarto call',
  board_full: 'board full',
  forfeit: 'forfeit',
};

export const reasonWords = (reason) => REASON_WORDS[reason] || reason || '';

/** 1.5 -> "1½", 0.5 -> "½", 2 -> "2" (points are whole or halves). */
export function formatPoints(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  const whole = Math.floor(x + 1e-9);
  const half = Math.abs(x - whole - 0.5) < 1e-9;
  if (half) return whole ? `${whole}½` : '½';
  return String(Math.round(x * 100) / 100);
}

/** Tie-breaks may be quarters (½ × ½): plain decimals, at most two places. */
export function formatTiebreak(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  return String(Math.round(x * 100) / 100);
}

export function rounds(t) {
  return Array.isArray(t.rounds) ? t.rounds : [];
}

export function gamesPerPairing(t) {
  return t.settings && t.settings.games_per_pairing === 2 ? 2 : 1;
}

/** The number of rounds the tournament will have, or null while a round robin's field is open. */
export function totalRounds(t) {
  const n = t.settings && typeof t.settings.rounds === 'number' ? t.settings.rounds : 0;
  if (n > 0) return n;
  if (t.format === 'round_robin' && t.status !== 'registering') return rounds(t).length || null;
  return null;
}

export function isBye(p) {
  return !Array.isArray(p.players) || p.players[1] === null || p.players[1] === undefined;
}

export function pairingDone(p) {
  return Array.isArray(p.score);
}

/** The mark of one finished game for `player`: 1, 0, ½, or + / − for a forfeit. */
export function resultMark(result, player) {
  if (result.winner === null || result.winner === undefined) return '½';
  const won = result.winner === player;
  if (result.reason === 'forfeit') return won ? '+' : '−';
  return won ? '1' : '0';
}

function describeMark(mark) {
  return { 1: 'won', 0: 'lost', '½': 'draw', '+': 'won by forfeit', '−': 'lost by forfeit', '…': 'being played' }[mark] || mark;
}

/** The marks of a pairing for `player`: one per finished game, then "…" for a game in play. */
export function pairingMarks(p, player) {
  const marks = (Array.isArray(p.results) ? p.results : []).map((r) => resultMark(r, player));
  if (!pairingDone(p) && p.room) marks.push('…');
  return marks;
}

/**
 * The crosstable: players in standings order, and for each ordered pair the marks of their
 * games ({round, marks}); byes per player ({round, points}).
 */
export function crosstable(t) {
  const order = Array.isArray(t.standings) && t.standings.length
    ? t.standings.map((s) => s.player)
    : (t.players || []).map((p) => p.id);
  const cells = new Map(); // "a b" -> [{round, marks}]
  const byes = new Map(); // id -> [{round, points}]
  const gpp = gamesPerPairing(t);
  for (const round of rounds(t)) {
    for (const p of round.pairings || []) {
      const [a, b] = p.players || [];
      if (isBye(p)) {
        if (!byes.has(a)) byes.set(a, []);
        byes.get(a).push({ round: round.round, points: Array.isArray(p.score) ? p.score[0] : gpp });
        continue;
      }
      for (const [x, y] of [[a, b], [b, a]]) {
        const key = `${x} ${y}`;
        if (!cells.has(key)) cells.set(key, []);
        cells.get(key).push({ round: round.round, marks: pairingMarks(p, x) });
      }
    }
  }
  return { order, cells, byes };
}

/** Words for a crosstable cell, for its title and screen readers. */
export function describeCell(entries, opponentName) {
  return entries.map((e) => `round ${e.round}: ${e.marks.map(describeMark).join(', ') || 'not played yet'}`).join('; ') +
    (opponentName ? ` against ${opponentName}` : '');
}

/** A pairing's score line: "1 – 0", "½ – ½", or the points so far while it is played. */
export function scoreText(p) {
  if (Array.isArray(p.score)) return `${formatPoints(p.score[0])} – ${formatPoints(p.score[1])}`;
  const results = Array.isArray(p.results) ? p.results : [];
  if (!results.length) return '';
  const [a, b] = p.players;
  const pts = (id) => results.reduce((s, r) => s + (r.winner === null || r.winner === undefined ? 0.5 : r.winner === id ? 1 : 0), 0);
  return `${formatPoints(pts(a))} – ${formatPoints(pts(b))}`;
}

/** The pairing of `player` in a round, or null. */
export function pairingOf(round, player) {
  if (!round) return null;
  return (round.pairings || []).find((p) => Array.isArray(p.players) && p.players.includes(player)) ?? null;
}

export function roundComplete(round) {
  return !!round && (round.pairings || []).every(pairingDone);
}

/** "Ann", or "Ann and Bo" when they share first place. */
export function leaders(t) {
  const table = Array.isArray(t.standings) ? t.standings : [];
  const first = table.filter((s) => s.rank === 1);
  if (!first.length) return null;
  const names = first.map((s) => s.name);
  const joined = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return { names: joined, shared: names.length > 1, points: first[0].points };
}

/** The last round when it is paired but waits for its start time (`starts_at_ms`), else null. */
export function waitingRound(t) {
  const list = rounds(t);
  const last = list[list.length - 1];
  return last && typeof last.starts_at_ms === 'number' ? last : null;
}

/** The round before `round` (whose results stay on screen while `round` waits), or null. */
export function roundBefore(t, round) {
  return rounds(t).find((r) => r.round === round.round - 1) ?? null;
}
