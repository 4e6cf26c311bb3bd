// Accounts and ratings in the browser (PROTOCOL.md section 20): signing up (a guest's games come
// along), a rated room between two accounts with the ratings beside the names and their changes
// at the end, a guest who may only watch it, a rated tournament that only an account directs,
// profiles with their chart and games, the leaderboard, logging out and in again, and failed
// logins held off (harness.mjs runs them).
//
//   QUARTO_SERVER=/path/to/quarto-server QUARTO_WEB_ROOT=/path/to/web E2E_OUT=/tmp/e2e node accounts.mjs
//
// Failed logins are limited per address: the scenario that provokes it comes last.

import {
  base, newPage as harnessPage, enter, started, give, place, resign, assert, assertEqual, shot, axeBothThemes, noticeShown, scenario, run,
  createTournament, openTournament,
} from './harness.mjs';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 360, height: 740 };
const PASSWORD = 'correct horse battery';

/** A page whose refused requests (a taken name, a wrong password, no session) are expected:
 *  Chromium logs each as a console error. */
async function newPage(label, viewport) {
  const page = await harnessPage(label, viewport);
  page.expectedErrors.push(/Failed to load resource: the server responded with a status of (401|404|409|429)/);
  return page;
}

/** From any page with the header: the account page, then a new account. */
async function signUp(page, name, password = PASSWORD) {
  await page.locator('#who [data-action="log-in"]').click();
  await page.locator('[data-role="account"][data-state="guest"]').waitFor();
  await page.locator('[data-role="sign-up-name"]').fill(name);
  await page.locator('[data-role="sign-up-password"]').fill(password);
  await page.locator('[data-action="sign-up-submit"]').click();
  await page.locator('[data-role="account"][data-state="account"]').waitFor();
}

/** The message a form of the account page shows. */
async function formSays(page, form) {
  const line = page.locator(`[data-role="${form}"] [data-role="error"], [data-role="${form}"] [data-role="notice"]`).first();
  await line.waitFor();
  return (await line.textContent()).replace(/×$/, '').trim();
}

async function noOverflow(page, what) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 1, `${what}: no horizontal scrolling (overflow ${overflow}px)`);
}

