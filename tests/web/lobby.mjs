// Arriving and coming back: the lobby's rooms, links opened without a name, a returning player,
// and what a repeat visit fetches (harness.mjs runs them).
//
//   QUARTO_SERVER=/path/to/quarto-server QUARTO_WEB_ROOT=/path/to/web E2E_OUT=/tmp/e2e node lobby.mjs

import {
  base, newPage, enter, createRoom, openRoom, joinAsPlayer, started, waitGame, resign, assert, assertEqual,
  shot, axeBothThemes, createTournament, joinTournament, openTournament, playerId, boardOf, takenTo, scenario, run,
} from './harness.mjs';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** What has the keyboard's focus: its data-action or data-role, else its tag. */
async function focused(page) {
  return page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return 'body';
    return a.dataset.action || a.dataset.role || a.tagName.toLowerCase();
  });
}

/** Waits until the focus is on something else than the page's body; returns what it is on. */
async function focusSettles(page) {
  await page.waitForFunction(() => document.activeElement && document.activeElement !== document.body, null, { timeout: 5000 })
    .catch(() => {});
  return focused(page);
}

scenario('a room whose player has gone is not offered, and a game started against them may be claimed at once', async () => {
  const ann = await newPage('Ann', DESKTOP);
  await enter(ann, 'Ann');
  const id = await createRoom(ann);
  await ann.context().close(); // her tab closed: the room stays a while, its seat hers

  const bo = await newPage('Bo', DESKTOP);
  await enter(bo, 'Bo');
  const row = bo.locator(`[data-room-id="${id}"]`);
  await row.waitFor();
  await bo.locator(`[data-room-id="${id}"][data-host-away="true"]`).waitFor({ timeout: 5000 });
  assertEqual(await row.locator('[data-action="lobby-join"]').count(), 0, 'no Join on a room whose player has gone');
  const text = await row.textContent();
  assert(/away/i.test(text) && /Ann/.test(text), `the row says Ann is away: "${text}"`);
  // Listed after the rooms one may join.
  const order = await bo.locator('[data-role="rooms"] [data-room-id]').evaluateAll((els) => els.map((e) => e.dataset.hostAway === 'true'));
  assert(order.indexOf(true) === -1 || !order.slice(order.indexOf(true)).includes(false), `away rooms come last: ${JSON.stringify(order)}`);
  const problems = await axeBothThemes(bo, 'the lobby with a room whose player has gone', 'lobby-host-away');
  await bo.setViewportSize(PHONE);
  await row.scrollIntoViewIfNeeded();
  await shot(bo, 'lobby-host-away-phone');
  await bo.setViewportSize(DESKTOP);

  // Following the room's link all the same: the door says so; the game that starts may be
  // claimed at once, not after --abandon-seconds.
  await openRoom(bo, id);
  await bo.locator('[data-role="host-away"]').waitFor();
  await shot(bo, 'door-host-away');
  await bo.locator('[data-action="join-player"]').click();
  await waitGame(bo, () => document.querySelector('[data-role="game"]')?.dataset.status === 'playing', 'the game to start');
  const startedAt = Date.now();
  await bo.locator('[data-action="claim-victory"]').waitFor({ timeout: 2500 });
  assert(Date.now() - startedAt < 2500, 'the claim is offered at once');
  const why = await bo.locator('.claim-victory').textContent();
  assert(/Ann has not been here since the game began/.test(why), `the claim says Ann never came: "${why}"`);
  await shot(bo, 'claim-at-once');
  await bo.locator('[data-action="claim-victory"]').click();
  await bo.locator('[data-role="result"][data-reason="abandoned"]').waitFor();
  if (problems.length) throw new Error(problems.join('\n'));
});

