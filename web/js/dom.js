// A tiny DOM builder: h('button', {class: 'x', dataset: {action: 'go'}, onclick: fn}, 'Go').

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'dataset') for (const [dk, dv] of Object.entries(v)) { if (dv !== null && dv !== undefined) e.dataset[dk] = String(dv); }
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  append(e, children);
  return e;
}

function append(parent, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(parent, c);
    else if (c instanceof Node) parent.appendChild(c);
    else parent.appendChild(document.createTextNode(String(c)));
  }
}

/** A stable description of the focused element inside root, to focus it again after a redraw. */
export function focusKey(root) {
  const a = document.activeElement;
  if (!a || !root.contains(a)) return null;
  for (const attr of ['data-square', 'data-slot', 'data-action', 'data-role']) {
    if (!a.hasAttribute(attr)) continue;
    let key = `[${attr}="${CSS.escape(a.getAttribute(attr))}"]`;
    // Rows of a table repeat their actions: tell them apart by what they act on.
    for (const q of ['data-player', 'data-round', 'data-room']) {
      if (a.hasAttribute(q)) key += `[${q}="${CSS.escape(a.getAttribute(q))}"]`;
    }
    return key;
  }
  return null;
}

export function restoreFocus(root, key) {
  if (!key) return;
  const e = root.querySelector(key);
  if (e && typeof e.focus === 'function') e.focus({ preventScroll: true });
}
