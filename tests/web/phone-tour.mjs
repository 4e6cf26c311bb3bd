// A walk through the whole client on a 390×844 phone, light and dark, saving a screenshot of
// each screen for a person to look at (not a test: it asserts nothing but that the steps work).
//   QUARTO_BASE=http://127.0.0.1:PORT TOUR_OUT=/tmp/tour node phone-tour.mjs
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const BASE = process.env.QUARTO_BASE;
const OUT = process.env.TOUR_OUT || '/tmp/tour';
const phone = { width: 390, height: 844 };
const CHROMIUM = process.env.CHROMIUM
  || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((f) => fs.existsSync(f)) || '/usr/bin/chromium';
const browser = await chromium.launch({ executablePath: CHROMIUM });
let n = 0;
async function shot(page, name, full = false) {
  n += 1;
  await page.screenshot({ path: path.join(OUT, `${String(n).padStart(2, '0')}-${page.label}-${name}.png`), fullPage: full });
}
async function newPage(label, scheme = 'light') {
  const ctx = await browser.newContext({ viewport: phone, deviceScaleFactor: 1, colorScheme: scheme, hasTouch: true, isMobile: true });
  const page = await ctx.newPage();
  page.label = label;
  page.on('pageerror', (e) => console.log(`${label} page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') console.log(`${label} console: ${m.text()}`); });
  return page;
}
async function enter(page, name) {
  await page.goto(`${BASE}/`);
  await shot(page, 'welcome');
  await page.locator('[data-role="name"]').fill(name);
  await page.locator('[data-role="name"]').press('Enter');
  await page.locator('[data-action="create-room"]').waitFor();
}
const game = (p) => p.locator('[data-role="game"]').evaluate((e) => ({ ...e.dataset }));
async function until(p, f) { await p.waitForFunction(f, null, { timeout: 20000 }); }

const ann = await newPage('ann');
const bob = await newPage('bob', 'dark');
await enter(ann, 'Ann');
await enter(bob, 'Bob');
await shot(ann, 'lobby');
await shot(ann, 'lobby-full', true);
await shot(bob, 'lobby-dark');
await ann.goto(`${BASE}/#/rules`);
await shot(ann, 'rules');
await shot(ann, 'rules-full', true);
await ann.goto(`${BASE}/#/`);
await ann.locator('[data-action="create-room"]').waitFor();
await ann.locator('[data-action="clock-30"]').click();
await ann.locator('[data-action="create-room"]').click();
await ann.waitForURL(/#\/room\//);
await ann.locator('[data-role="game"]').waitFor();
await shot(ann, 'waiting-room');
await shot(ann, 'waiting-room-full', true);
const room = decodeURIComponent(ann.url().split('#/room/')[1]);
// The invitation link as Bob would open it.
const link = await ann.locator('[data-role="invite-link"]').textContent().catch(() => null);
if (link) { await bob.goto(link.trim()); await bob.waitForTimeout(500); await shot(bob, 'invitation'); }
await bob.goto(`${BASE}/#/room/${encodeURIComponent(room)}`);
await bob.locator('[data-action="join-player"]').click();
await until(ann, () => document.querySelector('[data-role="game"]')?.dataset.status === 'playing');
await until(bob, () => document.querySelector('[data-role="game"]')?.dataset.status === 'playing');
const first = (await game(ann)).turn === (await game(ann)).you ? ann : bob;
const second = first === ann ? bob : ann;
await shot(first, 'to-give');
await shot(second, 'waiting-for-give');
// A few moves: give the lowest piece, place on the lowest empty square.
let giver = first, placer = second;
for (let i = 0; i < 5; i += 1) {
  const pieces = await giver.locator('[data-role="available"] [data-piece]').evaluateAll((els) => els.map((e) => Number(e.dataset.piece)));
  const pick = pieces[(i * 5) % pieces.length];
  await giver.locator(`[data-role="available"] [data-piece="${pick}"]`).click();
  await until(placer, () => { const d = document.querySelector('[data-role="game"]').dataset; return d.turn === d.you && d.phase === 'place'; });
  if (i === 0) await shot(placer, 'to-place');
  const empty = await placer.locator('[data-square]:not([data-piece])').first().getAttribute('data-square');
  await placer.locator(`[data-square="${empty}"]`).click();
  await placer.locator(`[data-square="${empty}"][data-piece]`).waitFor();
  [giver, placer] = [placer, giver];
  await until(giver, () => { const d = document.querySelector('[data-role="game"]').dataset; return d.turn === d.you && d.phase === 'give'; });
}
await shot(giver, 'mid-game-give');
await shot(placer, 'mid-game-wait');
// The room menu, if the phone layout has one.
const menu = giver.locator('[data-action="room-menu"]');
if (await menu.count()) { await menu.click(); await shot(giver, 'room-menu'); await giver.keyboard.press('Escape'); }
await giver.locator('[data-action="resign"]').click();
await shot(giver, 'resign-confirm');
await giver.locator('[data-action="confirm-resign"]').click();
await until(giver, () => document.querySelector('[data-role="game"]')?.dataset.status === 'finished');
await shot(giver, 'game-over');
await shot(placer, 'game-over-winner');
await shot(placer, 'game-over-full', true);
// The replay with its analysis.
const gameLink = placer.locator('[data-action="replay"], a[href*="#/game/"]').first();
if (await gameLink.count()) {
  await gameLink.click();
  await placer.waitForTimeout(2500);
  await shot(placer, 'replay');
  await shot(placer, 'replay-full', true);
}
// Against the computer.
await ann.goto(`${BASE}/#/`);
await ann.locator('[data-role="bot-level"]').selectOption('3');
await ann.locator('[data-action="play-computer"]').click();
await until(ann, () => document.querySelector('[data-role="game"]')?.dataset.status === 'playing');
await ann.waitForTimeout(1500);
await shot(ann, 'computer');
// A tournament seen on the phone.
await bob.goto(`${BASE}/#/`);
await bob.locator('[data-action="show-tournament-form"]').click();
await bob.locator('[data-role="tournament-form"]').waitFor(); // its module loads on the first opening
await shot(bob, 'tournament-form', true);
await bob.locator('[data-role="tournament-name"]').fill('Phone cup');
await bob.locator('[data-action="create-tournament"]').click();
await bob.waitForURL(/#\/tournament\//);
await bob.waitForTimeout(500);
await shot(bob, 'tournament');
await shot(bob, 'tournament-full', true);
const overflow = await bob.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
console.log(`horizontal overflow on the tournament page: ${overflow}px`);
await browser.close();
console.log(`${n} screenshots in ${OUT}`);
