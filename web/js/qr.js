// A QR code encoder after ISO/IEC 18004: byte mode, error correction level M (or L when M
// cannot hold the text), versions 1..10, which take up to 213 bytes at M and 271 at L: a room's
// invite link with room to spare. No DOM and no dependency, so the same file runs in the browser
// (qr-svg.js draws what it returns) and under Node (tests/web/qr.test.mjs checks it against the
// specification's own numbers).
//
// Not a packaged library: Debian 12's one for browsers (node-qrcode-generator) is a 57 KB classic
// script that sets a global, which the server would have to serve from /usr/share/javascript
// beside web/ and the container image install apart from what the binary links, and Nayuki's
// libqrcodegen would have the server draw the client's pictures at a new HTTP route, with a new
// build dependency and a request per invitation. Neither is clearly better than this file: the
// standard it follows does not change, and tests/web/qr.test.mjs decodes its output with zbarimg.

// ---- GF(256) over x^8 + x^4 + x^3 + x^2 + 1 (0x11D), the field of QR's Reed-Solomon code ----

const EXP = new Uint8Array(510); // EXP[i] = α^i, doubled so that EXP[LOG[a] + LOG[b]] needs no modulo
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++) {
  EXP[i] = EXP[i + 255] = x;
  LOG[x] = i;
  x <<= 1;
  if (x & 0x100) x ^= 0x11d;
}

export function gfMul(a, b) {
  return a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]];
}

/** The generator polynomial of degree n, (x - α^0)(x - α^1)…(x - α^(n-1)), highest power first. */
export function rsGenerator(n) {
  let g = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array(g.length + 1).fill(0);
    for (let j = 0; j < g.length; j++) {
      next[j] ^= g[j]; // g·x
      next[j + 1] ^= gfMul(g[j], EXP[i]); // g·α^i (subtraction is addition in GF(2^8))
    }
    g = next;
  }
  return g;
}

/** The n error correction codewords of a block: the remainder of data(x)·x^n divided by the generator. */
export function rsEcc(data, n) {
  const g = rsGenerator(n);
  const rem = new Array(n).fill(0);
  for (const byte of data) {
    const factor = byte ^ rem.shift();
    rem.push(0);
    if (factor !== 0) for (let j = 0; j < n; j++) rem[j] ^= gfMul(g[j + 1], factor);
  }
  return rem;
}

// ---- the symbol's layout per version (tables 1, 9 and annex E of the specification) ----

// Per level, per version: [EC codewords per block, [blocks, data codewords per block], ...].
const BLOCKS = {
  L: [null, [7, [1, 19]], [10, [1, 34]], [15, [1, 55]], [20, [1, 80]], [26, [1, 108]],
    [18, [2, 68]], [20, [2, 78]], [24, [2, 97]], [30, [2, 116]], [18, [2, 68], [2, 69]]],
  M: [null, [10, [1, 16]], [16, [1, 28]], [26, [1, 44]], [18, [2, 32]], [24, [2, 43]],
    [16, [4, 27]], [18, [4, 31]], [22, [2, 38], [2, 39]], [22, [3, 36], [2, 37]], [26, [4, 43], [1, 44]]],
};
// The centres of the alignment patterns, the same list for rows and columns.
const ALIGNMENT = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
// The two format bits of each level (L is 01, M 00: not in the order of their strength).
const LEVEL_BITS = { L: 1, M: 0, Q: 3, H: 2 };
export const MAX_VERSION = 10;

export const sizeOf = (version) => 17 + 4 * version;

/** The blocks of (version, level): [{data: codewords, ecc: codewords}] with the data counts only. */
export function blockLayout(version, level) {
  const [ecc, ...groups] = BLOCKS[level][version];
  const blocks = [];
  for (const [count, data] of groups) for (let i = 0; i < count; i++) blocks.push({ data, ecc });
  return blocks;
}

export function dataCapacity(version, level) {
  return blockLayout(version, level).reduce((sum, b) => sum + b.data, 0);
}

/** The 15 format bits of (level, mask): BCH(15,5) with generator 0x537, then XOR 0x5412. */
export function formatBits(level, mask) {
  const data = (LEVEL_BITS[level] << 3) | mask;
  let rem = data << 10;
  for (let bit = 14; bit >= 10; bit--) if (rem & (1 << bit)) rem ^= 0x537 << (bit - 10);
  return ((data << 10) | rem) ^ 0x5412;
}

/** The 18 version bits (versions 7 and up): BCH(18,6) with generator 0x1F25. */
export function versionBits(version) {
  let rem = version << 12;
  for (let bit = 17; bit >= 12; bit--) if (rem & (1 << bit)) rem ^= 0x1f25 << (bit - 12);
  return (version << 12) | rem;
}

// ---- the data: byte mode ----

const countBits = (version) => (version <= 9 ? 8 : 16);

