// A name in a box too small for it is shortened between words ("Maximiliane Orlowska…"), never
// in the middle of one as CSS's own ellipsis does; its title keeps the whole name. The box sets
// how much shows (a line, or two with -webkit-line-clamp) and must not break words itself.
// A first word too long for the box is tried in a smaller font ('.tight') before it is broken
// ('.break').

/** Fits `el`'s text (`full`) to its box. */
export function fitWords(el, full) {
  el.title = full;
  el.classList.remove('tight', 'break');
  if (shorten(el, full)) return;
  el.classList.add('tight');
  if (shorten(el, full)) return;
  el.textContent = full;
  el.classList.add('break');
}

/** The longest start of `full`, in whole words, that fits (with "…" when cut); false if none. */
function shorten(el, full) {
  el.textContent = full;
  if (!overflows(el)) return true;
  const words = full.split(/(?<=[\s-])/); // each word keeps the space or hyphen after it
  for (let n = words.length - 1; n >= 1; n--) {
    el.textContent = `${words.slice(0, n).join('').replace(/[\s-]+$/, '')}…`;
    if (!overflows(el)) return true;
  }
  return false;
}

function overflows(el) {
  return el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
}
