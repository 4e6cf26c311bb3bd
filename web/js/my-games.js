// The lobby's word on the games this tab is in: a returning player (the site's root opened, or
// the lobby reached from a game) is first offered the games they play that are on, at the top
// of the lobby ("Your game against Bo is on — your move"), with one click back to each; and the
// list of every room this tab follows says what each one is to them.
//
// Hooks: data-role="games-on" (the offers), each data-role="game-on" (data-room, data-turn:
// "mine" | "theirs") with data-action="back-to-game"; the list's links data-action="open-room".

import { h } from './dom.js';

/** The games this tab plays in that are in progress, their rooms. */
export function gamesOn(app) {
  return [...app.rooms.values()].filter((r) => r.isPlayer && r.status === 'playing');
}

const href = (room) => `#/room/${encodeURIComponent(String(room.id))}`;

function opponentOf(room) {
  return room.seatName(1 - room.you);
}

/** One line per game on, or null when there is none. */
export function gamesOnBanner(app) {
  const games = gamesOn(app);
  if (!games.length) return null;
  return h('section', { class: 'games-on', dataset: { role: 'games-on' }, 'aria-label': 'Your games in progress' },
    games.map((room) => {
      const mine = room.turn === room.you;
      return h('div', { class: `card game-on${mine ? ' my-turn' : ''}`, dataset: { role: 'game-on', room: room.id, turn: mine ? 'mine' : 'theirs' } },
        h('p', {}, h('strong', {}, `Your game against ${opponentOf(room)} is on`),
          ` — ${mine ? 'your move' : `${opponentOf(room)}'s move`}`),
        h('a', { class: 'button primary', href: href(room), dataset: { action: 'back-to-game', room: room.id } }, 'Back to the game'));
    }));
}

/** What a followed room is to this player: "against Bo — your move", "watching Ann vs Bo". */
export function followedWords(room) {
  if (!room.isPlayer) {
    const names = [0, 1].map((s) => room.players[s] && room.seatName(s)).filter(Boolean).join(' vs ');
    const state = room.status === 'finished' ? ' (over)' : room.status === 'waiting' ? ' (waiting for players)' : '';
    return `watching${names ? ` ${names}` : ''}${state}`;
  }
  if (room.status === 'waiting') return 'waiting for an opponent';
  const against = room.players[1 - room.you] ? `against ${opponentOf(room)}` : 'your opponent has left';
  if (room.status === 'finished') return `${against} — game over`;
  return `${against} — ${room.turn === room.you ? 'your move' : `${opponentOf(room)}'s move`}`;
}

/** The "Your games" list of the lobby (empty when this tab follows no room). */
export function followedList(app) {
  const rooms = [...app.rooms.values()];
  if (!rooms.length) return [];
  return [h('h2', {}, 'Your games'), h('ul', { class: 'mine' }, rooms.map((r) => h('li', {},
    h('a', { href: href(r), dataset: { action: 'open-room', room: r.id } }, r.name),
    ` — ${followedWords(r)}`)))];
}