/** Whether `length` bytes fit (version, level) in byte mode. */
export function fits(length, version, level) {
  return 4 + countBits(version) + 8 * length <= 8 * dataCapacity(version, level);
}

/** The data codewords: mode 0100, the byte count, the bytes, a terminator, then the pad bytes EC 11. */
export function dataCodewords(bytes, version, level) {
  const capacity = dataCapacity(version, level);
  const bits = [];
  const put = (value, n) => { for (let i = n - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  put(0b0100, 4);
  put(bytes.length, countBits(version));
  for (const b of bytes) put(b, 8);
  put(0, Math.min(4, 8 * capacity - bits.length)); // the terminator, shorter when the symbol is full
  while (bits.length % 8) bits.push(0);
  const out = [];
  for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((v, b) => (v << 1) | b, 0));
  for (let pad = 0xec; out.length < capacity; pad ^= 0xec ^ 0x11) out.push(pad);
  return out;
}

/** Every codeword in the order it is placed: the blocks' data interleaved, then their ECC interleaved. */
export function interleave(data, version, level) {
  const layout = blockLayout(version, level);
  const blocks = [];
  let at = 0;
  for (const { data: n, ecc } of layout) {
    const d = data.slice(at, at + n);
    at += n;
    blocks.push({ d, e: rsEcc(d, ecc) });
  }
  const out = [];
  const longest = Math.max(...blocks.map((b) => b.d.length));
  for (let i = 0; i < longest; i++) for (const b of blocks) if (i < b.d.length) out.push(b.d[i]);
  for (let i = 0; i < layout[0].ecc; i++) for (const b of blocks) out.push(b.e[i]);
  return out;
}

// ---- the matrix ----

// The eight data masks: whether the module at (row r, column c) is inverted.
export const MASKS = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

class Grid {
  constructor(version) {
    this.version = version;
    this.size = sizeOf(version);
    this.dark = new Uint8Array(this.size * this.size);
    this.fixed = new Uint8Array(this.size * this.size); // function patterns: never data, never masked
  }

  get(r, c) { return this.dark[r * this.size + c] === 1; }

  setFixed(r, c, dark) {
    this.dark[r * this.size + c] = dark ? 1 : 0;
    this.fixed[r * this.size + c] = 1;
  }

  isFixed(r, c) { return this.fixed[r * this.size + c] === 1; }
}

/** Finders with their separators, timing lines, alignment patterns, the dark module, and the
 *  format and version areas (reserved here, written by drawFormat and drawVersion). */
function drawFunctionPatterns(g) {
  const n = g.size;
  for (const [top, left] of [[0, 0], [0, n - 7], [n - 7, 0]]) {
    // The 7×7 finder and the light separator around it (cut off by the edge of the symbol).
    for (let dr = -1; dr <= 7; dr++) {
      for (let dc = -1; dc <= 7; dc++) {
        const r = top + dr;
        const c = left + dc;
        if (r < 0 || r >= n || c < 0 || c >= n) continue;
        const ring = Math.max(Math.abs(dr - 3), Math.abs(dc - 3)); // 0 at the centre, 4 the separator
        g.setFixed(r, c, ring !== 2 && ring !== 4);
      }
    }
  }
  for (let i = 8; i < n - 8; i++) {
    g.setFixed(6, i, i % 2 === 0);
    g.setFixed(i, 6, i % 2 === 0);
  }
  const centres = ALIGNMENT[g.version];
  const last = centres.length - 1;
  centres.forEach((r, i) => centres.forEach((c, j) => {
    if ((i === 0 && (j === 0 || j === last)) || (i === last && j === 0)) return; // under a finder
    for (let dr = -2; dr <= 2; dr++) {
      for (let dc = -2; dc <= 2; dc++) g.setFixed(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
    }
  }));
  drawFormat(g, 0); // reserves the format areas; overwritten once the mask is chosen
  drawVersion(g);
}

/** The format bits, twice: around the top-left finder, and split between the other two. Bit 0
 *  is the least significant. */
function drawFormat(g, bits) {
  const n = g.size;
  const bit = (i) => ((bits >>> i) & 1) === 1;
  for (let i = 0; i < 15; i++) {
    // Top-left: up column 8 (rows 0..5, 7, 8 for bits 0..7), then left along row 8 (columns 7, 5..0).
    if (i < 6) g.setFixed(i, 8, bit(i));
    else if (i < 8) g.setFixed(i + 1, 8, bit(i));
    else if (i === 8) g.setFixed(8, 7, bit(i));
    else g.setFixed(8, 14 - i, bit(i));
    // The other copy: bits 0..7 along row 8 from the right edge, bits 8..14 down column 8 to the bottom.
    if (i < 8) g.setFixed(8, n - 1 - i, bit(i));
    else g.setFixed(n - 15 + i, 8, bit(i));
  }
  g.setFixed(n - 8, 8, true); // the dark module, always there
}

/** Versions 7 and up: the version bits in a 6×3 block beside the top-right and bottom-left finders. */
function drawVersion(g) {
  if (g.version < 7) return;
  const bits = versionBits(g.version);
  for (let i = 0; i < 18; i++) {
    const dark = ((bits >>> i) & 1) === 1;
    const a = Math.floor(i / 3);
    const b = g.size - 11 + (i % 3);
    g.setFixed(a, b, dark); // top right: 6 rows, 3 columns
    g.setFixed(b, a, dark); // bottom left: its transpose
  }
}

/** The codewords' bits into every module that is not a function pattern, in the two-column
 *  zigzag from the bottom right corner (skipping the vertical timing line); what is left over
 *  (the remainder bits) stays light. */
function drawCodewords(g, codewords) {
  const n = g.size;
  const total = codewords.length * 8;
  let i = 0;
  let upward = true;
  for (let right = n - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let step = 0; step < n; step++) {
      const r = upward ? n - 1 - step : step;
      for (const c of [right, right - 1]) {
        if (g.isFixed(r, c)) continue;
        const dark = i < total && ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
        g.dark[r * n + c] = dark ? 1 : 0;
        i++;
      }
    }
    upward = !upward;
  }
  return i; // how many data modules the symbol has
}

function applyMask(g, mask) {
  const test = MASKS[mask];
  for (let r = 0; r < g.size; r++) {
    for (let c = 0; c < g.size; c++) if (!g.isFixed(r, c) && test(r, c)) g.dark[r * g.size + c] ^= 1;
  }
}

/** The specification's penalty score of a finished symbol (the lowest is the mask to use):
 *  runs of 5 or more alike (3 + 1 per module over 5), 2×2 blocks alike (3 each), the finder-like
 *  1:1:3:1:1 pattern beside 4 light modules (40 each), and 10 per 5% of dark modules away from half. */
export function penalty(size, darkAt) {
  let score = 0;
  const finderLike = [1, 0, 1, 1, 1, 0, 1];
  for (let line = 0; line < size; line++) {
    for (const across of [true, false]) {
      const at = (k) => (across ? darkAt(line, k) : darkAt(k, line));
      let run = 1;
      for (let k = 1; k <= size; k++) {
        if (k < size && at(k) === at(k - 1)) { run++; continue; }
        if (run >= 5) score += 3 + (run - 5);
        run = 1;
      }
      for (let k = 0; k + 7 <= size; k++) {
        if (!finderLike.every((v, j) => at(k + j) === (v === 1))) continue;
        const light = (from, to) => { for (let j = from; j < to; j++) if (j >= 0 && j < size && at(j)) return false; return true; };
        if (light(k - 4, k) || light(k + 7, k + 11)) score += 40;
      }
    }
  }
  let dark = 0;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (darkAt(r, c)) dark++;
      if (r + 1 < size && c + 1 < size) {
        const v = darkAt(r, c);
        if (darkAt(r, c + 1) === v && darkAt(r + 1, c) === v && darkAt(r + 1, c + 1) === v) score += 3;
      }
    }
  }
  score += 10 * Math.floor(Math.abs(dark * 20 - size * size * 10) / (size * size));
  return score;
}

