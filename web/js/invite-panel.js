// The waiting room's invitation, for the seated player while the other seat is free: the
// room's link as text (selected whole with one click, for a chat or a mail), its QR code (for
// a phone across the table), and a button that copies it.
//
// The QR code's library is loaded with the first invitation (qr-library.js): until it is there
// the panel has the link and the button, and the code is put into the panel on the page as
// soon as it loads. Without the library (a server with no node-qrcode-generator) the panel
// stays so, and speaks of no code to scan.
//
// Hooks: data-role="invite-panel", data-role="invite-link" (the link's text), data-role="invite-qr"
// (the QR code's box; an <svg> inside), data-action="copy-invite".

import { h } from './dom.js';
import { loadQrLibrary } from './qr-library.js';
import { qrSvg } from './qr-svg.js';

/** The address that opens room `id` in this client. */
export function roomLink(id) {
  return `${window.location.origin}${window.location.pathname}#/room/${encodeURIComponent(String(id))}`;
}

// The library: 'idle' until an invitation asks for it, then 'loading', 'ready' or 'failed'.
let library = { state: 'idle', qrcode: null };
// The game view redraws on every event: the QR code is made once per link.
let cached = { link: null, svg: null };
// The panel last made while the library loaded: the one to put the code into once it has.
let waiting = null;

function qrOf(link) {
  if (library.state !== 'ready') return null;
  if (cached.link !== link) {
    let svg = null;
    try {
      svg = qrSvg(library.qrcode, link, 'QR code of the link to this room: scan it with a phone to join');
    } catch {
      svg = null; // longer than a version 10 code holds: the text and the button still do
    }
    cached = { link, svg };
  }
  return cached.svg;
}

function askForLibrary() {
  if (library.state !== 'idle') return;
  library = { state: 'loading', qrcode: null };
  loadQrLibrary().then((qrcode) => {
    library = { state: 'ready', qrcode };
    const panel = waiting;
    waiting = null;
    if (panel?.element.isConnected) addQr(panel);
  }, () => {
    library = { state: 'failed', qrcode: null };
    waiting = null;
  });
}

const qrBox = (svg) => h('div', { class: 'invite-qr', dataset: { role: 'invite-qr' } }, svg);
const leadWords = (withQr) => `Invite someone: send them this link${withQr ? ', or let them scan the code' : ''}.`;

/** Puts the code into a panel made before the library was there. */
function addQr({ element, lead, link }) {
  const svg = qrOf(link);
  if (!svg) return;
  element.prepend(qrBox(svg));
  lead.textContent = leadWords(true);
}

/** `copied`: the link was just copied (the button says so); `onCopy` copies it. */
export function invitePanel(link, { copied, onCopy }) {
  askForLibrary();
  const svg = qrOf(link);
  const lead = h('p', { class: 'invite-lead' }, leadWords(!!svg));
  const element = h('div', { class: 'invite-panel', dataset: { role: 'invite-panel' } },
    svg ? qrBox(svg) : null,
    h('div', { class: 'invite-text' },
      lead,
      h('code', { class: 'invite-link', dataset: { role: 'invite-link' } }, link),
      h('button', { type: 'button', class: 'secondary', dataset: { action: 'copy-invite' }, onclick: onCopy },
        copied ? 'Link copied ✓' : 'Copy link')));
  if (library.state === 'loading') waiting = { element, lead, link };
  return element;
}
