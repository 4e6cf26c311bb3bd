// A room's link as a QR code symbol, made by kazuhikoarase's qrcode-generator: Debian 12
// packages it (node-qrcode-generator, which Provides libjs-qrcode-generator), so the encoder is
// a maintained library with security updates rather than code of ours, and the server serves
// Debian's /usr/share/javascript at /javascript/ (qr-library.js loads it there). This file only
// chooses how to call it, with no DOM, so it runs in the browser and under Node, where
// tests/web/qr.test.mjs reads its symbols back against the specification (ISO/IEC 18004).
//
// The text goes in as UTF-8 bytes, in byte mode, at level M (or L when M cannot hold it) in
// the smallest version that holds it, up to version 10: 57 modules are as many as a phone
// reads from the panel's 148 pixels.

export const MAX_VERSION = 10;
/** The most bytes version 10 holds in byte mode, per level (table 7 of the specification). */
const CAPACITY = { M: 213, L: 271 };

/**
 * The symbol of `text`, made by `qrcode` (the library's function, the global `qrcode` of its
 * script): { size, version, level, dark(r, c), modules }, `modules` row by row, 1 for dark.
 * A RangeError when even version 10-L cannot hold the text.
 */
export function encodeQr(qrcode, text) {
  const bytes = new TextEncoder().encode(text);
  const level = bytes.length <= CAPACITY.M ? 'M' : bytes.length <= CAPACITY.L ? 'L' : null;
  if (level === null) throw new RangeError(`${bytes.length} bytes: more than a version ${MAX_VERSION} QR code holds`);
  const code = qrcode(0, level); // version 0: the smallest that holds the data
  // The library maps a string to bytes by its global qrcode.stringToBytes, Latin-1 by default
  // (each char's code & 0xFF): one char per byte of the UTF-8 goes through unchanged.
  code.addData(String.fromCharCode(...bytes), 'Byte');
  code.make();
  const size = code.getModuleCount();
  const version = (size - 17) / 4;
  if (version > MAX_VERSION) throw new RangeError(`version ${version}: larger than version ${MAX_VERSION}`);
  const modules = new Uint8Array(size * size);
  for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) modules[r * size + c] = code.isDark(r, c) ? 1 : 0;
  return { size, version, level, modules, dark: (r, c) => modules[r * size + c] === 1 };
}
