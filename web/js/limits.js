// The server's bounds on what the forms send, in one place. Names (protocol/PROTOCOL.md sections
// 14 and 19) are counted as the server counts them: in bytes of UTF-8 after trimming spaces, so
// "é" counts 2 and most emoji 4.

export const MAX_PLAYER_NAME_BYTES = 32;
export const MAX_ROOM_NAME_BYTES = 32;
export const MAX_TOURNAMENT_NAME_BYTES = 64;

export function utf8Length(text) {
  return new TextEncoder().encode(text).length;
}

/** The sentence to show when `text` is longer than `max` bytes, or null when it fits. */
export function tooLong(what, text, max) {
  if (utf8Length(text) <= max) return null;
  return `${what} is too long: at most ${max} characters (accented letters count 2, emoji 4).`;
}

// The clock of a room or of a tournament's games, in the seconds the forms ask for (PROTOCOL.md
// section 5, create_room's `clock`: move_ms 100..3600000 or null for untimed, claim_ms
// 100..600000), with the values the forms start from (the server's defaults).
export const MOVE_SECONDS = { min: 0.1, max: 3600, initial: 60 };
export const CLAIM_SECONDS = { min: 0.1, max: 600, initial: 10 };

// A tournament's settings (section 19, create_tournament).
export const SWISS_ROUNDS = { min: 1, max: 20 };
export const TOURNAMENT_PLAYERS = { min: 2, max: 64, initial: 16 };
export const ROUND_PAUSE_SECONDS = { min: 0, max: 600, initial: 20 };
