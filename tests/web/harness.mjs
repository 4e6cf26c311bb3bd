// The browser tests' harness: starts a real quarto-server and Debian's headless Chromium driven by
// playwright-core, and offers the helpers the scenario files share. Every action goes through the
// page as a person would click, found by the data-role / data-action / data-square / data-piece hooks.
// A scenario file registers scenarios with `scenario(name, fn)` and ends with `await run()`:
//
//   QUARTO_SERVER=/path/to/quarto-server QUARTO_WEB_ROOT=/path/to/web E2E_OUT=/tmp/e2e node e2e.mjs
//
// Optional: CHROMIUM (default: Debian's chromium-headless-shell, else /usr/bin/chromium),
// E2E_ONLY=substring to run some scenarios.
// Needs `npm ci` here: playwright-core, and axe-core (injected into pages to check accessibility).
// Prints "N passed, N failed" last and exits non-zero when any scenario failed.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

export const SERVER = process.env.QUARTO_SERVER;
export const WEB_ROOT = process.env.QUARTO_WEB_ROOT;
export const OUT = path.resolve(process.env.E2E_OUT || 'e2e-out');
// The headless shell draws the same pages with about half the CPU of the full browser in its
// headless mode (bench/README.md, "Build time"): this test is most of make test's CPU.
export const CHROMIUM = process.env.CHROMIUM
  || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((f) => fs.existsSync(f)) || '/usr/bin/chromium';
// How long an opponent may be gone before the game can be claimed (--abandon-seconds).
export const ABANDON_SECONDS = 4;
export const ONLY = process.env.E2E_ONLY || '';
export const SCENARIO_TIMEOUT_MS = 45000;
// axe-core (a devDependency) checks pages for accessibility problems.
export let AXE_PATH = null;
try { AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js'); } catch { AXE_PATH = null; }
export const ACTION_TIMEOUT_MS = 20000;

// piece bits: 1 dark, 2 tall, 4 square, 8 hollow. These four share "dark" and nothing else
// that matters here; any row of them is a Quarto.
export const DARK = [1, 3, 5, 7];

// ---------------------------------------------------------------- server ----

export let server = null;

/** Starts the server (on a free port, or on `port` to come back where it was). */
export function startServer(port = 0) {
  return new Promise((resolve, reject) => {
    if (!SERVER || !fs.existsSync(SERVER)) return reject(new Error(`QUARTO_SERVER is not a file: ${SERVER}`));
    if (!WEB_ROOT || !fs.existsSync(path.join(WEB_ROOT, 'index.html'))) return reject(new Error(`QUARTO_WEB_ROOT has no index.html: ${WEB_ROOT}`));
    // A fresh archive for each run, kept beside the screenshots (and kept across a restart).
    const db = path.join(OUT, 'e2e.db');
    if (!port) for (const f of [db, `${db}-wal`, `${db}-shm`]) fs.rmSync(f, { force: true });
    const args = ['--host', '127.0.0.1', '--port', String(port), '--web-root', WEB_ROOT, '--log-level', 'info',
      '--rate-limit', '1000', '--rate-burst', '1000', '--abandon-seconds', String(ABANDON_SECONDS), '--db', db];
    const proc = spawn(SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    server = proc;
    const log = fs.createWriteStream(path.join(OUT, 'server.log'), { flags: port ? 'a' : 'w' });
    let buffered = '';
    let done = false;
    const timer = setTimeout(() => {
      if (!done) { done = true; reject(new Error(`server did not print "listening on" within 15 s; output:\n${buffered}`)); }
    }, 15000);
    const onData = (chunk) => {
      log.write(chunk);
      if (done) return;
      buffered += chunk.toString();
      const m = buffered.match(/listening on http:\/\/([^\s:/]+|\[[^\]]+\]):(\d+)/);
      if (m) {
        done = true;
        clearTimeout(timer);
        resolve({ host: m[1], port: Number(m[2]) });
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('error', (err) => { if (!done) { done = true; clearTimeout(timer); reject(err); } });
    proc.on('exit', (code, signal) => {
      log.end();
      if (!done) { done = true; clearTimeout(timer); reject(new Error(`server exited early (code ${code}, signal ${signal}):\n${buffered}`)); }
    });
  });
}

export async function stopServer() {
  const proc = server;
  server = null;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  try { process.kill(proc.pid, 'SIGTERM'); } catch { return; }
  const t = new Promise((r) => setTimeout(() => r('timeout'), 5000));
  if ((await Promise.race([exited, t])) === 'timeout') {
    console.error('server did not stop on SIGTERM within 5 s; killing it');
    try { process.kill(proc.pid, 'SIGKILL'); } catch { /* gone */ }
    await exited;
  }
}

process.on('exit', () => {
  if (server && server.exitCode === null) { try { process.kill(server.pid, 'SIGKILL'); } catch { /* gone */ } }
});
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (server && server.exitCode === null) { try { process.kill(server.pid, 'SIGKILL'); } catch { /* gone */ } }
    process.exit(130);
  });
}

