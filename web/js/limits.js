// The server's limits on names (protocol/PROTOCOL.md sections 14 and 19), counted as the server
// counts them: in bytes of UTF-8 after trimming spaces, so "é" counts 2 and most emoji 4.

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