scenario('an invitation to a room whose player has gone says so, and updates when they are back', async () => {
  const ann = await newPage('Ann', DESKTOP);
  await enter(ann, 'Ann');
  const id = await createRoom(ann);
  // Ann's page goes away for a moment (another tab, a lost connection).
  await ann.goto('about:blank');
  const guest = await newPage('Guest', PHONE);
  await guest.goto(`${base}/#/room/${encodeURIComponent(id)}`);
  await guest.locator('[data-role="invite"][data-state="away"]').waitFor();
  const title = await guest.locator('[data-role="invite-title"]').textContent();
  assert(/Ann has stepped away/.test(title), `the invitation says Ann is away: "${title}"`);
  const problems = await axeBothThemes(guest, 'an invitation to a room whose player has gone', 'invite-host-away');
  await ann.goto(`${base}/#/room/${encodeURIComponent(id)}`); // back
  await guest.locator('[data-role="invite"][data-state="open"]').waitFor({ timeout: 10000 });
  if (problems.length) throw new Error(problems.join('\n'));
});

scenario('a returning player is offered the game in progress first, at the top of the lobby', async () => {
  const [ann, bo] = await Promise.all([newPage('Ann', DESKTOP), newPage('Bo', DESKTOP)]);
  await Promise.all([enter(ann, 'Ann'), enter(bo, 'Bo')]);
  const id = await createRoom(ann);
  await joinAsPlayer(bo, id);
  const { first, second } = await started(ann, bo);
  const opponent = first === ann ? 'Bo' : 'Ann';

  // The site's root opened again, mid-game, on one's own move.
  await first.goto(`${base}/`);
  const offer = first.locator(`[data-role="game-on"][data-room="${id}"]`);
  await offer.waitFor();
  const text = (await offer.textContent()).replace(/\s+/g, ' ');
  assert(text.includes(`Your game against ${opponent} is on`) && /your move/.test(text), `the offer: "${text}"`);
  // It comes first: above the lobby's rooms and forms.
  const above = await first.evaluate(() => {
    const on = document.querySelector('[data-role="game-on"]').getBoundingClientRect();
    const rooms = document.querySelector('[data-role="rooms"]').getBoundingClientRect();
    return on.bottom <= rooms.top && on.top < 250;
  });
  assert(above, 'the offer is at the top of the lobby');
  // "Your games" says what the game is to the player, not "playing, playing".
  const mine = (await first.locator('.my-rooms').textContent()).replace(/\s+/g, ' ');
  assert(!/playing, playing/.test(mine) && mine.includes(`against ${opponent} — your move`), `Your games: "${mine}"`);
  const problems = await axeBothThemes(first, 'the lobby with a game in progress', 'lobby-game-on');
  await first.setViewportSize(PHONE);
  await shot(first, 'lobby-game-on-phone');
  const onPhone = await first.evaluate(() => document.querySelector('[data-action="back-to-game"]').getBoundingClientRect().bottom <= window.innerHeight);
  assert(onPhone, 'on a phone the way back is on the first screen');
  await first.setViewportSize(DESKTOP);

  // The other player sees whose move it is.
  await second.goto(`${base}/`);
  const theirs = await second.locator(`[data-role="game-on"][data-room="${id}"]`).textContent();
  assert(theirs.includes(`${first.label}'s move`), `the other player's offer: "${theirs}"`);

  await first.locator('[data-action="back-to-game"]').click();
  await first.waitForURL((u) => u.hash === `#/room/${encodeURIComponent(id)}`);
  await waitGame(first, () => {
    const d = document.querySelector('[data-role="game"]')?.dataset;
    return d && d.status === 'playing' && d.turn === d.you;
  }, 'the game, on my move');
  if (problems.length) throw new Error(problems.join('\n'));
});

scenario('the keyboard follows the player: after the name to the lobby, after creating a room to its link', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const page = await newPage(`Kim-${viewport.width}`, viewport);
    await page.goto(`${base}/`);
    const input = page.locator('[data-role="name"]');
    await input.fill('Kim');
    await input.press('Enter');
    await page.locator('[data-action="create-room"]:not([disabled])').waitFor();
    const afterName = await focusSettles(page);
    assert(['back-to-game', 'lobby-join', 'create-room'].includes(afterName), `after the name the focus is on the lobby's first action, not ${afterName}`);

    // Creating a room with the keyboard: the focus lands on the invitation's Copy link.
    await page.locator('[data-action="create-room"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/room\/[^/]+$/);
    await page.locator('[data-action="copy-invite"]').waitFor();
    const afterCreate = await focusSettles(page);
    assertEqual(afterCreate, 'copy-invite', 'after creating a room the focus');
    await shot(page, `focus-after-create-${viewport.width}`);
  }
});

