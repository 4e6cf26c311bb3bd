// The invitation's QR codes (web/js/qr.js, which has Debian's qrcode-generator make them)
// against numbers taken from the specification (ISO/IEC 18004) rather than from any encoder:
// the format bits of table C.1, the version bits of table D.1, the fixed patterns, the block
// layout of table 9 and the byte capacities of table 7. Each symbol is read back here as a
// decoder would (unmask, zigzag, de-interleave, byte mode, UTF-8), its blocks are checked to be
// Reed-Solomon codewords, and zbarimg, an independent decoder, reads them too when installed.
//
//   node tests/web/qr.test.mjs        (ctest runs it as web_qr; needs Debian's
//                                      node-qrcode-generator, which deploy/deps.sh installs)

import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeQr, MAX_VERSION } from '../../web/js/qr.js';

const LIBRARY = '/usr/share/nodejs/qrcode-generator/qrcode.js';
let qrcode;
try {
  qrcode = createRequire(import.meta.url)(LIBRARY);
} catch (e) {
  throw new Error(`${LIBRARY} does not load (${e.message}): install Debian's node-qrcode-generator ` +
    '(apt-get install node-qrcode-generator, or deploy/deps.sh)');
}
const encode = (text) => encodeQr(qrcode, text);
const byteLength = (text) => new TextEncoder().encode(text).length;

// Table C.1: the 15 format bits (after the mask 101010000010010) per mask pattern 0..7.
const FORMAT = {
  L: ['111011111000100', '111001011110011', '111110110101010', '111100010011101',
    '110011000101111', '110001100011000', '110110001000001', '110100101110110'],
  M: ['101010000010010', '101000100100101', '101111001111100', '101101101001011',
    '100010111111001', '100000011001110', '100111110010111', '100101010100000'],
};
// Table D.1: the 18 version bits of versions 7..10.
const VERSION_BITS = { 7: 0x07c94, 8: 0x085bc, 9: 0x09a99, 10: 0x0a4d3 };
// Table 9, versions 1..10: [EC codewords per block, [blocks, data codewords per block], ...].
const BLOCKS = {
  L: [null, [7, [1, 19]], [10, [1, 34]], [15, [1, 55]], [20, [1, 80]], [26, [1, 108]],
    [18, [2, 68]], [20, [2, 78]], [24, [2, 97]], [30, [2, 116]], [18, [2, 68], [2, 69]]],
  M: [null, [10, [1, 16]], [16, [1, 28]], [26, [1, 44]], [18, [2, 32]], [24, [2, 43]],
    [16, [4, 27]], [18, [4, 31]], [22, [2, 38], [2, 39]], [22, [3, 36], [2, 37]], [26, [4, 43], [1, 44]]],
};
// Table 1: the codewords of versions 1..10.
const CODEWORDS = [null, 26, 44, 70, 100, 134, 172, 196, 242, 292, 346];
// Table 7: the most bytes byte mode holds in versions 1..10.
const CAPACITY = {
  L: [null, 17, 32, 53, 78, 106, 134, 154, 192, 230, 271],
  M: [null, 14, 26, 42, 62, 84, 106, 122, 152, 180, 213],
};
// Annex E: the rows and columns of the alignment patterns' centres.
const ALIGNMENT = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

/** The blocks of a version and level: [{data, ecc}], in order. */
function blocksOf(version, level) {
  const [ecc, ...groups] = BLOCKS[level][version];
  return groups.flatMap(([count, data]) => Array.from({ length: count }, () => ({ data, ecc })));
}

/** `prefix` cut or filled with ASCII letters to exactly `bytes` bytes of UTF-8. */
function textOf(bytes, prefix = '«été» https://quarto.example.org/#/room/') {
  let text = '';
  for (const ch of prefix) if (byteLength(text + ch) <= bytes) text += ch; else break;
  while (byteLength(text) < bytes) text += 'k3x9abqz'[byteLength(text) % 8];
  return text;
}

/** Multiplication in GF(256) modulo x^8 + x^4 + x^3 + x^2 + 1, bit by bit. */
function gfMul(a, b) {
  let p = 0;
  for (; b; b >>= 1) {
    if (b & 1) p ^= a;
    a <<= 1;
    if (a & 0x100) a ^= 0x11d;
  }
  return p;
}