/**
 * The QR code of `text` (UTF-8 in byte mode): {version, size, level, mask, dark(r, c), modules}
 * where modules is size×size, row by row, 1 for dark. The smallest version that holds it at
 * level M, else at L; `mask` forces a mask (0..7) instead of the one with the lowest penalty.
 * Throws a RangeError when the text is too long for version 10 at level L.
 */
export function encodeQr(text, { level = null, mask = null } = {}) {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : Uint8Array.from(text);
  let version = 0;
  let chosen = null;
  for (const l of level ? [level] : ['M', 'L']) {
    version = 0;
    for (let v = 1; v <= MAX_VERSION && !version; v++) if (fits(bytes.length, v, l)) version = v;
    if (version) { chosen = l; break; }
  }
  if (!version) throw new RangeError(`${bytes.length} bytes do not fit a version ${MAX_VERSION} QR code`);
  const g = new Grid(version);
  drawFunctionPatterns(g);
  const codewords = interleave(dataCodewords(bytes, version, chosen), version, chosen);
  const dataModules = drawCodewords(g, codewords);
  const unmasked = g.dark.slice();
  let best = null;
  for (const m of mask === null ? [0, 1, 2, 3, 4, 5, 6, 7] : [mask]) {
    g.dark.set(unmasked);
    applyMask(g, m);
    drawFormat(g, formatBits(chosen, m));
    const score = mask === null ? penalty(g.size, (r, c) => g.get(r, c)) : 0;
    if (!best || score < best.score) best = { score, mask: m, modules: g.dark.slice() };
  }
  const { size } = g;
  const modules = best.modules;
  return {
    version, size, level: chosen, mask: best.mask, modules, dataModules, codewords,
    dark: (r, c) => modules[r * size + c] === 1,
  };
}
