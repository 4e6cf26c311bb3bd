// What a tab remembers across reloads, in localStorage: read and written so that a browser
// without it (private mode, storage turned off) goes on without remembering.

export function load(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

/** Stores `value`; null or undefined forgets the key. */
export function save(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* nothing to remember with */ }
}

/** A list kept as JSON; [] when there is none or it cannot be read. */
export function loadList(key) {
  try {
    const list = JSON.parse(load(key) || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export function saveList(key, list) {
  save(key, JSON.stringify([...list]));
}
