// The QR code library (qr.js says which and why), loaded when the first invitation is shown
// rather than by index.html: most visits show none, and the file is 57 KB. The server serves
// Debian's /usr/share/javascript at /javascript/ (as Debian's javascript-common does), beside
// the client's own files, which are under a versioned prefix; hence the absolute path.

export const QR_LIBRARY_URL = '/javascript/qrcode-generator/qrcode.js';

let loading = null;

/** A Promise of the library's `qrcode` function, one <script> for the page; rejected when the
 *  script does not load (the server has no node-qrcode-generator: a 404). */
export function loadQrLibrary() {
  loading ??= new Promise((resolve, reject) => {
    if (typeof globalThis.qrcode === 'function') { resolve(globalThis.qrcode); return; }
    const script = document.createElement('script');
    script.src = QR_LIBRARY_URL;
    script.async = true;
    script.onload = () => {
      if (typeof globalThis.qrcode === 'function') resolve(globalThis.qrcode);
      else reject(new Error(`${QR_LIBRARY_URL} did not define qrcode`));
    };
    script.onerror = () => reject(new Error(`${QR_LIBRARY_URL} did not load`));
    document.head.appendChild(script);
  });
  return loading;
}