scenario('a tournament link opened without a name is an invitation, and watching needs no name', async () => {
  const dee = await newPage('Dee', DESKTOP);
  await enter(dee, 'Dee');
  const id = await createTournament(dee, { name: 'Club night' });
  await dee.locator('[data-action="join-tournament"]:not([disabled])').click();
  await dee.locator('[data-action="withdraw-tournament"]').waitFor();
  const link = `${base}/#/tournament/${encodeURIComponent(id)}`;

  const guest = await newPage('Guest', DESKTOP);
  await guest.goto(link);
  const invite = guest.locator('[data-role="tournament-invite"][data-state="registering"]');
  await invite.waitFor();
  const title = await guest.locator('[data-role="tournament-invite-title"]').textContent();
  assert(title.includes('Dee invites you to the tournament “Club night”'), `the title: "${title}"`);
  const details = await guest.locator('[data-role="tournament-invite-details"]').textContent();
  assert(/Round robin/.test(details) && /60 s/.test(details), `the format and clock: "${details}"`);
  const players = await guest.locator('[data-role="tournament-invite-players"]').textContent();
  assert(players.includes('Dee'), `the players: "${players}"`);
  await guest.locator('[data-role="tournament-invite-name"]').waitFor();
  await guest.locator('[data-action="invite-register"]').waitFor();
  const problems = await axeBothThemes(guest, 'a tournament invitation', 'tournament-invite');
  await guest.setViewportSize(PHONE);
  await shot(guest, 'tournament-invite-phone');
  await guest.setViewportSize(DESKTOP);

  // Watching: the tournament's page, without a name and without saying hello.
  await guest.locator('[data-action="invite-watch-tournament"]').click();
  await guest.locator('[data-role="guest-bar"]').waitFor();
  await guest.locator('[data-role="tournament"][data-status="registering"]').waitFor();
  const anonymous = await guest.evaluate(() => ({ welcomed: window.quarto.welcomed, id: window.quarto.me.id, name: localStorage.getItem('quarto.name') }));
  assertEqual(anonymous, { welcomed: false, id: null, name: null }, 'a spectator without a name');
  problems.push(...await axeBothThemes(guest, 'a tournament watched without a name', 'tournament-guest'));

  // Someone registers from the invitation: the watcher's page shows it by itself.
  const cy = await newPage('Cy', PHONE);
  await cy.goto(link);
  await cy.locator('[data-role="tournament-invite-name"]').fill('Cy');
  await cy.locator('[data-action="invite-register"]').click();
  await cy.locator('[data-action="withdraw-tournament"]').waitFor();
  const cyId = await playerId(cy);
  await guest.locator(`[data-role="tournament-player"][data-player="${cyId}"]`).waitFor({ timeout: 10000 });
  // The director starts it: the watcher sees it running, the boards included.
  await dee.locator('[data-action="start-tournament"]:not([disabled])').click();
  await guest.locator('[data-role="tournament"][data-status="running"]').waitFor({ timeout: 10000 });
  await guest.locator('[data-role="round-boards"][data-round="1"] [data-role="pairing-row"]').waitFor();
  await shot(guest, 'tournament-guest-running');
  if (problems.length) throw new Error(problems.join('\n'));
});

