// Draws a QR code (qr.js, with the library qr-library.js loads) as SVG: black modules on
// white with the 4-module quiet zone the specification asks for, whatever the page's colours
// (a dark theme must not invert it: cameras read dark on light).

import { encodeQr } from './qr.js';

const NS = 'http://www.w3.org/2000/svg';
const QUIET = 4;

function el(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** An <svg> of `text`'s QR code, made by the library's `qrcode`, one user unit a module, scaled
 *  by CSS; `label` names it. A RangeError when the text is too long (qr.js). */
export function qrSvg(qrcode, text, label) {
  const qr = encodeQr(qrcode, text);
  const side = qr.size + 2 * QUIET;
  // One path: each row's runs of dark modules as rectangles.
  let d = '';
  for (let r = 0; r < qr.size; r++) {
    for (let c = 0; c < qr.size;) {
      if (!qr.dark(r, c)) { c++; continue; }
      let end = c;
      while (end < qr.size && qr.dark(r, end)) end++;
      d += `M${c + QUIET} ${r + QUIET}h${end - c}v1h${c - end}z`;
      c = end;
    }
  }
  const svg = el('svg', { viewBox: `0 0 ${side} ${side}`, role: 'img', 'aria-label': label, 'shape-rendering': 'crispEdges',
    'data-version': qr.version, 'data-level': qr.level });
  svg.append(el('rect', { width: side, height: side, fill: '#fff' }), el('path', { d, fill: '#000' }));
  return svg;
}