/** The format bits in both places: [top left, beside the other two finders], bit 0 first. */
function formatCopies(qr) {
  const n = qr.size;
  let first = 0;
  let second = 0;
  const places = [[0, 8], [1, 8], [2, 8], [3, 8], [4, 8], [5, 8], [7, 8], [8, 8], [8, 7], [8, 5], [8, 4], [8, 3], [8, 2], [8, 1], [8, 0]];
  places.forEach(([r, c], i) => { if (qr.dark(r, c)) first |= 1 << i; });
  for (let i = 0; i < 8; i++) if (qr.dark(8, n - 1 - i)) second |= 1 << i;
  for (let i = 8; i < 15; i++) if (qr.dark(n - 15 + i, 8)) second |= 1 << i;
  return [first, second];
}

/** The mask pattern the format bits name: both copies agree, and are table C.1's for the level. */
function maskOf(qr) {
  const [first, second] = formatCopies(qr);
  assert.equal(first, second, `version ${qr.version}: both copies of the format bits agree`);
  const bits = first.toString(2).padStart(15, '0');
  const mask = FORMAT[qr.level].indexOf(bits);
  assert.ok(mask >= 0, `version ${qr.version}-${qr.level}: format bits ${bits} are in table C.1 for level ${qr.level}`);
  return mask;
}

/** The modules of function patterns, from the specification's picture of the symbol. */
function functionModules(version, n) {
  const fn = new Set();
  const mark = (r, c) => fn.add(r * n + c);
  for (let r = 0; r < 9; r++) for (let c = 0; c < 9; c++) mark(r, c);
  for (let r = 0; r < 9; r++) for (let c = n - 8; c < n; c++) mark(r, c);
  for (let r = n - 8; r < n; r++) for (let c = 0; c < 9; c++) mark(r, c);
  for (let i = 0; i < n; i++) { mark(6, i); mark(i, 6); }
  for (const [r, c] of alignmentCentres(version)) {
    for (let dr = -2; dr <= 2; dr++) for (let dc = -2; dc <= 2; dc++) mark(r + dr, c + dc);
  }
  if (version >= 7) for (let a = 0; a < 6; a++) for (let b = n - 11; b < n - 8; b++) { mark(a, b); mark(b, a); }
  return fn;
}

function alignmentCentres(version) {
  const at = ALIGNMENT[version];
  const last = at.at(-1);
  const centres = [];
  for (const r of at) {
    for (const c of at) {
      if ((r === 6 && c === 6) || (r === 6 && c === last) || (r === last && c === 6)) continue; // the finders
      centres.push([r, c]);
    }
  }
  return centres;
}

