// Quarto pieces: bit 1 dark, bit 2 tall, bit 4 square, bit 8 hollow (protocol v1).
// Each piece is drawn in SVG seen slightly from above, so every attribute shows at a glance:
//   colour  -> cream wood vs dark brown wood
//   height  -> a tall body vs a short body
//   shape   -> a cylinder (round) vs a box (square)
//   fill    -> a black hole in the top face (hollow) vs a plain top (solid)

export const DARK = 1;
export const TALL = 2;
export const SQUARE = 4;
export const HOLLOW = 8;

export const ATTRIBUTES = [
  { key: 'color', bit: DARK, on: 'dark', off: 'light', label: 'Colour (light / dark)' },
  { key: 'height', bit: TALL, on: 'tall', off: 'short', label: 'Height (tall / short)' },
  { key: 'shape', bit: SQUARE, on: 'square', off: 'round', label: 'Shape (round / square)' },
  { key: 'fill', bit: HOLLOW, on: 'hollow', off: 'solid', label: 'Top (solid / hollow)' },
];

export function pieceName(p) {
  return ATTRIBUTES.map((a) => (p & a.bit ? a.on : a.off)).join(' ');
}

/** The attribute values (e.g. "dark", "round") that the given pieces all share. */
export function sharedTraits(pieces, countedKeys = null) {
  const out = [];
  for (const a of ATTRIBUTES) {
    if (countedKeys && !countedKeys.includes(a.key)) continue;
    if (pieces.every((p) => p & a.bit)) out.push(a.on);
    else if (pieces.every((p) => !(p & a.bit))) out.push(a.off);
  }
  return out;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

const PALETTE = {
  light: { top: '#fff6df', front: '#f0d9aa', side: '#d2b27a', stroke: '#7a5a36', body: 'url(#q-grad-light)', hole: '#2b1a0e', rim: '#7a5a36' },
  dark: { top: '#8a5e3c', front: '#5a3820', side: '#3d2513', stroke: '#1c1008', body: 'url(#q-grad-dark)', hole: '#0d0704', rim: '#d9b48a' },
};

function el(name, attrs) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * Returns an <svg> drawing piece p. With a label, the SVG is an image named for screen readers;
 * without one it is decorative (aria-hidden), for use inside an already labelled control.
 */
export function pieceSvg(p, { label = null, className = 'piece' } = {}) {
  const dark = !!(p & DARK);
  const tall = !!(p & TALL);
  const square = !!(p & SQUARE);
  const hollow = !!(p & HOLLOW);
  const c = dark ? PALETTE.dark : PALETTE.light;

  const svg = el('svg', { viewBox: '0 0 100 100', class: `${className} p-${dark ? 'dark' : 'light'} p-${tall ? 'tall' : 'short'} p-${square ? 'square' : 'round'} p-${hollow ? 'hollow' : 'solid'}`, focusable: 'false' });
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label === true ? pieceName(p) : label);
    const title = el('title', {});
    title.textContent = label === true ? pieceName(p) : label;
    svg.appendChild(title);
  } else {
    svg.setAttribute('aria-hidden', 'true');
  }

  const bottom = 90;
  const height = tall ? 54 : 20;
  const sw = 2.2;
  // soft shadow on the board
  svg.appendChild(el('ellipse', { cx: 52, cy: bottom + 2, rx: 36, ry: 7, fill: 'rgba(0,0,0,0.22)' }));

  if (!square) {
    const cx = 50;
    const rx = 29;
    const ry = 11;
    const yb = bottom - ry + 2;
    const yt = yb - height;
    svg.appendChild(el('path', {
      d: `M ${cx - rx} ${yt} L ${cx - rx} ${yb} A ${rx} ${ry} 0 0 0 ${cx + rx} ${yb} L ${cx + rx} ${yt} Z`,
      fill: c.body, stroke: c.stroke, 'stroke-width': sw, 'stroke-linejoin': 'round',
    }));
    svg.appendChild(el('ellipse', { cx, cy: yt, rx, ry, fill: c.top, stroke: c.stroke, 'stroke-width': sw }));
    if (hollow) {
      svg.appendChild(el('ellipse', { cx, cy: yt, rx: 17, ry: 6.2, fill: c.hole, stroke: c.rim, 'stroke-width': 1.6 }));
    }
  } else {
    const x0 = 17;
    const w = 50;
    const dx = 16;
    const dy = -12;
    const yb = bottom - 1;
    const yt = yb - height - 4;
    // front face
    svg.appendChild(el('rect', { x: x0, y: yt, width: w, height: yb - yt, fill: c.front, stroke: c.stroke, 'stroke-width': sw, 'stroke-linejoin': 'round' }));
    // right face
    svg.appendChild(el('path', {
      d: `M ${x0 + w} ${yt} L ${x0 + w + dx} ${yt + dy} L ${x0 + w + dx} ${yb + dy} L ${x0 + w} ${yb} Z`,
      fill: c.side, stroke: c.stroke, 'stroke-width': sw, 'stroke-linejoin': 'round',
    }));
    // top face
    svg.appendChild(el('path', {
      d: `M ${x0} ${yt} L ${x0 + w} ${yt} L ${x0 + w + dx} ${yt + dy} L ${x0 + dx} ${yt + dy} Z`,
      fill: c.top, stroke: c.stroke, 'stroke-width': sw, 'stroke-linejoin': 'round',
    }));
    if (hollow) {
      svg.appendChild(el('ellipse', { cx: x0 + w / 2 + dx / 2, cy: yt + dy / 2, rx: 16, ry: 5, fill: c.hole, stroke: c.rim, 'stroke-width': 1.6 }));
    }
  }
  return svg;
}
