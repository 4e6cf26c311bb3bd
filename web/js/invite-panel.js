// The waiting room's invitation, for the seated player while the other seat is free: the
// room's link as text (selected whole with one click, for a chat or a mail), its QR code (for
// a phone across the table), and a button that copies it.
//
// Hooks: data-role="invite-panel", data-role="invite-link" (the link's text), data-role="invite-qr"
// (the QR code's box; an <svg> inside), data-action="copy-invite".

import { h } from './dom.js';
import { qrSvg } from './qr-svg.js';

/** The address that opens room `id` in this client. */
export function roomLink(id) {
  return `${window.location.origin}${window.location.pathname}#/room/${encodeURIComponent(String(id))}`;
}

// The game view redraws on every event: the QR code is made once per link.
let cached = { link: null, svg: null };

function qrOf(link) {
  if (cached.link !== link) {
    let svg = null;
    try {
      svg = qrSvg(link, 'QR code of the link to this room: scan it with a phone to join');
    } catch {
      svg = null; // longer than a version 10 code holds: the text and the button still do
    }
    cached = { link, svg };
  }
  return cached.svg;
}

/** `copied`: the link was just copied (the button says so); `onCopy` copies it. */
export function invitePanel(link, { copied, onCopy }) {
  const svg = qrOf(link);
  return h('div', { class: 'invite-panel', dataset: { role: 'invite-panel' } },
    svg ? h('div', { class: 'invite-qr', dataset: { role: 'invite-qr' } }, svg) : null,
    h('div', { class: 'invite-text' },
      h('p', { class: 'invite-lead' }, 'Invite someone: send them this link', svg ? ', or let them scan the code' : '', '.'),
      h('code', { class: 'invite-link', dataset: { role: 'invite-link' } }, link),
      h('button', { type: 'button', class: 'secondary', dataset: { action: 'copy-invite' }, onclick: onCopy },
        copied ? 'Link copied ✓' : 'Copy link')));
}
