// The state of play in the game view's words: the status line under the board (whose move it
// is and what to do now, said to a player or to a spectator) and each seated player's presence.
// Pure functions of the room and of what the view knows beside it.

/** A seated player's presence in words: online, or gone with the time left to come back. */
export function awayText(room, seat, connected, me) {
  if (connected) return 'online';
  if (seat === me) return 'reconnecting…';
  const p = room.players[seat];
  if (p && p.left) return 'left';
  const wait = room.claimVictoryIn(seat);
  if (wait === null) return 'offline';
  if (wait === 0) return p && p.neverCame ? 'not here' : 'left the game';
  const secs = Math.ceil(wait / 1000);
  return `left the game — ${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')} to come back`;
}

/**
 * The line under the board. Beside the room: the squares chosen so far for a Quarto call
 * (`selecting`, null when not calling), and for a player's finished game of a tournament
 * (`tournamentGame`) whether their next round waits for its start (`nextRound`, and its
 * countdown says the rest) or the tournament is over (`tournamentOver`).
 */
export function statusText(room, { selecting = null, nextRound = false, tournamentGame = false, tournamentOver = false } = {}) {
  const me = room.you;
  const opp = me === null ? null : 1 - me;
  if (room.status === 'waiting') {
    const gone = room.departed ? `${room.departed.name} left. ` : '';
    return room.isPlayer ? `${gone}Waiting for ${gone ? 'a new' : 'an'} opponent — send them the link below.` : `${gone}Waiting for a second player to sit down.`;
  }
  if (room.status === 'finished') {
    if (!room.isPlayer) return 'Game over.';
    if (nextRound) return 'Game over.';
    if (tournamentOver) return 'Game over. That was the tournament\'s last game.';
    if (tournamentGame) return 'Game over. Your next tournament game opens by itself as soon as it is paired.';
    if (room.rematch[me] && !room.rematch[opp]) return `Game over. Waiting for ${room.seatName(opp)} to accept the rematch.`;
    if (room.rematch[opp] && !room.rematch[me]) return `Game over. ${room.seatName(opp)} wants a rematch!`;
    return 'Game over. Play again with a rematch?';
  }
  if (selecting) {
    const what = room.rules.squares ? 'line or 2×2 square' : 'line';
    return `Quarto! Click the 4 squares of the ${what} (${selecting.length} of 4 chosen). Press Escape to cancel.`;
  }
  const mover = room.turn;
  if (mover === null) return '';
  if (!room.isPlayer) {
    if (room.phase === 'place') return `${room.seatName(mover)} is placing a piece.`;
    if (room.available.length === 0) return `${room.seatName(mover)} may call Quarto or pass.`;
    return `${room.seatName(mover)} is choosing a piece to give.`;
  }
  if (mover === me) {
    if (room.phase === 'place') return 'Your move: place the piece in hand on an empty square.';
    if (room.available.length === 0) {
      if (room.claim && room.claim.seat === me) return `The board is full. Call Quarto! if ${room.seatName(opp)} missed a line, or pass to end the game.`;
      return 'The board is full: call Quarto! if you made a line, or pass.';
    }
    const placed = room.board.some((x) => x !== null);
    return placed
      ? `Your move: give ${room.seatName(opp)} a piece (click one below) — or call Quarto! if you made a line.`
      : `Your move: give ${room.seatName(opp)} a piece — click one below.`;
  }
  if (room.phase === 'place') return `${room.seatName(opp)} is placing the piece you gave.`;
  if (room.available.length === 0) return `${room.seatName(opp)} may call Quarto or pass.`;
  return `${room.seatName(opp)} is choosing a piece to give you.`;
}
