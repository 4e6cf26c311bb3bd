// The QR encoder (web/js/qr.js) against numbers taken from the specification (ISO/IEC 18004)
// rather than from the encoder: the format and version bit tables, the Reed-Solomon generator
// polynomials, the worked example "01234567" (version 1-M), a byte-mode message worked out by
// hand, and the structure every symbol must have. When zbarimg is installed, symbols are also
// decoded back to their text by it.
//
//   node tests/web/qr.test.mjs        (no npm packages needed; ctest runs it as web_qr)

import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  encodeQr, rsEcc, rsGenerator, formatBits, versionBits, dataCodewords, gfMul, sizeOf, blockLayout, penalty, MAX_VERSION,
} from '../../web/js/qr.js';

const hex = (list) => list.map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
const bytesOf = (text) => text.trim().split(/\s+/).map((x) => parseInt(x, 16));

// α^i in GF(256) mod 0x11D, computed here by repeated doubling (not with the encoder's tables).
function alphaLog(value) {
  for (let i = 0, x = 1; i < 255; i++) {
    if (x === value) return i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  return null;
}

test('the format bits of every mask at levels L and M are those of the specification (table C.1)', () => {
  const table = {
    L: ['111011111000100', '111001011110011', '111110110101010', '111100010011101',
      '110011000101111', '110001100011000', '110110001000001', '110100101110110'],
    M: ['101010000010010', '101000100100101', '101111001111100', '101101101001011',
      '100010111111001', '100000011001110', '100111110010111', '100101010100000'],
  };
  for (const level of ['L', 'M']) {
    for (let mask = 0; mask < 8; mask++) {
      assert.equal(formatBits(level, mask).toString(2).padStart(15, '0'), table[level][mask], `level ${level}, mask ${mask}`);
    }
  }
});

test('the version bits of versions 7 to 10 are those of the specification (table D.1)', () => {
  assert.deepEqual([7, 8, 9, 10].map(versionBits), [0x07c94, 0x085bc, 0x09a99, 0x0a4d3]);
});

test('the generator polynomials of 7 and 10 ECC codewords have the exponents of annex A', () => {
  assert.deepEqual(rsGenerator(7).map(alphaLog), [0, 87, 229, 146, 149, 238, 102, 21]);
  assert.deepEqual(rsGenerator(10).map(alphaLog), [0, 251, 67, 46, 61, 118, 70, 64, 94, 32, 45]);
  assert.equal(gfMul(0x80, 2), 0x1d, 'x^8 reduces to x^4 + x^3 + x^2 + 1');
});

test('the worked example "01234567" at version 1-M: its data codewords and their ECC (annex I)', () => {
  // Numeric mode, done here by hand as the annex does: 0001, the count 8 in 10 bits, then
  // 012 345 in 10 bits each and 67 in 7, the terminator, zero bits to the byte, EC 11 pads.
  const bits = '0001' + '0000001000' + '0000001100' + '0101011001' + '1000011' + '0000';
  const padded = bits.padEnd(Math.ceil(bits.length / 8) * 8, '0');
  const data = padded.match(/.{8}/g).map((b) => parseInt(b, 2));
  while (data.length < 16) data.push(data.length % 2 === 0 ? 0xec : 0x11);
  assert.equal(hex(data), '10 20 0C 56 61 80 EC 11 EC 11 EC 11 EC 11 EC 11');
  assert.equal(hex(rsEcc(data, 10)), 'A5 24 D4 C1 ED 36 C7 87 2C 55');
});

test('byte mode: "A" at version 1-M is 0100, the count 00000001, 01000001, the terminator, then pads', () => {
  // 0100 00000001 01000001 0000 = 40 14 10, then EC 11 ... up to the 16 data codewords of 1-M.
  assert.equal(hex(dataCodewords(new TextEncoder().encode('A'), 1, 'M')), '40 14 10 EC 11 EC 11 EC 11 EC 11 EC 11 EC 11 EC');
  // Version 10 counts bytes in 16 bits: 0100, 0000000000000001, 01000001, 0000 -> 40 00 14 10.
  assert.equal(hex(dataCodewords(new TextEncoder().encode('A'), 10, 'M').slice(0, 5)), '40 00 14 10 EC');
});

test('every block of a symbol is a Reed-Solomon codeword: its syndromes are zero', () => {
  for (const n of [1, 30, 60, 120, 180, 213]) {
    const qr = encodeQr('h'.repeat(n));
    const layout = blockLayout(qr.version, qr.level);
    // De-interleave the placed codewords back into blocks (data round robin, then ECC).
    const blocks = layout.map(() => []);
    let at = 0;
    const longest = Math.max(...layout.map((b) => b.data));
    for (let i = 0; i < longest; i++) layout.forEach((b, k) => { if (i < b.data) blocks[k].push(qr.codewords[at++]); });
    for (let i = 0; i < layout[0].ecc; i++) layout.forEach((b, k) => blocks[k].push(qr.codewords[at++]));
    assert.equal(at, qr.codewords.length);
    for (const block of blocks) {
      for (let i = 0; i < layout[0].ecc; i++) {
        // The block as a polynomial (first codeword highest) evaluated at α^i, by Horner.
        let ai = 1;
        for (let k = 0; k < i; k++) ai = gfMul(ai, 2);
        const s = block.reduce((acc, c) => gfMul(acc, ai) ^ c, 0);
        assert.equal(s, 0, `${n} bytes, version ${qr.version}-${qr.level}: syndrome ${i}`);
      }
    }
  }
});

/** Reads the symbol as a decoder would: format bits (both copies), unmask, zigzag, de-interleave,
 *  byte mode. Written apart from the encoder, from the layout of the specification. */
function readBack(qr) {
  const n = qr.size;
  const d = (r, c) => qr.modules[r * n + c] === 1;
  let f1 = 0;
  let f2 = 0;
  const first = [[0, 8], [1, 8], [2, 8], [3, 8], [4, 8], [5, 8], [7, 8], [8, 8], [8, 7], [8, 5], [8, 4], [8, 3], [8, 2], [8, 1], [8, 0]];
  first.forEach(([r, c], i) => { if (d(r, c)) f1 |= 1 << i; });
  for (let i = 0; i < 8; i++) if (d(8, n - 1 - i)) f2 |= 1 << i;
  for (let i = 8; i < 15; i++) if (d(n - 15 + i, 8)) f2 |= 1 << i;
  assert.equal(f1, f2, 'both copies of the format bits agree');
  const format = f1 ^ 0x5412;
  const level = { 1: 'L', 0: 'M' }[format >> 13];
  const mask = (format >> 10) & 7;
  assert.equal(level, qr.level);
  assert.equal(mask, qr.mask);
  // Which modules are function patterns, from the specification's picture of the symbol.
  const fn = new Set();
  const mark = (r, c) => fn.add(r * n + c);
  for (let r = 0; r < 9; r++) for (let c = 0; c < 9; c++) mark(r, c);
  for (let r = 0; r < 9; r++) for (let c = n - 8; c < n; c++) mark(r, c);
  for (let r = n - 8; r < n; r++) for (let c = 0; c < 9; c++) mark(r, c);
  for (let i = 0; i < n; i++) { mark(6, i); mark(i, 6); }
  const centres = { 1: [], 2: [6, 18], 3: [6, 22], 4: [6, 26], 5: [6, 30], 6: [6, 34], 7: [6, 22, 38], 8: [6, 24, 42], 9: [6, 26, 46], 10: [6, 28, 50] }[qr.version];
  for (const r of centres) {
    for (const c of centres) {
      if ((r === 6 && c === 6) || (r === 6 && c === centres.at(-1)) || (r === centres.at(-1) && c === 6)) continue;
      for (let dr = -2; dr <= 2; dr++) for (let dc = -2; dc <= 2; dc++) mark(r + dr, c + dc);
    }
  }
  if (qr.version >= 7) for (let a = 0; a < 6; a++) for (let b = n - 11; b < n - 8; b++) { mark(a, b); mark(b, a); }
  const masks = [(r, c) => (r + c) % 2 === 0, (r) => r % 2 === 0, (r, c) => c % 3 === 0, (r, c) => (r + c) % 3 === 0,
    (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0, (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
    (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0, (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0];
  const bits = [];
  let up = true;
  for (let right = n - 1; right > 0; right -= 2) {
    if (right === 6) right--;
    for (let k = 0; k < n; k++) {
      const r = up ? n - 1 - k : k;
      for (const c of [right, right - 1]) if (!fn.has(r * n + c)) bits.push(d(r, c) !== masks[mask](r, c) ? 1 : 0);
    }
    up = !up;
  }
  const words = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) words.push(parseInt(bits.slice(i, i + 8).join(''), 2));
  const layout = blockLayout(qr.version, level);
  const data = layout.map(() => []);
  let at = 0;
  for (let i = 0; i < Math.max(...layout.map((b) => b.data)); i++) layout.forEach((b, k) => { if (i < b.data) data[k].push(words[at++]); });
  const stream = data.flat().map((w) => w.toString(2).padStart(8, '0')).join('');
  assert.equal(stream.slice(0, 4), '0100', 'byte mode');
  const countBits = qr.version <= 9 ? 8 : 16;
  const count = parseInt(stream.slice(4, 4 + countBits), 2);
  const out = [];
  for (let i = 0; i < count; i++) out.push(parseInt(stream.slice(4 + countBits + 8 * i, 12 + countBits + 8 * i), 2));
  return new TextDecoder().decode(Uint8Array.from(out));
}

test('every version 1..10 is 17 + 4v modules wide and reads back to its text', () => {
  let version = 0;
  for (let n = 1; n <= 213; n++) {
    const text = `https://q.example/#/room/${'k'.repeat(n)}`.slice(0, n);
    const qr = encodeQr(text);
    if (qr.version === version) continue; // one text per version is enough
    version = qr.version;
    assert.equal(qr.size, sizeOf(qr.version));
    assert.equal(qr.size, 17 + 4 * qr.version);
    assert.equal(qr.modules.length, qr.size * qr.size);
    // The data area holds every codeword, plus the remainder bits: 7 in versions 2..6, else 0.
    const remainder = qr.version >= 2 && qr.version <= 6 ? 7 : 0;
    assert.equal(qr.dataModules, 8 * qr.codewords.length + remainder, `version ${qr.version}: data modules`);
    assert.equal(readBack(qr), text, `version ${qr.version}`);
  }
  assert.equal(version, MAX_VERSION, 'the lengths went through every version');
});

test('the fixed patterns: three finders, the timing lines, the dark module, the version blocks', () => {
  const qr = encodeQr(`http://127.0.0.1:41234/#/room/${'x'.repeat(120)}`);
  assert.ok(qr.version >= 7, 'a version with version blocks');
  const n = qr.size;
  const finder = ['1111111', '1000001', '1011101', '1011101', '1011101', '1000001', '1111111'];
  for (const [top, left] of [[0, 0], [0, n - 7], [n - 7, 0]]) {
    for (let r = 0; r < 7; r++) {
      let row = '';
      for (let c = 0; c < 7; c++) row += qr.dark(top + r, left + c) ? '1' : '0';
      assert.equal(row, finder[r], `finder at ${top},${left}, row ${r}`);
    }
  }
  for (let i = 8; i < n - 8; i++) {
    assert.equal(qr.dark(6, i), i % 2 === 0, `timing row, column ${i}`);
    assert.equal(qr.dark(i, 6), i % 2 === 0, `timing column, row ${i}`);
  }
  assert.ok(qr.dark(n - 8, 8), 'the dark module');
  let top = 0;
  let bottom = 0;
  for (let i = 0; i < 18; i++) {
    if (qr.dark(Math.floor(i / 3), n - 11 + (i % 3))) top |= 1 << i;
    if (qr.dark(n - 11 + (i % 3), Math.floor(i / 3))) bottom |= 1 << i;
  }
  assert.equal(top, versionBits(qr.version));
  assert.equal(bottom, versionBits(qr.version));
});

test('a forced mask is used; without one, the chosen mask has the lowest penalty; too long is refused', () => {
  for (let mask = 0; mask < 8; mask++) assert.equal(encodeQr('mask test', { mask }).mask, mask);
  for (const text of ['http://127.0.0.1:8080/#/room/k3x9abqz', 'q'.repeat(100)]) {
    const chosen = encodeQr(text);
    const score = (qr) => penalty(qr.size, qr.dark);
    for (let mask = 0; mask < 8; mask++) assert.ok(score(chosen) <= score(encodeQr(text, { mask })), `mask ${chosen.mask} against ${mask}`);
  }
  assert.throws(() => encodeQr('z'.repeat(272)), RangeError);
  assert.equal(encodeQr('z'.repeat(250)).level, 'L', 'too long for 10-M: level L');
});

// zbarimg (Debian's zbar-tools), when installed: an independent decoder reads our symbols.
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
      `https://quarto.example.org/#/room/${'m'.repeat(150)}`, 'y'.repeat(200), 'w'.repeat(260)];
    for (const text of texts) {
      for (const mask of [null, 0, 5]) {
        const qr = encodeQr(text, { mask });
        const file = path.join(dir, `v${qr.version}-${qr.level}-${qr.mask}.pgm`);
        fs.writeFileSync(file, pgm(qr));
        const out = execFileSync('zbarimg', ['--quiet', '--nodbus', '--raw', '-Sbinary', file], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
        assert.equal(out.replace(/\n$/, ''), text, `version ${qr.version}-${qr.level}, mask ${qr.mask}`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
