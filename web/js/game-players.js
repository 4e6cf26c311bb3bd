// The two players above the board: each seat's name (shortened to fit its place, the title
// keeps it whole) linking to their profile, an account's rating, whether they are here (and how
// long an absent one has to come back), the rematch they asked for, whose turn it is and each
// one's clock.

import { h } from './dom.js';
import { playerLabel, ratingSpan } from './words.js';
import { clockText } from './clock.js';
import { awayText } from './game-status.js';

/**
 * What this page can say of `seat`'s presence. Our own seat is as connected as this page is:
 * not "online" while the banner says the connection is lost (the server would say we are until
 * it notices). Nor is anyone else's presence known then (`welcomed` false): the last word on it
 * may be stale. {connected, known, state: 'online' | 'offline' | 'unknown', title, text}; the
 * text is empty for a free seat.
 */
export function presence(room, seat, welcomed) {
  const me = room.you;
  const p = room.players[seat];
  const connected = p ? p.connected !== false && (seat !== me || welcomed) : false;
  const known = seat === me || welcomed;
  return {
    connected, known,
    state: known ? (connected ? 'online' : 'offline') : 'unknown',
    title: known ? (connected ? 'connected' : 'disconnected') : 'not known while this page is disconnected',
    text: p && known ? awayText(room, seat, connected, me) : '',
  };
}

/** `el` (or null) with `name` added to its classes. */
function withClass(el, name) {
  if (el) el.classList.add(name);
  return el;
}

/** Both seats, their presence and clocks; `welcomed`: the server has greeted this page. */
export function playersStrip(room, welcomed) {
  const me = room.you;
  // Mid-game a player's Tab goes from the room's tools to the board: the names link to their
  // profiles before and after the game, and for spectators.
  const plain = room.isPlayer && room.status === 'playing';
  const players = h('div', { class: 'players' });
  for (const seat of [0, 1]) {
    const p = room.players[seat];
    const active = room.status === 'playing' && room.turn === seat;
    const here = presence(room, seat, welcomed);
    players.appendChild(h('div', { class: `player seat${seat}${active ? ' active' : ''}${seat === me ? ' me' : ''}`, dataset: { role: 'player', seat } },
      h('div', { class: 'player-name' },
        p ? h('span', { class: `conn ${here.state}`, title: here.title }) : null,
        p ? playerLabel(p.name, null, p.id, { class: 'name', dataset: { fit: p.name } }, plain) : h('span', { class: 'name' }, 'Free seat'),
        // The rating: beside the name, or on a phone under it (one of the two is shown).
        withClass(ratingSpan(p), 'beside'),
        seat === me ? h('span', { class: 'you' }, ' (you)') : null,
        p ? h('span', { class: `conn-text${here.connected && here.known ? '' : ' away'}`, dataset: { role: 'presence', seat } }, here.text) : null,
        room.status === 'finished' && room.rematch[seat] ? h('span', { class: 'badge' }, 'wants a rematch') : null),
      h('div', { class: 'clock-row' },
        active ? h('span', { class: 'turn-mark' }, room.phase === 'place' ? 'placing' : 'giving') : null,
        h('span', { class: 'clock', dataset: { role: 'clock', seat }, 'aria-label': `${p ? p.name : `Seat ${seat + 1}`}'s clock` }, clockText(room, seat))),
      withClass(ratingSpan(p), 'below')));
  }
  return players;
}