const MASKS = [(r, c) => (r + c) % 2 === 0, (r) => r % 2 === 0, (r, c) => c % 3 === 0, (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0, (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0, (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0];

/** The codewords in the order they are placed: unmasked, in the two-column zigzag from the bottom right. */
function placedCodewords(qr) {
  const n = qr.size;
  const mask = MASKS[maskOf(qr)];
  const fn = functionModules(qr.version, n);
  const bits = [];
  let up = true;
  for (let right = n - 1; right > 0; right -= 2) {
    if (right === 6) right--; // the vertical timing line
    for (let k = 0; k < n; k++) {
      const r = up ? n - 1 - k : k;
      for (const c of [right, right - 1]) if (!fn.has(r * n + c)) bits.push(qr.dark(r, c) !== mask(r, c) ? 1 : 0);
    }
    up = !up;
  }
  // Every codeword, then the remainder bits: 7 in versions 2..6, none in 1 and 7..10.
  const remainder = qr.version >= 2 && qr.version <= 6 ? 7 : 0;
  assert.equal(bits.length, 8 * CODEWORDS[qr.version] + remainder, `version ${qr.version}: the data area's modules`);
  const words = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) words.push(parseInt(bits.slice(i, i + 8).join(''), 2));
  return words.slice(0, CODEWORDS[qr.version]);
}

/** The blocks, de-interleaved: the data codewords round robin, then the EC codewords round robin. */
function blocks(qr) {
  const layout = blocksOf(qr.version, qr.level);
  const words = placedCodewords(qr);
  const out = layout.map(() => ({ data: [], ecc: [] }));
  let at = 0;
  const longest = Math.max(...layout.map((b) => b.data));
  for (let i = 0; i < longest; i++) layout.forEach((b, k) => { if (i < b.data) out[k].data.push(words[at++]); });
  for (let i = 0; i < layout[0].ecc; i++) layout.forEach((b, k) => out[k].ecc.push(words[at++]));
  assert.equal(at, CODEWORDS[qr.version], `version ${qr.version}-${qr.level}: the blocks hold every codeword`);
  return out;
}

/** The text of a symbol, read as a decoder would: byte mode, its count, the bytes as UTF-8; then
 *  the terminator, zero bits to the byte, and the pad codewords EC 11 alternately. */
function readBack(qr) {
  const stream = blocks(qr).flatMap((b) => b.data).map((w) => w.toString(2).padStart(8, '0')).join('');
  assert.equal(stream.slice(0, 4), '0100', 'byte mode');
  const countBits = qr.version <= 9 ? 8 : 16;
  const count = parseInt(stream.slice(4, 4 + countBits), 2);
  const bytes = [];
  for (let i = 0; i < count; i++) bytes.push(parseInt(stream.slice(4 + countBits + 8 * i, 12 + countBits + 8 * i), 2));
  let rest = stream.slice(4 + countBits + 8 * count);
  assert.match(rest.slice(0, 4), /^0{0,4}$/, 'the terminator');
  rest = rest.slice(Math.min(4, rest.length));
  const toByte = (8 - ((stream.length - rest.length) % 8)) % 8;
  assert.match(rest.slice(0, toByte), /^0*$/, 'zero bits to the byte');
  rest = rest.slice(toByte);
  for (let i = 0; i < rest.length / 8; i++) assert.equal(rest.slice(8 * i, 8 * i + 8), i % 2 === 0 ? '11101100' : '00010001', `pad codeword ${i}`);
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
}

test('each version 1..10 is the smallest that holds its text, at level M while it fits version 10, and reads back', () => {
  for (let version = 1; version <= MAX_VERSION; version++) {
    const text = textOf(CAPACITY.M[version]);
    const qr = encode(text);
    assert.equal(qr.level, 'M');
    assert.equal(qr.version, version, `${byteLength(text)} bytes fit version ${version}-M`);
    assert.equal(qr.size, 17 + 4 * version);
    assert.equal(qr.modules.length, qr.size * qr.size);
    assert.equal(readBack(qr), text, `version ${version}-M reads back`);
    if (version < MAX_VERSION) assert.equal(encode(textOf(CAPACITY.M[version] + 1)).version, version + 1, `one byte more than ${version}-M holds`);
  }
  assert.equal(readBack(encode('«été»')), '«été»');
});

test('level L once version 10-M is too small; a RangeError beyond version 10-L', () => {
  for (const bytes of [CAPACITY.M[10] + 1, CAPACITY.L[9], CAPACITY.L[9] + 1, CAPACITY.L[10]]) {
    const text = textOf(bytes);
    const qr = encode(text);
    assert.equal(qr.level, 'L', `${bytes} bytes`);
    assert.equal(qr.version, bytes <= CAPACITY.L[9] ? 9 : 10, `${bytes} bytes`);
    assert.equal(readBack(qr), text, `${bytes} bytes at ${qr.version}-L read back`);
  }
  // The length that counts is the UTF-8's: 107 é are 214 bytes.
  assert.equal(encode('é'.repeat(106)).level, 'M');
  assert.equal(encode('é'.repeat(107)).level, 'L');
  assert.throws(() => encode(textOf(CAPACITY.L[10] + 1)), RangeError);
  assert.throws(() => encode('é'.repeat(136)), RangeError);
});

test('the version bits of versions 7..10, in both blocks, are those of table D.1', () => {
  for (let version = 7; version <= 10; version++) {
    const qr = encode(textOf(CAPACITY.M[version]));
    assert.equal(qr.version, version);
    const n = qr.size;
    let topRight = 0;
    let bottomLeft = 0;
    for (let i = 0; i < 18; i++) {
      if (qr.dark(Math.floor(i / 3), n - 11 + (i % 3))) topRight |= 1 << i;
      if (qr.dark(n - 11 + (i % 3), Math.floor(i / 3))) bottomLeft |= 1 << i;
    }
    assert.equal(topRight, VERSION_BITS[version], `version ${version}, top right`);
    assert.equal(bottomLeft, VERSION_BITS[version], `version ${version}, bottom left`);
  }
});

test('the fixed patterns: three finders and their separators, the timing lines, the alignment patterns, the dark module', () => {
  for (let version = 1; version <= MAX_VERSION; version++) {
    const qr = encode(textOf(CAPACITY.M[version]));
    const n = qr.size;
    const finder = ['1111111', '1000001', '1011101', '1011101', '1011101', '1000001', '1111111'];
    for (const [top, left] of [[0, 0], [0, n - 7], [n - 7, 0]]) {
      for (let r = 0; r < 7; r++) {
        let row = '';
        for (let c = 0; c < 7; c++) row += qr.dark(top + r, left + c) ? '1' : '0';
        assert.equal(row, finder[r], `version ${version}: finder at ${top},${left}, row ${r}`);
      }
    }
    for (let i = 0; i < 8; i++) {
      for (const [r, c] of [[7, i], [i, 7], [7, n - 1 - i], [i, n - 8], [n - 8, i], [n - 1 - i, 7]]) {
        assert.equal(qr.dark(r, c), false, `version ${version}: separator module ${r},${c}`);
      }
    }
    for (let i = 8; i < n - 8; i++) {
      assert.equal(qr.dark(6, i), i % 2 === 0, `version ${version}: timing row, column ${i}`);
      assert.equal(qr.dark(i, 6), i % 2 === 0, `version ${version}: timing column, row ${i}`);
    }
    for (const [r, c] of alignmentCentres(version)) {
      for (let dr = -2; dr <= 2; dr++) {
        for (let dc = -2; dc <= 2; dc++) {
          const ring = Math.max(Math.abs(dr), Math.abs(dc));
          assert.equal(qr.dark(r + dr, c + dc), ring !== 1, `version ${version}: alignment pattern at ${r},${c}`);
        }
      }
    }
    assert.ok(qr.dark(n - 8, 8), `version ${version}: the dark module`);
  }
});

test('every block of every version is a Reed-Solomon codeword: its syndromes are zero', () => {
  const symbols = [];
  for (let version = 1; version <= MAX_VERSION; version++) symbols.push(encode(textOf(CAPACITY.M[version])));
  symbols.push(encode(textOf(CAPACITY.L[9])), encode(textOf(CAPACITY.L[10])));
  for (const qr of symbols) {
    for (const [k, block] of blocks(qr).entries()) {
      const word = [...block.data, ...block.ecc];
      for (let i = 0, alpha = 1; i < block.ecc.length; i++, alpha = gfMul(alpha, 2)) {
        // The codeword as a polynomial, first codeword highest, at α^i (Horner).
        const s = word.reduce((acc, c) => gfMul(acc, alpha) ^ c, 0);
        assert.equal(s, 0, `version ${qr.version}-${qr.level}, block ${k}: syndrome ${i}`);
      }
    }
  }
});

// zbarimg (Debian's zbar-tools), when installed: an independent decoder reads the symbols.
function zbarimg() {
  try { execFileSync('zbarimg', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
}

/** The symbol as a binary PGM, `scale` pixels a module, with a 4-module quiet zone. */
function pgm(qr, scale = 4) {
  const side = (qr.size + 8) * scale;
  const pixels = Buffer.alloc(side * side, 255);
  for (let r = 0; r < qr.size; r++) {
    for (let c = 0; c < qr.size; c++) {
      if (!qr.dark(r, c)) continue;
      for (let y = 0; y < scale; y++) pixels.fill(0, ((r + 4) * scale + y) * side + (c + 4) * scale, ((r + 4) * scale + y) * side + (c + 5) * scale);
    }
  }
  return Buffer.concat([Buffer.from(`P5 ${side} ${side} 255\n`), pixels]);
}

test('zbarimg decodes the symbols back to their text', { skip: zbarimg() ? false : 'zbarimg is not installed' }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-test-'));
  try {
    const texts = ['http://127.0.0.1:8080/#/room/k3x9abqz', 'https://quarto.example.org/#/room/%C3%A9t%C3%A9 «été»',
      textOf(CAPACITY.M[7]), textOf(CAPACITY.M[10]), textOf(CAPACITY.L[10])];
    for (const text of texts) {
      const qr = encode(text);
      const file = path.join(dir, `v${qr.version}-${qr.level}.pgm`);
      fs.writeFileSync(file, pgm(qr));
      const out = execFileSync('zbarimg', ['--quiet', '--nodbus', '--raw', '-Sbinary', file], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
      assert.equal(out.replace(/\n$/, ''), text, `version ${qr.version}-${qr.level}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