scenario('a paused tournament says one thing about when the next round starts', async () => {
  const [dee, bo, cy] = await Promise.all([newPage('Dee', DESKTOP), newPage('Bo', DESKTOP), newPage('Cy', DESKTOP)]);
  await Promise.all([enter(dee, 'Dee'), enter(bo, 'Bo'), enter(cy, 'Cy')]);
  // Two rounds of Swiss for two players: the second pairs them again.
  const id = await createTournament(dee, { name: 'Pause night', format: 'swiss', rounds: '2' });
  for (const p of [bo, cy]) await joinTournament(p, id);
  await dee.locator('[data-action="start-tournament"]:not([disabled])').click();
  const { room } = await boardOf(dee, 1);
  await Promise.all([takenTo(bo, room), takenTo(cy, room)]);
  // The director pauses while round 1 is played; then its game ends.
  await dee.locator('[data-action="pause-tournament"]').click();
  await dee.locator('[data-role="tournament"][data-status="paused"]').waitFor();
  await resign(bo);
  await bo.locator('[data-role="result"]').waitFor();
  await openTournament(bo, id);
  await bo.waitForFunction(() => /is over/.test(document.querySelector('[data-role="my-game"]')?.textContent || ''));
  const page = (await bo.locator('[data-role="tournament"]').textContent()).replace(/\s+/g, ' ');
  assert(!/when every board has finished/.test(page), `nothing says the round starts by itself: "${page}"`);
  const mine = await bo.locator('[data-role="my-game"]').textContent();
  const summary = await bo.locator('[data-role="tournament-summary"]').textContent();
  assert(/director resumes/.test(mine) && /director resumes/.test(summary), `both say the director resumes it: "${mine}" / "${summary}"`);
  await shot(bo, 'tournament-paused');
});

scenario('the rename box does not change the header\'s height', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const page = await newPage(`Rae-${viewport.width}`, viewport);
    await enter(page, 'Rae');
    const before = await page.locator('header.top').evaluate((e) => e.getBoundingClientRect().height);
    await page.locator('[data-action="rename"]').click();
    await page.locator('[data-role="rename-input"]').waitFor();
    const during = await page.locator('header.top').evaluate((e) => e.getBoundingClientRect().height);
    await shot(page, `rename-${viewport.width}`);
    assertEqual(during, before, `the header's height at ${viewport.width} px while renaming`);
  }
});

scenario('a repeat visit to the lobby makes at most 2 requests; the files are kept a year, the favicon too', async () => {
  const page = await newPage('Vi', DESKTOP);
  const first = [];
  page.on('response', (r) => first.push({ url: r.url(), status: r.status(), cache: r.headers()['cache-control'] || '' }));
  await enter(page, 'Vi');
  await page.locator('[data-role="recent-games"]:not([data-state="loading"]):not([data-state="idle"])').waitFor();

  // The same site in another tab of the same browser: the page is revalidated, nothing else
  // fetched. Counted where they arrive, the server's own count of HTTP requests (the WebSocket's
  // handshake is not one); what the browser took from its cache never gets there.
  const served = async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return Number(text.match(/^quarto_http_requests_total (\d+)/m)[1]);
  };
  const again = await page.context().newPage();
  const asked = [];
  again.on('request', (r) => { if (r.resourceType() !== 'websocket') asked.push(r.url().replace(base, '')); });
  const before = await served();
  await again.goto(`${base}/`);
  await again.locator('[data-action="create-room"]:not([disabled])').waitFor();
  await again.locator('[data-role="recent-games"]:not([data-state="loading"]):not([data-state="idle"])').waitFor();
  await again.waitForTimeout(500);
  const count = (await served()) - before - 1; // the second /metrics counts itself
  console.log(`       a repeat visit: ${count} HTTP requests reached the server; the page asked for ${asked.length} (${asked.slice(0, 3).join(' ')} …)`);
  assert(count <= 2, `a repeat visit makes at most 2 requests, not ${count} (the page asked for ${asked.join(' ')})`);

  const files = first.filter((r) => /\/v\/[0-9a-f]{16}\//.test(r.url));
  assert(files.length >= 10, `the page's files come under a version: ${first.map((r) => r.url).join(' ')}`);
  for (const f of files) assert(/max-age=31536000/.test(f.cache) && /immutable/.test(f.cache), `${f.url} is kept for a year: ${f.cache}`);
  const icon = await page.evaluate(() => document.querySelector('link[rel="icon"]').href);
  assert(/\/v\/[0-9a-f]{16}\/favicon\.svg$/.test(icon), `the favicon's address: ${icon}`);
  const iconAnswer = await page.evaluate(async (u) => { const r = await fetch(u); return { status: r.status, type: r.headers.get('content-type') }; }, icon);
  assertEqual(iconAnswer, { status: 200, type: 'image/svg+xml' }, 'the favicon');
});

await run();