// ---------------------------------------------------------------- browser helpers ----

export let browser = null;
export let base = '';
export const openContexts = new Set();

export async function newPage(label, viewport = { width: 1200, height: 900 }) {
  const context = await browser.newContext({ viewport });
  openContexts.add(context);
  // Notices and error messages remove themselves after 5 and 8 s: every one shown is recorded
  // as it appears, so that a test on a loaded machine cannot miss one (noticeShown).
  await context.addInitScript(() => {
    window.__shownNotices = [];
    new MutationObserver((mutations) => {
      for (const m of mutations) {
        for (const node of m.addedNodes) {
          if (node.nodeType !== Node.ELEMENT_NODE) continue;
          for (const e of [node, ...node.querySelectorAll('[data-role]')]) {
            const role = e.dataset.role;
            if (role === 'notice' || role === 'error') {
              const where = e.closest('[data-role="game"]') ? 'game' : e.closest('#notices') ? 'notices' : 'page';
              window.__shownNotices.push({ role, text: e.textContent, where });
            }
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  page.setDefaultTimeout(ACTION_TIMEOUT_MS);
  page.label = label;
  page.errors = [];
  page.expectedErrors = []; // console errors a scenario provokes on purpose (regular expressions)
  page.on('pageerror', (err) => page.errors.push(`${label}: page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error' || page.expectedErrors.some((re) => re.test(msg.text()))) return;
    page.errors.push(`${label}: console error: ${msg.text()}`);
  });
  return page;
}

/** Waits until `page` has shown a notice (role 'notice' or 'error') whose text matches `re`
 * since it was last loaded, even one already gone; returns its text. */
export async function noticeShown(page, role, re, timeout = ACTION_TIMEOUT_MS) {
  try {
    const handle = await page.waitForFunction(([r, source, flags]) => {
      const found = (window.__shownNotices || []).find((n) => n.role === r && new RegExp(source, flags).test(n.text));
      return found ? found.text : false;
    }, [role, re.source, re.flags], { timeout });
    return await handle.jsonValue();
  } catch (err) {
    const shown = await page.evaluate(() => window.__shownNotices).catch(() => null);
    throw new Error(`${page.label}: no ${role} matching ${re} within ${timeout} ms; shown: ${JSON.stringify(shown)}`);
  }
}

export async function closeContexts() {
  for (const c of openContexts) await c.close().catch(() => {});
  openContexts.clear();
}

/** Opens the client and enters a name; ends in the lobby. */
export async function enter(page, name) {
  await page.goto(`${base}/`);
  const input = page.locator('[data-role="name"]');
  await input.fill(name);
  await input.press('Enter');
  await page.locator('[data-action="create-room"]').waitFor();
}

/** Unfolds the create form's More options (the fields behind the presets), if folded. */
export async function moreOptions(page) {
  if (!(await page.locator('[data-role="more-options"]').evaluate((d) => d.open))) {
    await page.locator('[data-action="more-options"]').click();
  }
}

/** Creates a room from the lobby form; returns its id (from the address). */
export async function createRoom(page, { moveSeconds = '60', claimSeconds = null } = {}) {
  await moreOptions(page);
  await page.locator('[data-role="move-seconds"]').fill(moveSeconds);
  if (claimSeconds !== null) await page.locator('[data-role="claim-seconds"]').fill(claimSeconds);
  await page.locator('[data-action="create-room"]').click();
  await page.waitForURL(/#\/room\/[^/]+$/);
  await page.locator('[data-role="game"]').waitFor();
  const url = page.url();
  return decodeURIComponent(url.slice(url.indexOf('#/room/') + 7));
}

export async function openRoom(page, id) {
  await page.evaluate((h) => { window.location.hash = h; }, `#/room/${encodeURIComponent(id)}`);
}

export async function joinAsPlayer(page, id) {
  await openRoom(page, id);
  await page.locator('[data-action="join-player"]').click();
  await page.locator('[data-role="game"][data-you]:not([data-you=""])').waitFor();
}

export async function watch(page, id) {
  await openRoom(page, id);
  await page.locator('[data-action="watch"]').click();
  await page.locator('[data-role="game"]').waitFor();
}

export async function gameData(page) {
  return page.locator('[data-role="game"]').evaluate((e) => ({ ...e.dataset }));
}

export async function waitGame(page, pred, what, arg = null) {
  try {
    await page.waitForFunction(pred, arg, { timeout: ACTION_TIMEOUT_MS });
  } catch (err) {
    const d = await gameData(page).catch(() => null);
    throw new Error(`${page.label}: timed out waiting for ${what}; game state ${JSON.stringify(d)}`);
  }
}

/** Waits for a two-player game to start; returns {first, second} pages (the coin flip's order). */
export async function started(a, b) {
  for (const p of [a, b]) {
    await waitGame(p, () => document.querySelector('[data-role="game"]')?.dataset.status === 'playing', 'the game to start');
  }
  const da = await gameData(a);
  const db = await gameData(b);
  assert(da.you !== db.you && da.you !== '' && db.you !== '', `seats differ: ${da.you} / ${db.you}`);
  assert(da.turn === db.turn, `both see the same first player: ${da.turn} / ${db.turn}`);
  return da.turn === da.you ? { first: a, second: b } : { first: b, second: a };
}

/** Gives a piece and waits until the server's answer shows on the giver's own page. */
export async function give(page, piece) {
  const btn = page.locator(`[data-role="available"] [data-piece="${piece}"]`);
  await btn.click();
  await btn.waitFor({ state: 'detached' });
}

/** Places the piece in hand and waits until the server's answer shows on the placer's page. */
export async function place(page, square) {
  await page.locator(`[data-square="${square}"]`).click();
  await page.locator(`[data-square="${square}"][data-piece]`).waitFor();
}

export async function callQuarto(page, line) {
  await page.locator('[data-action="quarto"]').click();
  for (const sq of line) await page.locator(`[data-square="${sq}"]`).click();
}

/** Resigns: Resign asks first, in place; the resignation is its confirmation. */
export async function resign(page) {
  await page.locator('[data-action="resign"]').click();
  await page.locator('[data-action="confirm-resign"]').click();
}

export async function board(page) {
  return page.locator('[data-square]').evaluateAll((els) => {
    const b = new Array(16).fill(null);
    for (const e of els) b[Number(e.dataset.square)] = e.dataset.piece === undefined ? null : Number(e.dataset.piece);
    return b;
  });
}

export async function seq(page) {
  return Number((await gameData(page)).seq);
}

/** Waits until `page` has applied at least as many events as `ref`. */
export async function caughtUp(page, ref) {
  const target = await seq(ref);
  await waitGame(page, (n) => Number(document.querySelector('[data-role="game"]')?.dataset.seq) >= n, `seq ${target}`, target).catch(async () => {
    throw new Error(`${page.label} did not reach seq ${target}`);
  });
}

export function clockMs(text) {
  const t = text.trim();
  let m = t.match(/^(\d+(?:\.\d+)?)\s*s$/);
  if (m) return Number(m[1]) * 1000;
  m = t.match(/^(?:(\d+):)?(\d+):(\d{2})$/);
  if (m) return ((Number(m[1] || 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000;
  return NaN;
}

export async function clocks(page) {
  return page.locator('[data-role="clock"]').evaluateAll((els) => els.map((e) => [Number(e.dataset.seat), e.textContent]));
}

export async function resultOf(page) {
  const r = page.locator('[data-role="result"]');
  await r.waitFor();
  return { text: (await r.textContent()).trim(), reason: await r.getAttribute('data-reason') };
}

export async function highlighted(page) {
  return page.locator('[data-square].win').evaluateAll((els) => els.map((e) => Number(e.dataset.square)).sort((x, y) => x - y));
}

export function assert(cond, message) {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

export function assertEqual(actual, expected, message) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${message}: expected ${e}, got ${a}`);
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true });
}

/** Runs axe-core on the page as it is (in the colour scheme it is emulating): no violation. */
export async function axeClean(page, what) {
  if (!AXE_PATH) throw new Error('axe-core is not installed: run "npm ci" in tests/web');
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 6).map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`) }));
  });
  return violations.length ? [`${page.label}, ${what}: ${violations.length} axe violation(s):\n${JSON.stringify(violations, null, 2)}`] : [];
}

/** axe in the light theme, then in the dark one (the system setting), with a screenshot of each;
 *  returns what it found, to be reported together at the end of the scenario. */
export async function axeBothThemes(page, what, name) {
  const found = [];
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(50);
    await shot(page, `${name}-${scheme}`);
    // The page follows the system's setting: a dark background in the dark scheme.
    const rgb = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor.match(/\d+/g).slice(0, 3).map(Number));
    const dark = rgb.reduce((a, b) => a + b, 0) < 3 * 80;
    if (dark !== (scheme === 'dark')) found.push(`${page.label}, ${what}: the ${scheme} scheme has the background rgb(${rgb})`);
    found.push(...await axeClean(page, `${what} (${scheme})`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** Plays the opening that fills row 0 with the four dark pieces; the first player places last. */
export async function fillRowZero(first, second) {
  await give(first, DARK[0]);
  await place(second, 0);
  await give(second, DARK[1]);
  await place(first, 1);
  await give(first, DARK[2]);
  await place(second, 2);
  await give(second, DARK[3]);
  await place(first, 3);
  await waitGame(first, () => {
    const d = document.querySelector('[data-role="game"]')?.dataset;
    return d && d.phase === 'give' && d.turn === d.you;
  }, 'the first player to be giving after the 4th placement');
}

/** The replay view is at `step`. */
export async function replayAt(page, step) {
  await page.locator(`[data-role="replay"][data-state="ready"][data-replay-step="${step}"]`).waitFor();
}

/**
 * Ana and Ari play, on pages of `viewport`, the game the analysis tests read: row 0 gets the dark
 * 1, 3, 5; the second player then gives the dark 7, which wins on square 3 (move 7: a loss); the
 * first places it on square 8 instead and gives the dark 9 (move 9: a win thrown away), which the
 * second places on square 3 and calls. 11 moves. Returns {first, second} (the coin flip's order).
 */
export async function playAnalysedGame(viewport = undefined) {
  const [ana, ari] = await Promise.all([newPage('Ana', viewport), newPage('Ari', viewport)]);
  await Promise.all([enter(ana, 'Ana'), enter(ari, 'Ari')]);
  const id = await createRoom(ana);
  await joinAsPlayer(ari, id);
  const { first, second } = await started(ana, ari);
  await give(first, 1);
  await place(second, 0);
  await give(second, 3);
  await place(first, 1);
  await give(first, 5);
  await place(second, 2);
  await give(second, 7);
  await place(first, 8);
  await give(first, 9);
  await place(second, 3);
  await callQuarto(second, [0, 1, 2, 3]);
  assertEqual((await resultOf(second)).reason, 'quarto', 'the second player won');
  return { first, second };
}

// ---------------------------------------------------------------- tournament helpers ----

/**
 * Creates a tournament from the lobby's form (opened if it is folded); ends on its page; returns
 * its id. Rounds follow each other at once (`pause` 0) unless a scenario is about the pause
 * between them. `rated`: checks Rated (an account's, with rated rules and a clock).
 */
export async function createTournament(page, { name, format = 'round_robin', rounds = '', games = '1', moveSeconds = '60', claimSeconds = null, pause = '0', rated = false }) {
  const open = page.locator('[data-action="show-tournament-form"]');
  if (!(await open.evaluate((summary) => summary.parentElement.open))) await open.click();
  await page.locator('[data-role="tournament-name"]').fill(name);
  await page.locator('[data-role="tournament-format"]').selectOption(format);
  if (format === 'swiss') await page.locator('[data-role="tournament-rounds"]').fill(rounds);
  await page.locator('[data-role="tournament-games"]').selectOption(games);
  await page.locator('[data-role="tournament-move-seconds"]').fill(moveSeconds);
  if (claimSeconds !== null) await page.locator('[data-role="tournament-claim-seconds"]').fill(claimSeconds);
  await page.locator('[data-role="round-pause"]').fill(pause);
  if (rated) await page.locator('[data-role="tournament-rated"]').check();
  await page.locator('[data-action="create-tournament"]').click();
  await page.waitForURL(/#\/tournament\/[^/]+$/);
  await page.locator('[data-role="tournament"][data-status="registering"]').waitFor();
  const url = page.url();
  return decodeURIComponent(url.slice(url.indexOf('#/tournament/') + 13));
}

/** From the lobby: open the tournament's row and register. */
export async function joinTournament(page, id) {
  await page.locator(`[data-role="tournament-row"][data-tournament-id="${id}"] [data-action="open-tournament"]`).click();
  await page.locator('[data-action="join-tournament"]:not([disabled])').click();
  await page.locator('[data-action="withdraw-tournament"]').waitFor();
}

export async function openTournament(page, id) {
  await page.evaluate((h) => { window.location.hash = h; }, `#/tournament/${encodeURIComponent(id)}`);
  await page.locator('[data-role="tournament"]:not([data-seq=""])').waitFor();
}

export async function playerId(page) {
  return page.evaluate(() => window.quarto.me.id);
}

/** The round's board with a game on `page`'s tournament page: {room, players: [id, id]}. */
export async function boardOf(page, round) {
  const row = page.locator(`[data-role="round-boards"][data-round="${round}"] [data-role="pairing-row"][data-room]`);
  await row.waitFor();
  return { room: await row.getAttribute('data-room'), players: (await row.getAttribute('data-players')).split(' ') };
}

/** Waits until `page` has been taken to `room` and its game is on. */
export async function takenTo(page, room) {
  await page.waitForURL((u) => u.hash === `#/room/${encodeURIComponent(room)}`);
  await waitGame(page, (r) => {
    const d = document.querySelector('[data-role="game"]')?.dataset;
    return d && d.room === r && d.status === 'playing';
  }, `the game in room ${room}`, room);
}

export async function standingsRows(page) {
  return page.locator('[data-role="standings-row"]').evaluateAll((els) => els.map((e) => ({
    player: e.dataset.player, rank: Number(e.dataset.rank), points: Number(e.dataset.points),
    sb: Number(e.dataset.sb),
  })));
}

// ---------------------------------------------------------------- scenarios ----

const scenarios = [];
/** Registers a scenario; `run()` runs them in order, each with fresh pages, and reports. */
export const scenario = (name, fn, { timeoutMs = SCENARIO_TIMEOUT_MS } = {}) => scenarios.push({ name, fn, timeoutMs });

// ---------------------------------------------------------------- runner ----

export async function run() {
  fs.mkdirSync(OUT, { recursive: true });
  for (const f of fs.readdirSync(OUT)) if (/^fail-.*\.png$/.test(f)) fs.rmSync(path.join(OUT, f));
  let passed = 0;
  let failed = 0;
  const t0 = Date.now();
  try {
    const { port } = await startServer();
    base = `http://127.0.0.1:${port}`;
    console.log(`server: ${base}`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
    for (const s of scenarios) {
      if (ONLY && !s.name.includes(ONLY)) continue;
      const st = Date.now();
      let timer;
      try {
        await Promise.race([
          s.fn(),
          new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`timed out after ${s.timeoutMs} ms`)), s.timeoutMs); }),
        ]);
        const errors = [];
        for (const c of openContexts) for (const p of c.pages()) errors.push(...(p.errors || []));
        if (errors.length) throw new Error(`errors in the pages:\n  ${errors.join('\n  ')}`);
        passed++;
        console.log(`ok   - ${s.name} (${Date.now() - st} ms)`);
      } catch (err) {
        failed++;
        console.log(`FAIL - ${s.name} (${Date.now() - st} ms)\n       ${String(err && err.stack || err).split('\n').join('\n       ')}`);
        let i = 0;
        for (const c of openContexts) {
          for (const p of c.pages()) {
            const name = `fail-${scenarios.indexOf(s) + 1}-${p.label || i}-${i++}`;
            await p.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true }).catch(() => {});
            // Where each page stood, in the output itself: a loop's next run overwrites the files.
            const game = await p.locator('[data-role="game"]').first().evaluate((e) => ({ ...e.dataset }), null, { timeout: 1000 }).catch(() => null);
            // Every notice and error the page showed, those already gone too (a refusal's lasts 8 s).
            const notices = await p.evaluate(() => window.__shownNotices).catch(() => null);
            console.log(`       ${p.label}: ${p.url()} game ${JSON.stringify(game)} notices ${JSON.stringify(notices)}`);
          }
        }
        try {
          const lines = fs.readFileSync(path.join(OUT, 'server.log'), 'utf8').trimEnd().split('\n');
          console.log(`       the server's last log lines:\n         ${lines.slice(-25).join('\n         ')}`);
        } catch { /* no log yet */ }
      } finally {
        clearTimeout(timer);
        await closeContexts();
      }
    }
  } catch (err) {
    failed++;
    console.log(`FAIL - setup: ${err && err.stack || err}`);
  } finally {
    await closeContexts();
    if (browser) await browser.close().catch(() => {});
    await stopServer();
  }
  console.log(`(${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots and server.log in ${OUT})`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}
