// Loads pages.css, the style of the account, profile and leaderboard pages, once: the modules of
// those pages import this one, whose top-level await holds them until the sheet is in, so that
// no page is drawn unstyled. (Resolved from this module's own address, which carries the web
// root's version.)

if (typeof document !== 'undefined' && !document.querySelector('link[data-role="pages-style"]')) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('../pages.css', import.meta.url).href;
  link.dataset.role = 'pages-style';
  await new Promise((resolve) => {
    link.onload = resolve;
    link.onerror = resolve; // drawn plainly rather than not at all
    document.head.append(link);
  });
}