/** Two new accounts, `a` on a desktop and `b` on a phone, in a rated room of a's, the game on. */
async function ratedGame(a, b) {
  const [pa, pb] = await Promise.all([newPage(a, DESKTOP), newPage(b, PHONE)]);
  await Promise.all([enter(pa, a), enter(pb, b)]);
  await signUp(pa, a);
  await signUp(pb, b);
  await pa.locator('[data-action="lobby"]').first().click();
  await pa.locator('[data-action="create-room"]:not([disabled])').waitFor();
  const rated = pa.locator('[data-role="rated"]');
  assert(await rated.isEnabled(), 'an account may create a rated room');
  await rated.check();
  await pa.locator('[data-action="create-room"]').click();
  await pa.waitForURL(/#\/room\/[^/]+$/);
  await pa.locator('[data-role="game"]').waitFor();
  const room = decodeURIComponent(pa.url().slice(pa.url().indexOf('#/room/') + 7));
  await pb.locator('[data-action="lobby"]').first().click();
  const row = pb.locator(`[data-room-id="${room}"]`);
  await row.locator('[data-action="lobby-join"]').waitFor();
  return { pa, pb, room, row };
}

/** Gives, places, and resigns: a rated game counts once it has had a placement. */
async function placeAndResign(pa, pb) {
  const { first, second } = await started(pa, pb);
  await give(first, 0);
  await place(second, 5);
  await resign(first);
  return { first, second };
}

scenario('a guest makes an account and keeps its id; a rated room shows each account\'s rating, a guest may only watch, and the end says each change', async () => {
  // The form's own refusals first: a name an account has, a short password.
  const [cal, cy] = await Promise.all([newPage('Cal', DESKTOP), newPage('Cy', PHONE)]);
  await Promise.all([enter(cal, 'Cal'), enter(cy, 'Cy')]);
  const guest = await cal.evaluate(() => window.quarto.me.id);
  await signUp(cal, 'Cal');
  assertEqual(await cal.evaluate(() => window.quarto.me.id), guest, 'the guest became the account');
  assertEqual(await cal.evaluate(() => localStorage.getItem('quarto.token')), null, 'no guest token is kept');
  assert(/Account/.test(await cal.locator('#who').textContent()), 'the header links to the account');
  await cy.locator('#who [data-action="log-in"]').click();
  await cy.locator('[data-role="sign-up-name"]').fill('CAL');
  await cy.locator('[data-role="sign-up-password"]').fill(PASSWORD);
  await cy.locator('[data-action="sign-up-submit"]').click();
  assert(/belongs to an account/.test(await formSays(cy, 'sign-up-form')), 'a taken name is said');
  await cy.locator('[data-role="sign-up-password"]').fill('short');
  await cy.locator('[data-action="sign-up-submit"]').click();
  assert(/too short/.test(await formSays(cy, 'sign-up-form')), 'a short password is said');
  const problems = await axeBothThemes(cal, 'the account page', 'account-page');
  problems.push(...await axeBothThemes(cy, 'the account page with its refusals, on a phone', 'account-refusals-phone'));
  await noOverflow(cy, 'the account page on a phone');

  // A rated room: Ann's rating beside her name; a guest is offered to log in, not the seat.
  const { pa: ann, pb: bo, room, row } = await ratedGame('Annika', 'Boris');
  assert(/rated/.test(await row.textContent()), 'the lobby says the room is rated');
  await row.locator('[data-role="rating"]').waitFor();
  assertEqual(await row.locator('[data-role="rating"]').getAttribute('data-provisional'), 'true', 'a new account\'s rating is provisional');
  await cy.locator('[data-action="lobby"]').first().click();
  const cyRow = cy.locator(`[data-room-id="${room}"]`);
  await cyRow.locator('[data-action="log-in-to-play"]').waitFor();
  assertEqual(await cyRow.locator('[data-action="lobby-join"]').count(), 0, 'no Join for a guest');
  assert(!(await cy.locator('[data-role="rated"]').isEnabled()), 'a guest creates no rated room');
  assert(/Log in/.test(await cy.locator('[data-role="rated-why"]').textContent()), 'the form says why');
  problems.push(...await axeBothThemes(cy, 'the lobby of a guest, with a rated room', 'lobby-rated-guest'));
  await noOverflow(cy, 'the lobby on a phone');

  await row.locator('[data-action="lobby-join"]').click();
  await cyRow.locator('[data-action="lobby-watch"]').click();
  await cy.locator('[data-role="game"]').waitFor();
  for (const p of [ann, bo, cy]) {
    await p.locator('[data-role="game"][data-status="playing"]').waitFor();
    assertEqual(await p.locator('[data-role="player"] [data-role="rating"]').count(), 4, `${p.label}: both seats' ratings (beside the name, and under it on a phone)`);
  }
  assert(/rated/.test(await cy.locator('.room-head .rules').textContent()), 'the room says it is rated');
  const { first } = await placeAndResign(ann, bo);
  const winner = first === ann ? 1 : 0;
  for (const p of [ann, bo, cy]) {
    await p.locator('[data-role="rating-changes"]').waitFor();
    const changes = await p.locator('[data-role="rating-change"]').evaluateAll((els) => els.map((e) => ({ seat: Number(e.dataset.seat), change: e.dataset.change })));
    assertEqual(changes.length, 2, `${p.label}: both changes`);
    const won = changes.find((c) => c.seat === winner);
    const lost = changes.find((c) => c.seat !== winner);
    assert(/^\+\d+$/.test(won.change) && /^-\d+$/.test(lost.change), `${p.label}: the winner gains, the loser loses: ${JSON.stringify(changes)}`);
  }
  await shot(bo, 'rated-game-over-phone');
  problems.push(...await axeBothThemes(cy, 'a rated game over, watched on a phone', 'rated-game-over-spectator'));
  await noOverflow(cy, 'a rated game over on a phone');
  assert(problems.length === 0, problems.join('\n'));
});

scenario('a profile shows the ratings, the results, the chart and the games with their replays; the leaderboard leaves provisional ratings out', async () => {
  const { pa: dana, pb: eli, row } = await ratedGame('Dana', 'Eli');
  await row.locator('[data-action="lobby-join"]').click();
  const { first } = await placeAndResign(dana, eli);
  const winnerName = first === dana ? 'Eli' : 'Dana';
  for (const p of [dana, eli]) {
    await p.evaluate((n) => { window.location.hash = `#/player/${encodeURIComponent(n)}`; }, winnerName);
    await p.locator('[data-role="profile"][data-state="ready"]').waitFor();
    await p.locator('[data-role="profile-games"][data-state="ready"]').waitFor();
    const standard = p.locator('[data-role="pool-rating"][data-pool="standard"]');
    assert(Number(await standard.getAttribute('data-rating')) > 1500, `${p.label}: the winner's standard rating went up`);
    assertEqual(await standard.getAttribute('data-provisional'), 'true', 'one game: provisional');
    assertEqual(await p.locator('[data-role="results"]').getAttribute('data-wins'), '1', 'one win');
    await p.locator('[data-role="rating-chart"] svg path.chart-line').waitFor({ state: 'attached' }); // one point: no extent
    const game = p.locator('[data-role="profile-games"] [data-game-id]').first();
    assertEqual(await game.getAttribute('data-outcome'), 'won', 'the game, from the winner\'s side');
    assert(/^\+\d+$/.test(await game.getAttribute('data-change')), 'with the rating it gained');
    const chart = await p.locator('[data-role="rating-chart"] svg').evaluate((svg) => ({ width: svg.getBoundingClientRect().width, box: svg.parentElement.clientWidth }));
    assert(chart.width <= chart.box + 0.5, `${p.label}: the chart fits its box (${chart.width} of ${chart.box})`);
  }
  const problems = await axeBothThemes(eli, 'a profile on a phone', 'profile-phone');
  problems.push(...await axeBothThemes(dana, 'a profile', 'profile-desktop'));
  await noOverflow(eli, 'a profile on a phone');
  // Its game replays.
  const id = await dana.locator('[data-role="profile-games"] [data-game-id]').first().getAttribute('data-game-id');
  await dana.locator('[data-role="profile-games"] [data-action="replay"]').first().click();
  await dana.locator(`[data-role="replay"][data-game="${id}"][data-state="ready"]`).waitFor();
  // A name nobody has.
  await dana.evaluate(() => { window.location.hash = '#/player/Nobody%20here'; });
  await dana.locator('[data-role="profile"][data-state="missing"]').waitFor();
  // The leaderboard: one game leaves a rating provisional, so nobody of these is on it.
  await eli.evaluate(() => { window.location.hash = '#/leaderboard'; });
  await eli.locator('[data-role="leaderboard"][data-state="ready"][data-pool="standard"]').waitFor();
  assertEqual(await eli.locator('[data-role="leaderboard-row"][data-name="Dana"], [data-role="leaderboard-row"][data-name="Eli"]').count(), 0,
    'provisional ratings are left out');
  await eli.locator('[data-action="pool-advanced"]').click();
  await eli.locator('[data-role="leaderboard"][data-state="ready"][data-pool="advanced"]').waitFor();
  assertEqual(await eli.locator('[data-action="pool-advanced"]').getAttribute('aria-current'), 'page', 'the pool shown is marked');
  problems.push(...await axeBothThemes(eli, 'the leaderboard on a phone', 'leaderboard-phone'));
  await noOverflow(eli, 'the leaderboard on a phone');
  assert(problems.length === 0, problems.join('\n'));
});

scenario('logging out and in again: a wrong password is said, the account\'s rooms come back; a new password logs out the other devices; the account is deleted', async () => {
  // A game in progress (a waiting room would close soon after its player has gone).
  const { pa: fay, pb: gus, room, row } = await ratedGame('Fay', 'Gus');
  await row.locator('[data-action="lobby-join"]').click();
  await started(fay, gus);
  await fay.evaluate(() => { window.location.hash = '#/account'; });
  await fay.locator('[data-action="log-out"]').click();
  await fay.locator('[data-role="account"][data-state="guest"]').waitFor();
  assert(await fay.evaluate(() => window.quarto.needsName), 'a guest again, who needs a name of its own');
  await fay.locator('[data-role="log-in-name"]').fill('fay');
  await fay.locator('[data-role="log-in-password"]').fill('not the password');
  await fay.locator('[data-action="log-in-submit"]').click();
  assertEqual(await formSays(fay, 'log-in-form'), 'Wrong name or password.', 'a wrong password is said');
  await fay.locator('[data-role="log-in-password"]').fill(PASSWORD);
  await fay.locator('[data-action="log-in-submit"]').click();
  await fay.locator('[data-role="account"][data-state="account"]').waitFor();
  await fay.waitForFunction((r) => window.quarto.rooms.get(r)?.isPlayer, room);
  await fay.evaluate((r) => { window.location.hash = `#/room/${encodeURIComponent(r)}`; }, room);
  await fay.locator('[data-role="game"][data-status="playing"]:not([data-you=""])').waitFor();
  await resign(fay);
  await gus.locator('[data-role="game"][data-status="finished"]').waitFor();
  // A guest may not take an account's name.
  const hal = await newPage('Hal', DESKTOP);
  await hal.goto(`${base}/`);
  await hal.locator('[data-role="name"]').fill('FAY');
  await hal.locator('[data-role="name"]').press('Enter');
  await hal.locator('[data-role="error"]', { hasText: 'belongs to an account' }).first().waitFor();
  // Gus on a second device too; a new password ends that one's session (its socket closes, 4001),
  // not this one's. Then the account goes.
  const gus2 = await newPage('Gus2', PHONE);
  await gus2.goto(`${base}/#/account`);
  await gus2.locator('[data-role="log-in-name"]').fill('Gus');
  await gus2.locator('[data-role="log-in-password"]').fill(PASSWORD);
  await gus2.locator('[data-action="log-in-submit"]').click();
  await gus2.locator('[data-role="account"][data-state="account"]').waitFor();
  await gus.evaluate(() => { window.location.hash = '#/account'; });
  await gus.locator('[data-role="old-password"]').fill(PASSWORD);
  await gus.locator('[data-role="new-password"]').fill(`${PASSWORD}!`);
  await gus.locator('[data-action="change-password"]').click();
  assert(/Password changed/.test(await formSays(gus, 'password-form')), 'the password changed');
  await gus2.locator('[data-role="account"][data-state="guest"]').waitFor();
  await noticeShown(gus2, 'notice', /logged out/);
  assert(await gus2.evaluate(() => window.quarto.needsName), 'the other device is a guest again');
  await gus.waitForFunction(() => window.quarto.welcomed && window.quarto.me.account);
  const exported = await gus.evaluate(async () => { const r = await fetch('api/me/export'); return { status: r.status, body: await r.json() }; });
  assertEqual(exported.status, 200, 'the export');
  assertEqual(exported.body.name, 'Gus', 'the export is the account\'s');
  await gus.locator('[data-action="delete-account"]').click();
  await gus.locator('[data-action="confirm-delete"]').click();
  await gus.locator('[data-role="account"][data-state="guest"]').waitFor();
  assertEqual((await gus.evaluate(async () => (await fetch('api/me')).status)), 401, 'no account any more');
});

scenario('a rated tournament: a guest may not direct one and is told why, and so is an account with rules that are not rated; an account directs one, which a guest is offered to log in to', async () => {
  const [ida, jon] = await Promise.all([newPage('Ida', PHONE), newPage('Jon', DESKTOP)]);
  await Promise.all([enter(ida, 'Ida'), enter(jon, 'Jon')]);
  // A guest: Rated is disabled, and the line under it offers to log in.
  await ida.locator('[data-action="show-tournament-form"]').click();
  const idaRated = ida.locator('[data-role="tournament-rated"]');
  await idaRated.waitFor();
  assert(await idaRated.isDisabled(), 'a guest directs no rated tournament');
  assertEqual((await ida.locator('[data-role="tournament-rated-why"]').textContent()).trim(), 'Log in to direct a rated tournament.', 'the form says why');
  assertEqual(await ida.locator('[data-role="tournament-rated-why"] [data-action="log-in"]').getAttribute('href'), '#/account', 'with a link to log in');
  // Asked all the same, the server refuses, and the form says it in words.
  await ida.evaluate(() => window.quarto.createTournament({ name: 'Sneaky cup', format: 'round_robin', rated: true,
    rules: { squares: false, attributes: ['color', 'height', 'shape', 'fill'], false_claim: 'reject' }, clock: { move_ms: 60000, claim_ms: 10000 } }));
  const refusal = ida.locator('[data-role="tournament-form"] [data-role="error"]');
  await refusal.waitFor();
  assert(/^This tournament cannot be rated: it needs an account to direct it/.test(await refusal.textContent()), `the refusal in words: "${await refusal.textContent()}"`);
  const problems = await axeBothThemes(ida, 'the tournament form of a guest, on a phone', 'tournament-form-guest-phone');
  await noOverflow(ida, 'the tournament form on a phone');

  // An account: Rated is offered while the rules and the clock can be rated.
  await signUp(jon, 'Jon');
  await jon.locator('[data-action="lobby"]').first().click();
  await jon.locator('[data-action="show-tournament-form"]').click();
  const rated = jon.locator('[data-role="tournament-rated"]');
  const why = jon.locator('[data-role="tournament-rated-why"]');
  await rated.waitFor();
  await jon.waitForFunction(() => !document.querySelector('[data-role="tournament-rated"]').disabled);
  assertEqual(await why.textContent(), 'Counts for the standard rating.', 'standard rules: the standard pool');
  await jon.locator('[data-role="tournament-squares"]').check();
  assertEqual(await why.textContent(), 'Counts for the advanced rating.', '2×2 squares: the advanced pool');
  await jon.locator('[data-role="tournament-squares"]').uncheck();
  await jon.locator('[data-role="tournament-attribute"][data-attribute="fill"]').uncheck();
  assert(await rated.isDisabled(), 'three traits: not rated');
  assertEqual(await why.textContent(), 'Rated games count all four traits.', 'the form says why');
  await jon.locator('[data-role="tournament-attribute"][data-attribute="fill"]').check();
  await jon.locator('[data-role="tournament-move-seconds"]').fill('');
  assert(await rated.isDisabled(), 'untimed: not rated');
  assertEqual(await why.textContent(), 'Rated games need a clock.', 'the form says why');
  await jon.locator('[data-role="tournament-name"]').fill('Rated cup');
  problems.push(...await axeBothThemes(jon, 'the tournament form of an account', 'tournament-form-account'));
  const id = await createTournament(jon, { name: 'Rated cup', rated: true });
  await jon.waitForFunction((t) => window.quarto.tournaments.get(t)?.settings?.rated === true, id);
  assert(/rated/.test(await jon.locator('[data-role="tournament"] .rules').textContent()), 'its page says it is rated');
  await jon.locator('[data-action="join-tournament"]:not([disabled])').click();
  await jon.locator('[data-action="withdraw-tournament"]').waitFor();
  assertEqual(await jon.evaluate((t) => typeof window.quarto.tournaments.get(t).players[0].rating, id), 'number', 'an entrant carries a rating');
  // A guest is offered to log in, not to join.
  await openTournament(ida, id);
  await ida.locator('[data-action="log-in-to-play"]').waitFor();
  assertEqual(await ida.locator('[data-action="join-tournament"]').count(), 0, 'no Join for a guest');
  assert(problems.length === 0, problems.join('\n'));
});

scenario('too many wrong passwords: Log in waits as long as the server says', async () => {
  const page = await newPage('Ivo', PHONE);
  await page.goto(`${base}/#/account`);
  await page.locator('[data-role="account"][data-state="guest"]').waitFor();
  let said = '';
  for (let i = 0; i < 15 && !/Too many/.test(said); i++) {
    await page.locator('[data-role="log-in-name"]').fill('Ivo');
    await page.locator('[data-role="log-in-password"]').fill(`wrong password ${i}`);
    await page.locator('[data-action="log-in-submit"]:not([disabled])').click();
    said = await formSays(page, 'log-in-form');
    await page.locator('[data-role="log-in-form"] [data-role="error"] .close').click();
  }
  assert(/^Too many attempts: please wait \d+ seconds? before trying again\.$/.test(said), `the wait is said in seconds: "${said}"`);
  assert(await page.locator('[data-action="log-in-submit"]').isDisabled(), 'Log in waits');
  await shot(page, 'rate-limited-phone');
});

await run();
