// What the player may do now in the game view: give, place, pass, resign, claim the victory.
// Pure functions of the room and, for the moves, of the squares chosen for a Quarto call
// (`selecting`: null when not calling; while calling, even with none chosen yet, nothing else
// may be played).

/** Whether it is this page's player's turn, in a game on, at `phase` ('give' or 'place'). */
export function myTurnTo(room, phase) {
  return room.isPlayer && room.status === 'playing' && room.turn === room.you && room.phase === phase;
}

export function canGive(room, selecting) {
  return !selecting && myTurnTo(room, 'give') && room.available.length > 0;
}

export function canPlace(room, selecting) {
  return !selecting && myTurnTo(room, 'place') && room.inHand !== null;
}

/** The board full and no piece left to give: the player passes (or calls). */
export function canPass(room, selecting) {
  return !selecting && myTurnTo(room, 'give') && room.available.length === 0;
}

/** Resign, and Leave that resigns: a seated player in a game in progress. */
export function canResign(room) {
  return room.isPlayer && room.status === 'playing';
}

/** The opponent has been away long enough: the game can be won instead of waited on. */
export function canClaimVictory(room) {
  return room.you !== null && room.claimVictoryIn(1 - room.you) === 0;
}
