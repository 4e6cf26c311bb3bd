// The browser client end to end: games, claims, clocks, the keyboard, spectators, reloads and
// restarts, the computer, tournaments, replays, invitations and the lobby (harness.mjs runs them).
//
//   QUARTO_SERVER=/path/to/quarto-server QUARTO_WEB_ROOT=/path/to/web E2E_OUT=/tmp/e2e node e2e.mjs

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  OUT, ABANDON_SECONDS, DARK, startServer, stopServer, base,
  newPage, noticeShown, enter, moreOptions, createRoom, openRoom, joinAsPlayer, watch,
  gameData, waitGame, started, give, place, callQuarto, resign, board,
  seq, caughtUp, clockMs, clocks, resultOf, highlighted, assert, assertEqual,
  shot, axeBothThemes, fillRowZero, createTournament, joinTournament, openTournament, playerId, boardOf,
  takenTo, standingsRows, replayAt, playAnalysedGame, scenario, run,
} from './harness.mjs';

scenario('full game to a valid Quarto call by the placer', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann);
  // The lobby, as Bob sees it with Ann's room listed (at its next refresh: a deadline, no more).
  await bob.locator(`[data-room-id="${id}"]`).waitFor();
  await shot(bob, 'lobby');
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  for (const p of [ann, bob]) {
    const coin = await p.locator('[data-role="coin"]').textContent();
    assert(coin.includes(first.label), `${p.label} sees the coin flip naming ${first.label}: "${coin}"`);
  }
  const status = await first.locator('[data-role="status"]').textContent();
  assert(/give/i.test(status), `the first player is told to give: "${status}"`);

  await give(first, DARK[0]);
  await place(second, 0);
  await give(second, DARK[1]);
  await place(first, 1);
  await give(first, DARK[2]);
  await caughtUp(second, first);
  await shot(second, 'game-in-progress');
  await place(second, 2);
  await give(second, DARK[3]);
  await place(first, 3);
  await callQuarto(first, [3, 1, 0, 2]);

  for (const p of [ann, bob]) {
    const r = await resultOf(p);
    assertEqual(r.reason, 'quarto', `${p.label}: result reason`);
    assert(r.text.includes(first.label) && /win/i.test(r.text) && /quarto/i.test(r.text), `${p.label}: result names winner and reason: "${r.text}"`);
    assertEqual(await highlighted(p), [0, 1, 2, 3], `${p.label}: winning line highlighted`);
    assertEqual(await board(p), [1, 3, 5, 7, ...new Array(12).fill(null)], `${p.label}: final board`);
  }
  await shot(first, 'game-finished');
  await first.locator('[data-action="rematch"]').waitFor();
});

scenario('a missed Quarto is claimed by the opponent in the claim window', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  // The window must stay open through a screenshot and five clicks on a loaded machine; the
  // claim ends it, so a long one costs nothing.
  const id = await createRoom(ann, { claimSeconds: '60' });
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  await fillRowZero(first, second);
  // The placer completed the row but gives instead of calling: the opponent may claim it.
  await give(first, 0);
  await second.locator('[data-role="claim"]').waitFor();
  await shot(second, 'claim-window');
  await callQuarto(second, [0, 1, 2, 3]);
  for (const p of [ann, bob]) {
    const r = await resultOf(p);
    assertEqual(r.reason, 'missed_quarto', `${p.label}: result reason`);
    assert(r.text.includes(second.label) && /miss/i.test(r.text), `${p.label}: result names ${second.label} and the missed Quarto: "${r.text}"`);
    assertEqual(await highlighted(p), [0, 1, 2, 3], `${p.label}: claimed line highlighted`);
  }
});

scenario('resigning and leaving a game in progress ask for a confirmation, which stays until answered, Escape or a click elsewhere', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann);
  await joinAsPlayer(bob, id);
  await started(ann, bob);
  const stillPlaying = async (what) => {
    for (const p of [ann, bob]) assertEqual((await gameData(p)).status, 'playing', `${p.label}: still playing ${what}`);
  };
  // Resign only asks, even clicked twice in a row; Escape takes the question back.
  await ann.locator('[data-action="resign"]').dblclick();
  const confirm = ann.locator('[data-action="confirm-resign"]');
  await confirm.waitFor();
  await ann.waitForTimeout(500);
  await stillPlaying('after a double click on Resign');
  await shot(ann, 'confirm-resign');
  await ann.keyboard.press('Escape');
  await confirm.waitFor({ state: 'detached' });
  await ann.locator('[data-action="resign"]').waitFor();
  await stillPlaying('after Escape');
  // Left alone, the question stays (a player may look away); a click elsewhere takes it back.
  await ann.locator('[data-action="resign"]').click();
  await confirm.waitFor();
  await ann.waitForTimeout(6000);
  assertEqual(await confirm.count(), 1, 'the question is still there after 6 s');
  await ann.locator('[data-role="status"]').click();
  await confirm.waitFor({ state: 'detached' });
  await ann.locator('[data-action="resign"]').waitFor();
  await stillPlaying('after a click elsewhere');
  // Leaving a game in progress asks the same; the player stays in the room until they confirm.
  await ann.locator('[data-action="leave"]').click();
  await confirm.waitFor();
  assert(ann.url().includes('#/room/'), `still in the room: ${ann.url()}`);
  await shot(ann, 'confirm-leave');
  await ann.locator('[data-action="cancel-resign"]').click();
  await confirm.waitFor({ state: 'detached' });
  await stillPlaying('after Stay');
  // Confirmed, leaving resigns and goes to the lobby.
  await bob.locator('[data-action="leave"]').click();
  await bob.locator('[data-action="confirm-resign"]').click();
  await bob.locator('[data-action="create-room"]').waitFor();
  // The seat is free again (the room waits for a new opponent); the moves say what happened.
  await ann.locator('[data-role="moves"] li', { hasText: 'Bob resigned' }).waitFor();
  // With no game in progress, Leave needs no confirmation.
  await ann.locator('[data-action="leave"]').click();
  await ann.locator('[data-action="create-room"]').waitFor();
});

/** Presses the mouse button on the middle of `locator`, and holds it. */
async function pressOn(page, locator) {
  const box = await locator.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
}

scenario('a click held while the page redraws still counts: a message between the press and the release', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann);
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  // The press on Resign, then what any message from the server does (the page is drawn again),
  // then the release: a redraw between the two would put a new button under the release, and
  // the browser would send the click to neither.
  await pressOn(first, first.locator('[data-action="resign"]'));
  await first.evaluate(() => window.quarto.changed());
  await first.mouse.up();
  await first.locator('[data-action="confirm-resign"]').waitFor();
  await first.locator('[data-action="cancel-resign"]').click();
  await first.locator('[data-action="resign"]').waitFor();
  // The same with a real message: the opponent renames while a piece is pressed. The new name
  // shows once the piece is given.
  const seatOfSecond = (await gameData(second)).you;
  const piece = first.locator('[data-role="available"] [data-piece="3"]');
  await pressOn(first, piece);
  await second.locator('[data-action="rename"]').click();
  await second.locator('[data-role="rename-input"]').fill('Bobby');
  await second.locator('[data-role="rename-input"]').press('Enter');
  await second.locator('[data-role="me"]', { hasText: /^Bobby$/ }).waitFor();
  await first.waitForTimeout(500); // for the rename's event to reach the pressed page
  await first.mouse.up();
  await piece.waitFor({ state: 'detached' });
  await first.locator(`[data-role="player"][data-seat="${seatOfSecond}"]`, { hasText: 'Bobby' }).waitFor();
  await waitGame(second, () => document.querySelector('[data-role="game"]')?.dataset.phase === 'place', 'the given piece');
});

/** `giver` gives `piece`; returns whether the receiver, now in the claim window, is invited to claim. */
async function invitedAfterGive(giver, receiver, piece) {
  await give(giver, piece);
  await caughtUp(receiver, giver);
  await waitGame(receiver, () => {
    const d = document.querySelector('[data-role="game"]')?.dataset;
    return d && d.phase === 'place' && d.turn === d.you;
  }, 'the piece to reach the receiver');
  return (await receiver.locator('[data-role="claim"]').count()) > 0;
}

scenario('the claim invitation shows only after a placement that filled a line (2×2 squares only in the advanced variant)', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann, { claimSeconds: '60' });
  await joinAsPlayer(bob, id);
  const { first: f, second: s } = await started(ann, bob);
  await give(f, 0);
  await place(s, 0);
  assert(!(await invitedAfterGive(s, f, 1)), 'one piece on the board: no invitation');
  await place(f, 1);
  assert(!(await invitedAfterGive(f, s, 2)), 'two pieces: no invitation');
  await place(s, 4);
  assert(!(await invitedAfterGive(s, f, 3)), 'three pieces: no invitation');
  await place(f, 5);
  assert(!(await invitedAfterGive(f, s, 4)), 'a full 2×2 square is no line in the standard game');
  await shot(s, 'no-claim-invitation');
  await place(s, 2);
  assert(!(await invitedAfterGive(s, f, 5)), 'three in a row: no invitation');
  await place(f, 3);
  assert(await invitedAfterGive(f, s, 6), 'the placement that filled row 1 invites the opponent to claim');
  const text = await s.locator('[data-role="claim"]').textContent();
  assert(text.includes('A1 B1 C1 D1'), `the invitation names the line: "${text}"`);
  // The next placement fills nothing: the invitation goes.
  await place(s, 15);
  assert(!(await invitedAfterGive(s, f, 7)), 'a placement that fills no line: no invitation');

  // The advanced variant: a filled 2×2 square is a line.
  const [cy, di] = await Promise.all([newPage('Cy'), newPage('Di')]);
  await Promise.all([enter(cy, 'Cy'), enter(di, 'Di')]);
  await cy.locator('[data-action="preset-advanced"]').click();
  assert(await cy.locator('[data-role="squares"]').isChecked(), 'the Advanced preset counts 2×2 squares');
  const id2 = await createRoom(cy, { claimSeconds: '60' });
  await joinAsPlayer(di, id2);
  const { first: f2, second: s2 } = await started(cy, di);
  await give(f2, 0);
  await place(s2, 5);
  await give(s2, 1);
  await place(f2, 6);
  await give(f2, 2);
  await place(s2, 9);
  assert(!(await invitedAfterGive(s2, f2, 3)), 'three pieces of a square: no invitation');
  await place(f2, 10);
  assert(await invitedAfterGive(f2, s2, 4), 'the placement that filled the square B2 C2 B3 C3 invites the opponent');
  await shot(s2, 'claim-invitation-square');
});

/** Counts the notes the page plays (each is an oscillator started). Before the page loads. */
async function countBeeps(page) {
  await page.context().addInitScript(() => {
    window.__beeps = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args) { window.__beeps += 1; return start.apply(this, args); };
  });
}
const beeps = (page) => page.evaluate(() => window.__beeps);
const title = (page) => page.evaluate(() => document.title);

scenario('a background tab says it is your move: the title, a sound (and at 10 s left), a mute switch that is remembered', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([countBeeps(ann), countBeeps(bob)]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  for (const p of [ann, bob]) {
    assertEqual(await p.locator('[data-role="sound-toggle"]').getAttribute('aria-checked'), 'true', `${p.label}: sound is on at first`);
  }
  // 12 s per move: the 10 s mark comes soon.
  const id = await createRoom(ann, { moveSeconds: '12' });
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  await first.waitForFunction(() => document.title.startsWith('● Your move'));
  assert(!(await title(second)).startsWith('●'), `not ${second.label}'s move: "${await title(second)}"`);
  await first.waitForFunction(() => window.__beeps > 0); // the move came to them
  const early = await beeps(first);
  // Under 10 s, the title counts the seconds and a second sound plays.
  await first.waitForFunction(() => /^● Your move \(\d s\) — .*Quarto$/.test(document.title), null, { timeout: 8000 });
  await first.waitForFunction((n) => window.__beeps > n, early);
  assertEqual(await beeps(second), 0, `no sound for ${second.label}, whose move it is not`);
  // The move passes: so do the title and the sound.
  await give(first, 3);
  await second.waitForFunction(() => document.title.startsWith('● Your move') && window.__beeps > 0);
  await first.waitForFunction(() => !document.title.startsWith('●'));
  // Muted, and still muted after a reload: the move comes back with no sound.
  await second.locator('[data-role="sound-toggle"]').click();
  assertEqual(await second.locator('[data-role="sound-toggle"]').getAttribute('aria-checked'), 'false', 'the switch shows sound off');
  await second.reload();
  await second.locator('[data-role="game"]').waitFor();
  assertEqual(await second.locator('[data-role="sound-toggle"]').getAttribute('aria-checked'), 'false', 'sound stays off after a reload');
  await place(second, 0);
  await give(second, 5);
  await place(first, 1);
  await give(first, 6);
  await second.waitForFunction(() => document.title.startsWith('● Your move'));
  await second.waitForTimeout(300);
  assertEqual(await beeps(second), 0, 'muted: no sound');
  await shot(second, 'title-and-sound');
});

scenario('the create form has rule and clock presets, and "How to play" explains the rules and the variants', async () => {
  // How to play needs no name: it is the first thing a newcomer may want to read.
  const page = await newPage('Newcomer');
  await page.goto(`${base}/#/rules`);
  const rules = page.locator('[data-role="how-to-play"]');
  await rules.waitFor();
  assertEqual(await page.locator('[data-role="trait-legend"] [data-role="trait"]').count(), 4, 'a legend of the four traits');
  const text = await rules.textContent();
  for (const words of ['claim', '2×2', 'Beginner', 'colour and height', 'draw']) {
    assert(text.includes(words), `How to play mentions "${words}"`);
  }
  await shot(page, 'how-to-play');
  await page.locator('[data-action="lobby"]').first().click();
  const input = page.locator('[data-role="name"]');
  await input.fill('Newcomer');
  await input.press('Enter');
  await page.locator('[data-action="create-room"]').waitFor();
  // The header links to it from everywhere.
  await page.locator('[data-action="how-to-play"]').click();
  await rules.waitFor();
  await page.goBack();
  await page.locator('[data-action="create-room"]').waitFor();

  const checked = async () => page.locator('[data-role="attribute"]').evaluateAll((els) => els.filter((e) => e.checked).map((e) => e.dataset.attribute));
  const pressed = async () => page.locator('.create-room [data-action^="preset-"][aria-pressed="true"], .create-room [data-action^="clock-"][aria-pressed="true"]')
    .evaluateAll((els) => els.map((e) => e.dataset.action));
  assertEqual(await pressed(), ['preset-standard', 'clock-60'], 'the form starts as Standard, 60 s');
  await page.locator('[data-action="preset-advanced"]').click();
  assertEqual(await checked(), ['color', 'height', 'shape', 'fill'], 'Advanced: every trait');
  assert(await page.locator('[data-role="squares"]').isChecked(), 'Advanced: 2×2 squares');
  await page.locator('[data-action="preset-beginner"]').click();
  assertEqual(await checked(), ['color', 'height'], 'Beginner: colour and height');
  assert(!(await page.locator('[data-role="squares"]').isChecked()), 'Beginner: no squares');
  assert((await page.locator('[data-action="preset-beginner"]').textContent()).includes('colour and height'), 'the form says which traits Beginner counts');
  for (const [action, value] of [['clock-120', '120'], ['clock-untimed', ''], ['clock-30', '30']]) {
    await page.locator(`[data-action="${action}"]`).click();
    assertEqual(await page.locator('[data-role="move-seconds"]').inputValue(), value, `${action} sets the move clock`);
  }
  assertEqual(await pressed(), ['preset-beginner', 'clock-30'], 'the chosen presets show as pressed');
  await shot(page, 'lobby-presets');
  // The fields stay editable: a change of hand is no preset any more.
  await moreOptions(page);
  await page.locator('[data-role="attribute"][data-attribute="shape"]').check();
  await page.locator('[data-role="claim-seconds"]').fill('20');
  assertEqual(await pressed(), ['clock-30'], 'no rule preset matches colour, height and shape');
  await page.locator('[data-role="attribute"][data-attribute="shape"]').uncheck();
  await page.locator('[data-action="create-room"]').click();
  await page.waitForURL(/#\/room\/[^/]+$/);
  const summary = await page.locator('.room-head .rules').textContent();
  assert(summary.includes('only colour, height count') && summary.includes('30 s per move') && summary.includes('20 s to claim'),
    `the room has the rules chosen: "${summary}"`);
});

const focused = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return a ? { square: a.dataset.square ?? null, piece: a.closest('[data-role="available"]') ? a.dataset.piece : null, action: a.dataset.action ?? null } : {};
});

scenario('the keyboard: the room door keeps its focus, board and pool are one Tab stop each with arrow keys inside, Q calls Quarto', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann);
  // The room's door keeps the keyboard's focus while it asks for the room again (every 3 s), and
  // Enter on "Play in this room" takes the seat.
  await openRoom(bob, id);
  const play = bob.locator('[data-action="join-player"]');
  await play.focus();
  const door = await play.elementHandle();
  await bob.waitForTimeout(3500);
  assert(await bob.evaluate((e) => e.isConnected && document.activeElement === e, door), 'the focused button outlives a poll of the door');
  await bob.keyboard.press('Enter');
  await bob.locator('[data-role="game"][data-you]:not([data-you=""])').waitFor();
  const { first: f, second: s } = await started(ann, bob);
  await give(f, 0);
  await place(s, 1);
  await give(s, 2);
  await waitGame(f, () => document.querySelector('[data-role="game"]')?.dataset.phase === 'place', 'the piece in hand');
  // The board is one Tab stop: in from the room's tools, out again with one more Tab.
  await f.locator('[data-action="leave"]').focus();
  await f.keyboard.press('Tab');
  let at = await focused(f);
  assert(at.square !== null, `Tab goes into the board: ${JSON.stringify(at)}`);
  assertEqual(await f.locator('[data-role="board"] [tabindex="0"]').count(), 1, 'one Tab stop in the board');
  // The arrow keys cross the occupied B1.
  await f.locator('[data-square="0"]').focus();
  await f.keyboard.press('ArrowRight');
  assertEqual((await focused(f)).square, '1', 'ArrowRight onto the occupied B1');
  assertEqual(await f.locator('[data-square="1"]').getAttribute('aria-disabled'), 'true', 'B1 says it cannot take a piece');
  await f.keyboard.press('Enter'); // nothing happens on an occupied square
  await f.keyboard.press('ArrowRight');
  assertEqual((await focused(f)).square, '2', 'ArrowRight on to C1');
  await f.keyboard.press('ArrowDown');
  assertEqual((await focused(f)).square, '6', 'ArrowDown to C2');
  await f.keyboard.press('ArrowUp');
  await f.keyboard.press('Tab');
  at = await focused(f);
  assert(at.square === null, `one Tab leaves the board: ${JSON.stringify(at)}`);
  // Enter places on the square the board's stop remembers.
  await f.keyboard.press('Shift+Tab');
  assertEqual((await focused(f)).square, '2', 'Shift+Tab comes back to C1');
  await f.keyboard.press('Enter');
  await f.locator('[data-square="2"][data-piece]').waitFor();
  // Q calls Quarto (the button shows the shortcut); Escape takes the call back.
  const quarto = f.locator('[data-action="quarto"]');
  assertEqual(await quarto.getAttribute('aria-keyshortcuts'), 'Q', 'the Quarto button has its shortcut');
  assert((await quarto.textContent()).includes('Q'), 'the shortcut is shown on the button');
  await f.keyboard.press('q');
  await f.locator('[data-action="quarto"][aria-pressed="true"]').waitFor();
  assert((await focused(f)).square !== null, 'the call starts on the board');
  await shot(f, 'keyboard-call');
  await f.keyboard.press('Escape');
  await f.locator('[data-action="quarto"][aria-pressed="false"]').waitFor();
  // The pool is one Tab stop too: in from Resign, out with one more Tab; the arrows choose.
  await f.locator('[data-action="resign"]').focus();
  await f.keyboard.press('Tab');
  at = await focused(f);
  assert(at.piece !== null, `Tab goes into the pool: ${JSON.stringify(at)}`);
  assertEqual(await f.locator('[data-role="available"] [tabindex="0"]').count(), 1, 'one Tab stop in the pool');
  assertEqual(at.piece, '1', 'the pool starts on its first piece');
  await f.keyboard.press('ArrowRight');
  assertEqual((await focused(f)).piece, '3', 'ArrowRight skips the pieces already given');
  await f.keyboard.press('ArrowDown');
  assertEqual((await focused(f)).piece, '7', 'ArrowDown one row (4 wide)');
  await f.keyboard.press('Tab');
  at = await focused(f);
  assert(at.piece === null, `one Tab leaves the pool: ${JSON.stringify(at)}`);
  await f.keyboard.press('Shift+Tab');
  assertEqual((await focused(f)).piece, '7', 'Shift+Tab comes back to the same piece');
  await f.keyboard.press('Enter');
  await f.locator('[data-role="available"] [data-piece="7"]').waitFor({ state: 'detached' });
  await caughtUp(s, f);
  assertEqual(Number(await s.locator('[data-role="in-hand"] [data-hand-piece]').getAttribute('data-hand-piece')), 7, 'given with the keyboard');
});

scenario('axe finds no accessibility problem in the lobby, a game, a replay and a tournament, light and dark', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  const problems = [];
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann, { claimSeconds: '120' });
  await bob.locator(`[data-room-id="${id}"]`).waitFor();
  problems.push(...await axeBothThemes(bob, 'the lobby', 'axe-lobby'));
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  await fillRowZero(first, second);
  await give(first, 0);
  // The claim window: the urgent Quarto button and the invitation.
  await second.locator('[data-role="claim"]').waitFor();
  problems.push(...await axeBothThemes(second, 'a game, in the claim window', 'axe-game-claim'));
  problems.push(...await axeBothThemes(first, 'a game, waiting for the opponent', 'axe-game-waiting'));
  await callQuarto(second, [0, 1, 2, 3]);
  await resultOf(second);
  problems.push(...await axeBothThemes(second, 'a finished game', 'axe-game-over'));
  await second.locator('[data-action="replay"]').click();
  await replayAt(second, 0);
  await second.locator('[data-replay-next]').click();
  await replayAt(second, 1);
  await second.locator('[data-role="analysis"][data-state="ready"]').waitFor({ timeout: 30000 });
  problems.push(...await axeBothThemes(second, 'a replay', 'axe-replay'));
  // The move that missed the Quarto is marked, and its best move can be asked for.
  await second.locator('[data-replay-move="9"] button').click();
  await replayAt(second, 9);
  await second.locator('[data-action="show-best-move"]').waitFor();
  problems.push(...await axeBothThemes(second, 'a replay with a marked move', 'axe-replay-mark'));
  // The previous-move button is named by its text.
  const prevName = await second.locator('[data-replay-prev]').evaluate((b) => b.getAttribute('aria-label') ?? b.textContent);
  assert(/prev/i.test(prevName), `"‹ Prev" is named by its text: "${prevName}"`);
  await second.evaluate(() => { window.location.hash = '#/rules'; });
  await second.locator('[data-role="how-to-play"]').waitFor();
  problems.push(...await axeBothThemes(second, 'How to play', 'axe-rules'));
  await first.evaluate(() => { window.location.hash = '#/'; });
  const tid = await createTournament(first, { name: 'Axe night' });
  await second.evaluate(() => { window.location.hash = '#/'; });
  await joinTournament(second, tid);
  await first.locator('[data-role="tournament-player"]').first().waitFor();
  problems.push(...await axeBothThemes(first, 'a tournament page (the director)', 'axe-tournament'));
  // Running: the boards, the standings and the crosstable.
  await first.locator('[data-action="join-tournament"]:not([disabled])').click();
  await first.locator('[data-action="start-tournament"]:not([disabled])').click();
  await first.waitForURL(/#\/room\/[^/]+$/);
  const room = decodeURIComponent(first.url().slice(first.url().indexOf('#/room/') + 7));
  await Promise.all([takenTo(first, room), takenTo(second, room)]);
  await openTournament(first, tid);
  await first.locator('[data-role="standings-row"]').first().waitFor();
  problems.push(...await axeBothThemes(first, 'a running tournament', 'axe-tournament-running'));
  assert(problems.length === 0, problems.join('\n'));
});

scenario('your own player card says when your connection is lost', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann);
  await joinAsPlayer(bob, id);
  await started(ann, bob);
  const annSeat = (await gameData(ann)).you;
  const mine = ann.locator(`[data-role="player"][data-seat="${annSeat}"]`);
  assert((await mine.textContent()).includes('online'), 'online to begin with');
  // The network goes, and stays gone until the test lets it back.
  ann.expectedErrors.push(/ERR_CONNECTION_REFUSED|WebSocket/);
  await ann.evaluate(() => { window.quarto.conn.connect = () => {}; window.quarto.conn.ws.close(); });
  await ann.locator('#conn', { hasText: 'Connection lost' }).waitFor();
  await mine.locator('.conn.offline').waitFor();
  const text = await mine.textContent();
  assert(!/\bonline\b/.test(text), `your own card does not say online while the connection is lost: "${text}"`);
  // Nor can the page tell whether Bob is still there.
  const his = ann.locator(`[data-role="player"][data-seat="${1 - Number(annSeat)}"]`);
  await his.locator('.conn.unknown').waitFor();
  assert(!/\bonline\b/.test(await his.textContent()), `Bob's card does not say online either: "${await his.textContent()}"`);
  await shot(ann, 'connection-lost');
  await ann.evaluate(() => { delete window.quarto.conn.connect; window.quarto.conn.retryNow(); });
  await mine.locator('.conn.online').waitFor();
  await his.locator('.conn.online').waitFor();
});

/** The controls (buttons, links, fields, squares, pieces) that the element `selector` covers. */
async function coveredControls(page, selector) {
  return page.evaluate((sel) => {
    const msg = document.querySelector(sel);
    if (!msg) return ['(no such element)'];
    const r = msg.getBoundingClientRect();
    const hits = [];
    for (const el of document.querySelectorAll('button, a, input, select, summary, [data-square], [data-piece]')) {
      if (msg.contains(el) || el.contains(msg)) continue;
      const b = el.getBoundingClientRect();
      if (!b.width || !b.height) continue;
      if (b.left < r.right && r.left < b.right && b.top < r.bottom && r.top < b.bottom) hits.push(el.outerHTML.slice(0, 90));
    }
    return hits;
  }, selector);
}

scenario('feedback appears in place, next to what it is about, never over the controls (desktop and phone)', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  // A form's complaint is in the form, by its button.
  await ann.locator('[data-role="attribute"]').evaluateAll((els) => els.forEach((e) => { e.checked = false; }));
  await ann.locator('[data-action="create-room"]').click();
  const formError = ann.locator('.create-room [data-role="error"]');
  await formError.waitFor();
  assert(/at least one trait/.test(await formError.textContent()), 'the form says what is wrong');
  assertEqual(await coveredControls(ann, '.create-room [data-role="error"]'), [], 'the form\'s message covers no control');
  await ann.locator('[data-action="preset-standard"]').click();
  const id = await createRoom(ann);
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  await give(first, 1);
  await place(second, 0);
  await give(second, 3);
  await place(first, 5);
  await give(first, 5);
  await place(second, 10);
  await give(second, 7);
  await place(first, 15);
  await give(first, 9);
  await place(second, 1);
  const caller = second;
  // A wrong call: the server's reason shows under the line that says what to do, not over the
  // pool the player must choose from next.
  for (const [viewport, name] of [[{ width: 1280, height: 800 }, 'feedback-desktop'], [{ width: 390, height: 844 }, 'feedback-phone']]) {
    await caller.setViewportSize(viewport);
    await callQuarto(caller, [0, 5, 10, 1]);
    const msg = caller.locator('[data-role="game"] [data-role="error"]');
    await msg.waitFor();
    assert((await msg.textContent()).includes('do not form a line'), `the server's reason: "${await msg.textContent()}"`);
    const [box, status] = [await msg.boundingBox(), await caller.locator('[data-role="status"]').boundingBox()];
    assert(box.y >= status.y + status.height - 1 && box.y - (status.y + status.height) < 40, `right under the status line: ${JSON.stringify([box, status])}`);
    await msg.scrollIntoViewIfNeeded();
    assertEqual(await coveredControls(caller, '[data-role="game"] [data-role="error"]'), [], `${name}: the message covers no control`);
    await shot(caller, name);
    await msg.locator('button.close').click();
    await msg.waitFor({ state: 'detached' });
  }
  assertEqual(await caller.locator('#notices [data-role="error"]').count(), 0, 'nothing floats in the corner');
});

/** The elements that stick out of the viewport on the right (what makes a phone scroll sideways). */
async function sticksOut(page) {
  return page.evaluate(() => [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className} "${(e.textContent || '').trim().slice(0, 40)}"`).slice(0, 8));
}

/** Whether the element lies fully inside the viewport as the page is (not scrolled by the test). */
async function inFirstScreen(page, selector) {
  return page.locator(selector).first().evaluate((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  });
}

scenario('on a phone, the lobby starts with starting a game: presets, Create room and Play the computer in the first screen', async () => {
  const page = await newPage('Phone', { width: 390, height: 844 });
  await enter(page, 'Phoebe');
  await page.locator('[data-role="rooms"]').waitFor();
  await page.waitForTimeout(300); // the lists have come in
  assertEqual(await page.evaluate(() => window.scrollY), 0, 'not scrolled');
  for (const sel of ['[data-action="preset-standard"]', '[data-action="clock-60"]', '[data-action="create-room"]',
    '[data-role="bot-level"]', '[data-action="play-computer"]']) {
    assert(await inFirstScreen(page, sel), `${sel} is in the first screen`);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 1, `no horizontal scrolling (overflow ${overflow}px): ${JSON.stringify(await sticksOut(page))}`);
  await shot(page, 'lobby-phone');
  // One tap on a preset and one on Create room start a game.
  await page.locator('[data-action="clock-120"]').click();
  await page.locator('[data-action="create-room"]').click();
  await page.waitForURL(/#\/room\/[^/]+$/);
  assert((await page.locator('.room-head .rules').textContent()).includes('2 min per move'), 'the room has the preset clock');
});

/** On `page`, whose move it is: the board, both clocks, the status and the pool (giving) or the
 *  piece in hand (placing) lie inside the screen, with the page not scrolled. */
async function allInOneScreen(page, what) {
  const r = await page.evaluate(() => {
    const d = document.querySelector('[data-role="game"]').dataset;
    const wanted = ['[data-role="board"]', '[data-role="clock"][data-seat="0"]', '[data-role="clock"][data-seat="1"]', '[data-role="status"]',
      d.phase === 'place' ? '[data-role="in-hand"]' : '[data-role="available"]'];
    const outside = wanted.filter((sel) => {
      const e = document.querySelector(sel);
      if (!e) return true;
      const b = e.getBoundingClientRect();
      return !(b.width > 0 && b.top >= 0 && b.left >= 0 && b.bottom <= window.innerHeight && b.right <= window.innerWidth);
    }).map((sel) => {
      const e = document.querySelector(sel);
      const b = e && e.getBoundingClientRect();
      return `${sel} ${b ? `[${Math.round(b.left)},${Math.round(b.top)} - ${Math.round(b.right)},${Math.round(b.bottom)}]` : 'missing'}`;
    });
    const box = (sel) => { const e = document.querySelector(sel); if (!e) return null; const b = e.getBoundingClientRect(); return [Math.round(b.top), Math.round(b.height), Math.round(b.width)]; };
    if (outside.length) outside.push(JSON.stringify({ stage: box('.stage'), play: box('.play-area'), wrap: box('.board-wrap'), side: box('.side'), viewport: [window.innerWidth, window.innerHeight] }));
    return { scrollY: window.scrollY, outside, phase: d.phase, turn: d.turn, you: d.you };
  });
  assertEqual(r.turn, r.you, `${page.label}, ${what}: it is their move`);
  assertEqual(r.scrollY, 0, `${page.label}, ${what}: the page is not scrolled`);
  assertEqual(r.outside, [], `${page.label}, ${what} (${r.phase}): outside the screen`);
}

scenario('on a phone, the board, both clocks, the status and the pool or the piece in hand fit one screen; room tools in a menu', async () => {
  const phone = { width: 390, height: 844 };
  const [ann, bob] = await Promise.all([newPage('Ann', phone), newPage('Bob', phone)]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann, { claimSeconds: '60' });
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  const mine = (p, phase) => waitGame(p, (ph) => {
    const d = document.querySelector('[data-role="game"]')?.dataset;
    return d && d.turn === d.you && d.phase === ph;
  }, `${p.label} to ${phase}`, phase);
  await allInOneScreen(first, 'the first give');
  await shot(first, 'phone-give');
  // The room's tools are in a menu.
  assert(!(await first.locator('[data-action="leave"]').isVisible()), 'Leave is folded away');
  await first.locator('[data-action="room-menu"]').click();
  await first.locator('[data-action="leave"]').waitFor();
  await first.locator('[data-action="copy-link"]').waitFor();
  await shot(first, 'phone-menu');
  await first.keyboard.press('Escape');
  await first.locator('[data-action="leave"]').waitFor({ state: 'hidden' });
  // Place, give, and the claim window, each on the screen as it comes.
  await give(first, DARK[0]);
  await mine(second, 'place');
  await allInOneScreen(second, 'placing');
  await shot(second, 'phone-place');
  await place(second, 0);
  await allInOneScreen(second, 'giving after placing');
  await give(second, DARK[1]);
  await place(first, 1);
  await give(first, DARK[2]);
  await place(second, 2);
  await give(second, DARK[3]);
  await place(first, 3);
  await give(first, 0); // a row of four dark pieces, not called: the other may claim it
  await second.locator('[data-role="claim"]').waitFor();
  await allInOneScreen(second, 'the claim window');
  await shot(second, 'phone-claim');
  const problems = await axeBothThemes(second, 'a game on a phone', 'axe-phone');
  assert(problems.length === 0, problems.join('\n'));
  await allInOneScreen(second, 'the claim window, after the checks');
  await callQuarto(second, [0, 1, 2, 3]);
  assertEqual((await resultOf(second)).reason, 'missed_quarto', 'claimed from the phone');
  assertEqual(await second.evaluate(() => window.scrollY), 0, 'the whole game without scrolling');
});

scenario('names longer than the server takes are refused in place, counted as the server counts them', async () => {
  const page = await newPage('long-names');
  await page.goto(`${base}/`);
  const input = page.locator('[data-role="name"]');
  // 17 characters but 34 bytes of UTF-8: within the field's length, over the server's 32 bytes.
  await input.fill('é'.repeat(17));
  await input.press('Enter');
  await noticeShown(page, 'error', /too long: at most 32 characters/);
  if (await page.locator('[data-action="create-room"]').isVisible()) throw new Error('a name the server refuses got in');
  // The longest name the server takes goes through, and so does a room name of 32 bytes.
  await input.fill('é'.repeat(16));
  await input.press('Enter');
  await page.locator('[data-action="create-room"]').waitFor();
  if (await page.locator('[data-role="room-name"]').getAttribute('maxlength') !== '32') throw new Error('room name field allows more than 32');
  await moreOptions(page);
  await page.locator('[data-role="room-name"]').fill('ü'.repeat(17));
  await page.locator('[data-action="create-room"]').click();
  await noticeShown(page, 'error', /room's name is too long/);
  await page.locator('[data-role="room-name"]').fill('ü'.repeat(16));
  await page.locator('[data-action="create-room"]').click();
  await page.waitForURL(/#\/room\/[^/]+$/);
});

scenario('a rematch keeps the running score, and an opponent who closed the tab can be claimed against', async () => {
  const ann = await newPage('score-ann');
  const bob = await newPage('score-bob');
  await enter(ann, 'Ann');
  const id = await createRoom(ann);
  await enter(bob, 'Bob');
  await joinAsPlayer(bob, id);
  await started(ann, bob);
  if (await ann.locator('[data-role="score"]').count()) throw new Error('a score before any game ended');
  await resign(bob);
  for (const p of [ann, bob]) {
    await p.locator('[data-role="score"]', { hasText: 'Ann 1 – 0 Bob' }).waitFor();
  }
  for (const p of [ann, bob]) await p.locator('[data-action="rematch"]').click();
  await started(ann, bob);
  await ann.locator('[data-role="score"]', { hasText: 'Ann 1 – 0 Bob' }).waitFor(); // still shown during game 2

  // Bob closes his tab: Ann sees how long he has to come back, then may claim the game.
  await bob.context().close();
  const presence = ann.locator('[data-role="presence"][data-seat="1"]');
  await presence.filter({ hasText: /left the game — 0:0\d to come back/ }).waitFor();
  if (await ann.locator('[data-action="claim-victory"]').count()) throw new Error('claim offered before the time');
  await ann.locator('[data-action="claim-victory"]').click({ timeout: (ABANDON_SECONDS + 5) * 1000 });
  const result = ann.locator('[data-role="result"][data-reason="abandoned"]');
  await result.waitFor();
  const text = await result.textContent();
  if (!/Ann \(you\) wins/.test(text) || !/Bob left the game/.test(text)) throw new Error(`result: ${text}`);
  await ann.locator('[data-role="score"]', { hasText: 'Ann 2 – 0 Bob' }).waitFor();
  await shot(ann, 'claimed-victory');
});

scenario('renaming mid-game keeps the player: the seat, the game and the token; the opponent sees the new name', async () => {
  const ann = await newPage('rename-ann');
  const bob = await newPage('rename-bob');
  await enter(ann, 'Ann');
  const id = await createRoom(ann);
  await enter(bob, 'Bob');
  await joinAsPlayer(bob, id);
  const { first } = await started(ann, bob);
  await give(first, 5);
  const seatOfAnn = (await gameData(ann)).you;

  await ann.locator('[data-action="rename"]').click();
  const input = ann.locator('[data-role="rename-input"]');
  await input.fill('Annie');
  await input.press('Escape'); // changes nothing
  await ann.locator('[data-role="me"]', { hasText: /^Ann$/ }).waitFor();
  await ann.locator('[data-action="rename"]').click();
  await input.fill('  Annabel ');
  await input.press('Enter');
  await ann.locator('[data-role="me"]', { hasText: /^Annabel$/ }).waitFor();
  await bob.locator(`[data-role="player"][data-seat="${seatOfAnn}"]`, { hasText: 'Annabel' }).waitFor();
  // Still seated, in the same game, and the same after a reload (the token did not change).
  const before = await gameData(ann);
  assert(before.you === seatOfAnn && before.status === 'playing', `Ann still plays: ${JSON.stringify(before)}`);
  await ann.reload();
  await ann.locator('[data-role="me"]', { hasText: /^Annabel$/ }).waitFor();
  await waitGame(ann, (s) => document.querySelector('[data-role="game"]')?.dataset.you === s, 'Ann seated after the reload', seatOfAnn);
  const board = await ann.locator('[data-role="game"]').getAttribute('data-status');
  assert(board === 'playing', `the game goes on: ${board}`);
  await shot(bob, 'renamed-opponent');
});

scenario('a spectator sees every move', async () => {
  const [ann, bob, cid] = await Promise.all([newPage('Ann'), newPage('Bob'), newPage('Cid')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob'), enter(cid, 'Cid')]);
  const id = await createRoom(ann);
  await watch(cid, id);
  await ann.locator('[data-role="spectators"]', { hasText: '1 watching' }).waitFor();
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  await waitGame(cid, () => document.querySelector('[data-role="game"]')?.dataset.status === 'playing', 'the spectator to see the start');
  assert((await cid.locator('[data-action="resign"]').count()) === 0, 'a spectator has no resign button');

  const moves = [
    [first, 'give', 9], [second, 'place', 5], [second, 'give', 14], [first, 'place', 10],
    [first, 'give', 2], [second, 'place', 15], [second, 'give', 6], [first, 'place', 0],
    [first, 'give', 12], [second, 'place', 7],
  ];
  for (const [p, kind, arg] of moves) {
    if (kind === 'give') await give(p, arg);
    else await place(p, arg);
    await caughtUp(cid, p);
    assertEqual(await board(cid), await board(p), `spectator board after ${p.label} ${kind} ${arg}`);
    const dc = await gameData(cid);
    const dp = await gameData(p);
    assertEqual([dc.phase, dc.turn], [dp.phase, dp.turn], `spectator phase/turn after ${p.label} ${kind} ${arg}`);
    if (kind === 'give') {
      const hand = await cid.locator('[data-role="in-hand"] [data-hand-piece]').getAttribute('data-hand-piece');
      assertEqual(Number(hand), arg, 'the spectator sees the piece in hand');
    }
  }
  const expected = new Array(16).fill(null);
  expected[5] = 9; expected[10] = 14; expected[15] = 2; expected[0] = 6; expected[7] = 12;
  assertEqual(await board(cid), expected, 'spectator final board');
  const moveCount = await cid.locator('[data-role="moves"] li').count();
  assertEqual(moveCount, moves.length, 'spectator move list length');
  await shot(cid, 'spectator');
  // A wrong call is refused with the server's own reason, and the game goes on: four squares
  // that are no line, then the diagonal, whose pieces share nothing.
  await callQuarto(second, [0, 5, 7, 10]);
  let err = await noticeShown(second, 'error', /do not form a line/);
  assert(err.startsWith('Those 4 squares do not form a line.'), `the wrong call is explained by the server's reason: "${err}"`);
  await callQuarto(second, [0, 5, 10, 15]);
  err = await noticeShown(second, 'error', /share no attribute/);
  assert(/Those 4 pieces share no attribute\..*line of four pieces/.test(err), `the reason, then what a Quarto is: "${err}"`);
  assertEqual((await gameData(second)).status, 'playing', 'the game goes on after a wrong call');
  await resign(second);
  const r = await resultOf(cid);
  assertEqual(r.reason, 'resign', 'spectator sees the resignation');
  assert(r.text.includes(first.label), `spectator result names the winner: "${r.text}"`);
  // A spectator who reloads is back in the audience, with the same board and result.
  await cid.reload();
  await cid.locator('[data-role="result"]').waitFor();
  assertEqual(await board(cid), expected, 'spectator board after a reload');
});

scenario('a reload in the middle of a game restores it', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann, { moveSeconds: '90' });
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  await give(first, 8);
  await place(second, 5);
  await give(second, 11);
  await place(first, 6);
  const moveStarted = Date.now(); // the second's move (and clock) starts with this give, after now
  await give(first, 4);
  await caughtUp(second, first);
  const before = await board(second);
  const beforeData = await gameData(second);
  const movesList = () => second.locator('[data-role="moves"] li').allTextContents();
  const movesBefore = await movesList();
  await second.waitForTimeout(1200); // let the mover's clock run for more than a second

  await second.reload();
  await second.locator('[data-role="game"]').waitFor();
  await waitGame(second, () => document.querySelector('[data-role="game"]')?.dataset.phase === 'place', 'the restored game');
  assertEqual(await board(second), before, 'board after reload');
  const after = await gameData(second);
  assertEqual([after.room, after.you, after.turn, after.phase], [beforeData.room, beforeData.you, beforeData.turn, beforeData.phase], 'seat, turn and phase after reload');
  assert(/place/i.test(await second.locator('[data-role="status"]').textContent()), 'the reloaded player is told to place');
  const hand = await second.locator('[data-role="in-hand"] [data-hand-piece]').getAttribute('data-hand-piece');
  assertEqual(Number(hand), 4, 'piece in hand after reload');
  // The moves read as they did, each placement naming its piece.
  assertEqual(await movesList(), movesBefore, 'the moves listed after reload');

  // Clocks: both views agree (within a second of display, plus the time between reading the
  // two pages, which a loaded machine stretches), and the mover's clock has been running.
  const readStart = Date.now();
  const [cs, cf] = [await clocks(second), await clocks(first)];
  const readMs = Date.now() - readStart;
  const seatSecond = Number(after.you);
  for (const seat of [0, 1]) {
    const a = clockMs(cs.find((c) => c[0] === seat)[1]);
    const b = clockMs(cf.find((c) => c[0] === seat)[1]);
    assert(Number.isFinite(a) && Number.isFinite(b), `clock texts parse: ${JSON.stringify([cs, cf])}`);
    assert(Math.abs(a - b) <= 1500 + readMs, `seat ${seat} clock agrees after reload: ${a} vs ${b} (read ${readMs} ms apart)`);
  }
  // At least 1.2 s of the 90 have gone (whole seconds are shown, rounded up), and at most the
  // time since just before the give, however long the reload took.
  const moverLeft = clockMs(cs.find((c) => c[0] === seatSecond)[1]);
  const atMostGone = Date.now() - moveStarted;
  assert(moverLeft <= 89000 && moverLeft >= 90000 - atMostGone - 1000,
    `the mover's clock kept running through the reload: ${moverLeft} ms left, at most ${atMostGone} ms gone`);
  // It goes on counting down: awaited, since a loaded machine may delay the page's ticks.
  const t1 = moverLeft;
  await waitGame(second, ([seat, before]) => {
    const el = document.querySelector(`[data-role="clock"][data-seat="${seat}"]`);
    const m = el && el.textContent.trim().match(/^(\d+):(\d{2})$/);
    return m && (Number(m[1]) * 60 + Number(m[2])) * 1000 < before;
  }, `the restored clock to count down from ${t1} ms`, [seatSecond, t1]);

  // The game goes on from the reloaded page.
  await place(second, 9);
  await give(second, 13);
  await place(first, 10);
  await caughtUp(second, first);
  const expected = new Array(16).fill(null);
  expected[5] = 8; expected[6] = 11; expected[9] = 4; expected[10] = 13;
  assertEqual(await board(second), expected, 'board after play resumed');
  assertEqual(await board(first), expected, 'opponent board after play resumed');
});

scenario('a lost connection reconnects and catches up with the moves it missed', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann);
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  await give(first, 2);
  await place(second, 4);
  await give(second, 9);
  await caughtUp(first, second);
  // The second player's network drops; the first plays on meanwhile.
  await second.evaluate(() => window.quarto.conn.ws.close());
  await place(first, 8);
  await give(first, 13);
  await waitGame(second, () => {
    const d = document.querySelector('[data-role="game"]')?.dataset;
    return d && d.phase === 'place' && d.turn === d.you;
  }, 'the catch-up after reconnecting');
  await caughtUp(second, first);
  assertEqual(await board(second), await board(first), 'board after reconnecting');
  await place(second, 12);
  await caughtUp(first, second);
  const expected = new Array(16).fill(null);
  expected[4] = 2; expected[8] = 9; expected[12] = 13;
  assertEqual(await board(first), expected, 'board after the reconnected player moved');
});

scenario('a short move clock runs out and both sides see the result', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann, { moveSeconds: '1' });
  await joinAsPlayer(bob, id);
  // The first mover never moves: one second later the game is over.
  const r0 = await resultOf(ann);
  const annSeat = (await gameData(ann)).you;
  const winner = (await ann.locator('[data-role="result"]').getAttribute('data-winner'));
  const [first, second] = winner === annSeat ? [bob, ann] : [ann, bob];
  assert(r0.text.length > 0, 'a result is shown');
  for (const p of [ann, bob]) {
    const r = await resultOf(p);
    assertEqual(r.reason, 'timeout', `${p.label}: result reason`);
    assert(/time/i.test(r.text), `${p.label}: the result says time ran out: "${r.text}"`);
    assert(r.text.includes(`${second.label}`) && r.text.includes(first.label), `${p.label}: the result names both: "${r.text}"`);
    const d = await gameData(p);
    assertEqual(d.status, 'finished', `${p.label}: room finished`);
  }
  const c = await clocks(first);
  const firstSeat = Number((await gameData(first)).you);
  assertEqual(clockMs(c.find((x) => x[0] === firstSeat)[1]), 0, 'the loser\'s clock shows zero');
});

scenario('"Play the computer" with a level: the room starts at once against the computer, named as such, and plays to the end', async () => {
  const ann = await newPage('Ann');
  await enter(ann, 'Ann');
  await ann.locator('[data-role="bot-level"]').selectOption('1');
  await ann.locator('[data-action="play-computer"]').click();
  await ann.waitForURL(/#\/room\/[^/]+$/);
  await waitGame(ann, () => document.querySelector('[data-role="game"]')?.dataset.status === 'playing', 'the game against the computer to start');
  const d0 = await gameData(ann);
  assertEqual(d0.you, '0', 'the creator sits in seat 0');
  const opponent = (await ann.locator('[data-role="player"][data-seat="1"]').textContent()).trim();
  assert(opponent.includes('Computer (level 1)'), `the opponent is named for what it is: "${opponent}"`);
  await shot(ann, 'computer-game');
  // Ann plays the lowest empty square and the lowest piece, never calls; the computer answers
  // each move after its delay (600 ms), until the game is over.
  for (let moves = 0; moves < 40; moves += 1) {
    await waitGame(ann, () => {
      const d = document.querySelector('[data-role="game"]')?.dataset;
      return d && (d.status === 'finished' || d.turn === d.you);
    }, 'Ann\'s turn or the end');
    const d = await gameData(ann);
    if (d.status === 'finished') break;
    if (d.phase === 'place') {
      const empty = (await board(ann)).indexOf(null);
      await place(ann, empty);
      continue;
    }
    const pieces = await ann.locator('[data-role="available"] [data-piece]').evaluateAll((els) => els.map((e) => Number(e.dataset.piece)));
    if (pieces.length) await give(ann, Math.min(...pieces));
    else await ann.locator('[data-action="pass"]').click();
    await waitGame(ann, (before) => document.querySelector('[data-role="game"]')?.dataset.seq !== before, 'the move to show', d.seq);
  }
  const r = await resultOf(ann);
  assert(r.text.length > 0, 'the result is shown');
  assertEqual((await gameData(ann)).status, 'finished', 'the game is over');
  await shot(ann, 'computer-game-over');
});

scenario('phone-sized screen and keyboard play', async () => {
  const phone = { width: 390, height: 844 };
  const [ann, bob] = await Promise.all([newPage('Ann', phone), newPage('Bob', phone)]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann, { moveSeconds: '' });
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  for (const p of [ann, bob]) {
    const texts = (await clocks(p)).map((c) => c[1]);
    assertEqual(texts, ['untimed', 'untimed'], `${p.label}: an untimed room shows no countdown`);
  }
  // Keyboard: focus the piece and press Enter; then place with the keyboard too.
  // Each key press is followed by a wait for the server's answer on the acting page, as
  // give() and place() do: caughtUp() compares sequence numbers as they are, so it passes
  // at once if the place has not reached the server yet.
  const piece = first.locator('[data-role="available"] [data-piece="15"]');
  await piece.focus();
  await first.keyboard.press('Enter');
  await piece.waitFor({ state: 'detached' });
  await second.locator('[data-square="12"]:not([disabled])').focus();
  await second.keyboard.press('Enter');
  await second.locator('[data-square="12"][data-piece]').waitFor();
  await caughtUp(first, second);
  const b = await board(first);
  assertEqual(b[12], 15, 'placed with the keyboard');
  const overflow = await first.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 1, `no horizontal scrolling on a phone (overflow ${overflow}px): ${JSON.stringify(await sticksOut(first))}`);
  await shot(first, 'phone');
});

scenario('a round-robin tournament from registration to the final standings', async () => {
  const phone = { width: 390, height: 844 };
  const [dee, ann, bo, cy, eve] = await Promise.all([newPage('Dee'), newPage('Ann'), newPage('Bo'), newPage('Cy'), newPage('Eve', phone)]);
  await Promise.all([dee, ann, bo, cy, eve].map((p) => enter(p, p.label)));

  // Dee directs (and does not play); the others find the tournament in their lobby.
  // Round 1's first move comes after a spectator and a new page have looked at the board, and
  // its claim (when the call is left to the other player) after a few clicks: clocks long enough
  // for a loaded machine, which cost nothing since nobody runs out of time here.
  const id = await createTournament(dee, { name: 'Club night', moveSeconds: '300', claimSeconds: '60' });
  assertEqual(await dee.locator('[data-role="tournament-status"]').getAttribute('data-status'), 'registering', 'a new tournament registers');
  await ann.locator(`[data-role="tournament-row"][data-tournament-id="${id}"]`).waitFor();
  await shot(ann, 'lobby-tournaments');
  for (const p of [ann, bo, cy, eve]) await joinTournament(p, id);
  // Withdrawing and joining again is the player's own business...
  await cy.locator('[data-action="withdraw-tournament"]').click();
  await cy.locator('[data-action="join-tournament"]:not([disabled])').click();
  await cy.locator('[data-action="withdraw-tournament"]').waitFor();
  // ...removing someone is the director's, with a confirmation.
  await dee.locator('[data-role="tournament-player"]').nth(3).waitFor();
  const eveId = await playerId(eve);
  await dee.locator(`[data-action="remove-player"][data-player="${eveId}"]`).click();
  await dee.locator(`[data-action="confirm-remove"][data-player="${eveId}"]`).click();
  await waitGame(dee, () => document.querySelectorAll('[data-role="tournament-player"]').length === 3, 'three players after the removal');
  await eve.locator('[data-action="join-tournament"]').waitFor();
  for (const p of [ann, eve]) {
    assertEqual(await p.locator('[data-action="start-tournament"], [data-action="remove-player"]').count(), 0, `${p.label} has no director controls`);
  }

  await dee.locator('[data-action="start-tournament"]').click();
  await dee.locator('[data-role="tournament"][data-status="running"]').waitFor();
  // Pausing holds the next round back until the director resumes; the games in play go on.
  await dee.locator('[data-action="pause-tournament"]').click();
  await dee.locator('[data-role="tournament"][data-status="paused"]').waitFor();

  const byId = new Map();
  for (const p of [ann, bo, cy]) byId.set(await playerId(p), p);
  // Whoever comes first in this list wins their game: Ann 2 wins, Bo 1, Cy 0, and a bye each.
  const strength = [ann, bo, cy];
  const stronger = (x, y) => (strength.indexOf(x) < strength.indexOf(y) ? x : y);
  const points = new Map([...byId.keys()].map((k) => [k, 0]));
  const games = []; // {winner, loser}

  for (let round = 1; round <= 3; round++) {
    const { room, players } = await boardOf(dee, round);
    const [pa, pb] = players.map((x) => byId.get(x));
    assert(pa && pb, `round ${round} pairs two of the players: ${players}`);
    const idle = [...byId.entries()].find(([k]) => !players.includes(k));
    points.set(idle[0], points.get(idle[0]) + 1); // the bye
    // Both players are taken to their room, told whom they play.
    await Promise.all([takenTo(pa, room), takenTo(pb, room)]);
    for (const [p, other] of [[pa, pb], [pb, pa]]) {
      const text = await p.locator('[data-role="pairing"]').textContent();
      assert(text.includes(`Round ${round}`) && text.includes(other.label), `${p.label}'s pairing says round ${round} against ${other.label}: "${text}"`);
    }
    if (round === 2) {
      // Round 3 pairs this round's idle player: after a reload, the server still takes them there.
      await idle[1].reload();
      await idle[1].waitForFunction(() => window.quarto && window.quarto.welcomed);
      // A spectator of the tournament page whose connection drops watches it again on reconnecting.
      await eve.evaluate(() => window.quarto.conn.ws.close());
    }
    const { first, second } = await started(pa, pb);
    const winner = stronger(first, second);
    const loser = winner === first ? second : first;
    if (round === 1) {
      // The bye's player is told so on the tournament page, and a spectator watches the board.
      await idle[1].locator('[data-role="my-game"]', { hasText: 'bye' }).waitFor();
      await openTournament(eve, id);
      await eve.locator(`[data-action="watch-board"][data-room="${room}"]`).click();
      await waitGame(eve, (r) => document.querySelector('[data-role="game"]')?.dataset.room === r, 'the spectator in the board', room);
      assertEqual((await gameData(eve)).you, '', 'Eve watches');
      // Someone who knows only the lobby: the game is counted under its tournament, not listed
      // among the rooms; from the tournament's page they watch it, and the board links back.
      const fay = await newPage('Fay');
      await enter(fay, 'Fay');
      const games = fay.locator(`[data-role="tournament-row"][data-tournament-id="${id}"] [data-role="tournament-playing"]`);
      const href = `#/tournament/${encodeURIComponent(id)}`;
      await games.waitFor();
      assert(/1 game playing/.test(await games.textContent()), `the tournament's row counts its game: "${await games.textContent()}"`);
      assertEqual(await games.locator('[data-role="room-tournament"]').getAttribute('href'), href, 'the games line links to the tournament');
      assertEqual(await fay.locator(`[data-role="rooms"] [data-room-id="${room}"]`).count(), 0, 'the game is not among the rooms');
      await shot(fay, 'lobby-tournament-game');
      await games.locator('[data-role="room-tournament"]').click();
      await fay.locator(`[data-action="watch-board"][data-room="${room}"]`).click();
      await waitGame(fay, (r) => document.querySelector('[data-role="game"]')?.dataset.room === r, 'Fay in the board', room);
      assertEqual(await fay.locator('[data-action="tournament-link"]').getAttribute('href'), href, 'the board links to its tournament');
      await shot(first, 'tournament-game');
      // The first player completes a row: calls it to win, or gives instead and the other claims it.
      await fillRowZero(first, second);
      if (winner === first) {
        await callQuarto(first, [0, 1, 2, 3]);
      } else {
        await give(first, 0);
        await second.locator('[data-role="claim"]').waitFor();
        await callQuarto(second, [0, 1, 2, 3]);
      }
    } else {
      await resign(loser);
    }
    games.push({ winner: await playerId(winner), loser: await playerId(loser) });
    points.set(games.at(-1).winner, points.get(games.at(-1).winner) + 1);

    if (round === 1) {
      // Paused: round 1's result stands, there is no rematch, and round 2 waits.
      for (const p of [first, second, eve]) {
        const r = await resultOf(p);
        assertEqual(r.reason, winner === first ? 'quarto' : 'missed_quarto', `${p.label}: round 1 ends with a Quarto`);
        assertEqual(await p.locator('[data-action="rematch"]').count(), 0, `${p.label}: no rematch in a tournament`);
        await p.locator('[data-action="back-to-tournament"]').waitFor();
      }
      await loser.locator('[data-action="back-to-tournament"]').click();
      await eve.locator('[data-action="tournament-link"]').click();
      for (const p of [dee, loser, eve]) {
        await p.locator(`[data-role="standings-row"][data-player="${games[0].winner}"][data-points="1"]`).waitFor();
      }
      assertEqual(await dee.locator('[data-role="tournament"]').getAttribute('data-rounds'), '1', 'paused: no second round yet');
      const cell = dee.locator(`[data-role="crosstable"] [data-player="${games[0].winner}"][data-opponent="${games[0].loser}"]`);
      assertEqual((await cell.textContent()).trim(), '1', 'the crosstable shows the win');
      await shot(dee, 'tournament-midway');
      await shot(eve, 'tournament-phone');
      const overflow = await eve.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert(overflow <= 1, `no horizontal scrolling on a phone (overflow ${overflow}px)`);
      await dee.locator('[data-action="resume-tournament"]').click();
    }
  }

  // The last game ends the tournament: every page shows the final table.
  await dee.locator('[data-role="tournament"][data-status="finished"]').waitFor();
  // Sonneborn-Berger: the final points of each opponent beaten (no draws here).
  const sb = new Map([...byId.keys()].map((k) => [k, 0]));
  for (const g of games) sb.set(g.winner, sb.get(g.winner) + points.get(g.loser));
  const rows = await standingsRows(dee);
  assertEqual(rows.length, 3, 'three players in the standings');
  for (const r of rows) {
    assertEqual(r.points, points.get(r.player), `points of ${byId.get(r.player).label}`);
    assertEqual(r.sb, sb.get(r.player), `SB of ${byId.get(r.player).label}`);
    const better = rows.filter((o) => o.points > r.points || (o.points === r.points && o.sb > r.sb)).length;
    assertEqual(r.rank, better + 1, `rank of ${byId.get(r.player).label}`);
  }
  for (let i = 1; i < rows.length; i++) assert(rows[i - 1].rank <= rows[i].rank, 'standings are in rank order');
  for (const g of games) {
    const cell = (a, b) => dee.locator(`[data-role="crosstable"] [data-player="${a}"][data-opponent="${b}"]`).textContent();
    assertEqual([(await cell(g.winner, g.loser)).trim(), (await cell(g.loser, g.winner)).trim()], ['1', '0'], 'crosstable cells of a game');
  }
  for (const k of byId.keys()) {
    const bye = await dee.locator(`[data-role="bye-cell"][data-player="${k}"]`).textContent();
    assertEqual(bye.trim(), '1', `${byId.get(k).label} had one bye`);
  }
  assertEqual(rows.map((r) => byId.get(r.player).label), ['Ann', 'Bo', 'Cy'], 'the final order');
  const summary = await dee.locator('[data-role="tournament-summary"]').textContent();
  assert(/over/i.test(summary) && summary.includes('Ann wins'), `the summary names the winner: "${summary}"`);
  await openTournament(ann, id);
  await ann.locator('[data-role="my-game"]', { hasText: 'You finished 1st' }).waitFor();
  await eve.locator('[data-role="tournament"][data-status="finished"]').waitFor();
  assertEqual(await eve.locator('[data-role="standings-row"]').count(), 3, 'the reconnected spectator sees the final standings');
  await dee.locator('[data-action="show-round"][data-round="1"]').click();
  await dee.locator('[data-role="round-boards"][data-round="1"]').waitFor();
  await dee.locator('[data-action="show-round"][data-round="3"]').click();
  await shot(dee, 'tournament-final');
  // A finished board replays from the archive.
  await dee.locator('[data-action="show-round"][data-round="1"]').click();
  await dee.locator('[data-role="round-boards"][data-round="1"] [data-action="replay-board"]').click();
  await dee.locator('[data-role="replay"][data-state="ready"]').waitFor();
  // An unknown tournament's address says so in words.
  await eve.evaluate(() => { window.location.hash = '#/tournament/tnosuch00'; });
  const missing = await eve.locator('[data-role="tournament"] [role="alert"]').textContent();
  assert(/does not exist/i.test(missing), `an unknown tournament is explained: "${missing}"`);
}, { timeoutMs: 120000 });

scenario('a Swiss pairing of two games: each player starts one, the second game follows by itself', async () => {
  const [dee, ann, bo] = await Promise.all([newPage('Dee'), newPage('Ann'), newPage('Bo')]);
  await Promise.all([dee, ann, bo].map((p) => enter(p, p.label)));
  const id = await createTournament(dee, { name: 'Two-game Swiss', format: 'swiss', rounds: '1', games: '2' });
  for (const p of [ann, bo]) await joinTournament(p, id);
  await dee.locator('[data-action="start-tournament"]').click();

  const rooms = [];
  for (let game = 1; game <= 2; game++) {
    const room = await dee.locator('[data-role="round-boards"][data-round="1"] [data-role="pairing-row"]').getAttribute('data-room');
    await Promise.all([takenTo(ann, room), takenTo(bo, room)]);
    const { first, second } = await started(ann, bo);
    rooms.push({ room, first: first.label });
    const text = await first.locator('[data-role="pairing"]').textContent();
    assert(text.includes(`game ${game}`) && /you start/.test(text), `${first.label} is told game ${game} and that they start: "${text}"`);
    await resign(first);
    if (game === 1) {
      // Game 2 starts at once in a new room, and the notice still tells how game 1 ended.
      await dee.locator(`[data-role="pairing-row"]:not([data-room="${room}"])`).waitFor();
      const text = await noticeShown(second, 'notice', /game 2/);
      assert(text.includes('Last game') && /resigned/.test(text), `the notice recalls game 1's result: "${text}"`);
      const where = await second.evaluate(() => window.__shownNotices.find((n) => /game 2/.test(n.text)).where);
      assertEqual(where, 'game', 'the notice is in the new game\'s view, under its status line');
    }
  }
  assert(rooms[0].room !== rooms[1].room, 'the second game has its own room');
  assert(rooms[0].first !== rooms[1].first, `each player starts one game: ${rooms.map((r) => r.first)}`);
  await dee.locator('[data-role="tournament"][data-status="finished"]').waitFor();
  const rows = await standingsRows(dee);
  assertEqual(rows.map((r) => r.points), [1, 1], 'one win each');
  assertEqual(rows.map((r) => r.rank), [1, 1], 'a shared first place');
  await dee.locator('[data-role="standings"] abbr', { hasText: 'Buchholz' }).waitFor();
  const [a, b] = [await playerId(ann), await playerId(bo)];
  const cell = await dee.locator(`[data-role="crosstable"] [data-player="${a}"][data-opponent="${b}"]`).textContent();
  assertEqual(cell.trim().split(' ').sort(), ['0', '1'], 'two games in one crosstable cell');
  await shot(dee, 'tournament-swiss');
});

scenario('the director enters the computer in a tournament: it plays its board and counts in the standings', async () => {
  const [dee, ann] = await Promise.all([newPage('Dee'), newPage('Ann')]);
  await Promise.all([dee, ann].map((p) => enter(p, p.label)));
  const id = await createTournament(dee, { name: 'Ann and the machine' });
  await joinTournament(ann, id);
  await dee.locator('[data-role="tournament-bot-level"]').selectOption('1');
  await shot(dee, 'tournament-add-computer');
  await dee.locator('[data-action="add-bot"]').click();
  await dee.locator('[data-role="tournament-player"][data-player="bot-1"][data-bot="1"]').waitFor();
  const name = (await dee.locator('[data-role="tournament-player"][data-player="bot-1"]').textContent()).trim();
  assert(name.includes('Computer (level 1)'), `the computer is listed by its name: "${name}"`);
  await dee.locator('[data-action="add-bot"]').waitFor({ state: 'detached' }); // one computer at most
  await ann.locator('[data-role="tournament-player"][data-player="bot-1"]').waitFor();
  await shot(dee, 'tournament-computer-entered');
  await dee.locator('[data-action="start-tournament"]').click();

  const { room, players } = await boardOf(dee, 1);
  assert(players.includes('bot-1'), `the computer has the round's board: ${players}`);
  await takenTo(ann, room);
  const opponent = (await ann.locator('[data-role="pairing"]').textContent()).trim();
  assert(opponent.includes('Computer (level 1)'), `Ann is told whom she plays: "${opponent}"`);
  // Ann plays four actions (the lowest empty square, the lowest piece), the computer answering
  // each of its turns after its 600 ms: then it has placed a piece too. She resigns.
  let annPlaced = 0;
  const annsTurn = () => waitGame(ann, () => {
    const d = document.querySelector('[data-role="game"]')?.dataset;
    return d && (d.status === 'finished' || d.turn === d.you);
  }, 'Ann\'s turn');
  for (let actions = 0; actions < 4; actions += 1) {
    await annsTurn();
    const d = await gameData(ann);
    if (d.status === 'finished') break;
    if (d.phase === 'place') {
      await place(ann, (await board(ann)).indexOf(null));
      annPlaced += 1;
    } else {
      const pieces = await ann.locator('[data-role="available"] [data-piece]').evaluateAll((els) => els.map((e) => Number(e.dataset.piece)));
      await give(ann, Math.min(...pieces));
    }
    await waitGame(ann, (before) => document.querySelector('[data-role="game"]')?.dataset.seq !== before, 'the move to show', d.seq);
  }
  await annsTurn();
  const filled = (await board(ann)).filter((x) => x !== null).length;
  assert(filled > annPlaced, `the computer placed pieces too: ${filled} on the board, ${annPlaced} of them Ann's`);
  if ((await gameData(ann)).status !== 'finished') await resign(ann);
  await dee.locator('[data-role="tournament"][data-status="finished"]').waitFor();
  const rows = await standingsRows(dee);
  assertEqual(rows[0].player, 'bot-1', 'the computer won the board Ann resigned');
  assertEqual(rows[0].points, 1, 'and has its point');
  await shot(dee, 'tournament-computer-standings');
});

scenario('the pause between tournament rounds: the result stays on screen, a countdown runs, then the board opens', async () => {
  const [dee, ann, bo] = await Promise.all([newPage('Dee'), newPage('Ann'), newPage('Bo')]);
  await Promise.all([dee, ann, bo].map((p) => enter(p, p.label)));
  await dee.locator('[data-action="show-tournament-form"]').click();
  assertEqual(await dee.locator('[data-role="round-pause"]').inputValue(), '20', 'the form offers a pause of 20 s');
  await dee.locator('[data-action="show-tournament-form"]').click(); // closed again: createTournament opens it
  // 3 s: time enough to look at every page during the pause on a loaded machine.
  const id = await createTournament(dee, { name: 'Pause cup', format: 'swiss', rounds: '2', pause: '3' });
  for (const p of [ann, bo]) await joinTournament(p, id);
  await dee.locator('[data-action="start-tournament"]').click();

  const room1 = (await boardOf(dee, 1)).room;
  await Promise.all([takenTo(ann, room1), takenTo(bo, room1)]);
  const { first, second } = await started(ann, bo);
  const ended = Date.now();
  await resign(second);
  // Both players stay on round 1's result, told whom they play next and how long it is until
  // then; the director's page counts down too, round 1's results still on its boards. (All at
  // once: the pause is short.)
  await Promise.all([first, second].map(async (p) => {
    const line = p.locator('[data-role="next-round"]');
    await line.locator('[data-role="round-countdown"]').waitFor();
    const text = await line.textContent();
    const other = p === first ? second : first;
    assert(text.includes('Round 2') && text.includes(other.label), `${p.label} is told round 2 against ${other.label}: "${text}"`);
    assertEqual((await gameData(p)).room, room1, `${p.label} is still in round 1's room`);
    assertEqual((await resultOf(p)).reason, 'resign', `${p.label} still sees round 1's result`);
  }).concat([(async () => {
    await dee.locator('[data-role="next-round"] [data-role="round-countdown"]').waitFor();
    await dee.locator('[data-role="round-boards"][data-round="1"] [data-role="pairing-row"][data-done="true"]').waitFor();
  })()]));
  await shot(first, 'tournament-round-pause');

  // When the pause is over, both are taken to round 2's board.
  await dee.locator('[data-action="show-round"][data-round="2"]').click();
  const room2 = (await boardOf(dee, 2)).room;
  assert(room2 !== room1, 'round 2 has a room of its own');
  await Promise.all([takenTo(ann, room2), takenTo(bo, room2)]);
  const waited = Date.now() - ended;
  assert(waited >= 2500, `round 2 started ${waited} ms after round 1's game ended, before its 3 s pause was over`);
  assertEqual(await dee.locator('[data-role="next-round"]').count(), 0, 'no countdown once the round has started');
});

/** The replay view's state: step, total, load state. */
async function replayData(page) {
  return page.locator('[data-role="replay"]').evaluate((e) => ({ ...e.dataset }));
}

scenario('a finished game replays move by move, from its screen and from Recent games', async () => {
  // Names of their own, so that Recent games lists this game only.
  const [rae, ray] = await Promise.all([newPage('Rae'), newPage('Ray')]);
  await Promise.all([enter(rae, 'Rae'), enter(ray, 'Ray')]);
  const id = await createRoom(rae);
  await joinAsPlayer(ray, id);
  const { first, second } = await started(rae, ray);
  await fillRowZero(first, second);
  await callQuarto(first, [0, 1, 2, 3]);
  assertEqual((await resultOf(first)).reason, 'quarto', 'the game is over');

  // The finished game's screen links to its replay; it opens at the start.
  await first.locator('[data-action="replay"]').click();
  await replayAt(first, 0);
  const gameId = (await replayData(first)).game;
  assert(/^#\/game\/[^/]+$/.test(new URL(first.url()).hash), `the address names the game: ${first.url()}`);
  assertEqual((await replayData(first)).replayTotal, '9', 'four gives, four placements and the call');
  assertEqual(await board(first), new Array(16).fill(null), 'the start: an empty board');
  assertEqual(await first.locator('[data-replay-available] [data-piece]').count(), 16, 'all 16 pieces at the start');
  assert(await first.locator('[data-replay-prev]').isDisabled(), 'no previous move at the start');
  assertEqual(await first.locator('[data-replay-result]').count(), 0, 'no result before the end');

  // Three moves on: give, place on A1, give. The second dark piece is in hand.
  for (let i = 0; i < 3; i++) await first.locator('[data-replay-next]').click();
  await replayAt(first, 3);
  assertEqual(await board(first), [DARK[0], ...new Array(15).fill(null)], 'the board after move 3');
  assertEqual(Number(await first.locator('[data-replay-in-hand]').getAttribute('data-piece')), DARK[1], 'the piece in hand after move 3');
  const left = await first.locator('[data-replay-available] [data-piece]').evaluateAll((els) => els.map((e) => Number(e.dataset.piece)));
  assert(!left.includes(DARK[0]) && !left.includes(DARK[1]) && left.length === 14, `the pieces left after move 3: ${left}`);
  assertEqual(await first.locator('[data-replay-move][aria-current="step"]').getAttribute('data-replay-move'), '3', 'move 3 is highlighted');
  const status = await first.locator('[data-replay-status]').textContent();
  assert(status.includes(second.label) && /gave/.test(status), `the status says who gave: "${status}"`);
  await shot(first, 'replay-move-3');

  // The arrow keys step too; End shows the result.
  await first.keyboard.press('ArrowRight');
  await replayAt(first, 4);
  assertEqual(await board(first), [DARK[0], DARK[1], ...new Array(14).fill(null)], 'the board after move 4');
  await first.keyboard.press('ArrowLeft');
  await replayAt(first, 3);
  await first.keyboard.press('End');
  await replayAt(first, 9);
  const result = first.locator('[data-replay-result]');
  assertEqual(await result.getAttribute('data-reason'), 'quarto', 'the result at the end');
  const text = await result.textContent();
  assert(text.includes(first.label) && /win/i.test(text), `the result names the winner: "${text}"`);
  assertEqual(await board(first), [...DARK, ...new Array(12).fill(null)], 'the final board');
  assertEqual(await highlighted(first), [0, 1, 2, 3], 'the winning line at the end');
  assert(await first.locator('[data-replay-next]').isDisabled(), 'no next move at the end');
  await shot(first, 'replay-end');
  await first.setViewportSize({ width: 390, height: 844 });
  const overflow = await first.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 1, `no horizontal scrolling on a phone (overflow ${overflow}px)`);
  await shot(first, 'replay-phone');

  // A move in the list jumps to it, and the address keeps the step across a reload. The
  // analysis first: its box, above the list on a phone, grows when it comes, and a click as it
  // comes lands where the move was a moment before (run 1 of a repeat loop, 2026-11-27 21:05).
  await first.locator('[data-role="analysis"]:not([data-state="loading"])').waitFor({ timeout: 30000 });
  await first.locator('[data-replay-move="2"] button').click();
  await replayAt(first, 2);
  await first.reload();
  await replayAt(first, 2);
  assertEqual(await board(first), [DARK[0], ...new Array(15).fill(null)], 'the board after a reload at move 2');

  // Recent games in the lobby: the player's own name is filled in and the game is listed.
  await second.evaluate(() => { window.location.hash = '#/'; });
  const recent = second.locator(`[data-role="recent-games"] [data-game-id="${gameId}"]`);
  await recent.waitFor();
  assertEqual(await second.locator('[data-role="recent-games"] [data-game-id]').count(), 1, `${second.label} played one game`);
  assert((await recent.textContent()).includes(`${first.label} beat ${second.label}`), `the listing says who won: "${await recent.textContent()}"`);
  await shot(second, 'lobby-recent-games');
  await recent.locator('[data-action="replay"]').click();
  await replayAt(second, 0);
  assertEqual((await replayData(second)).game, gameId, 'the same game from the lobby');

  // Another name can be looked up too; an unknown game says so.
  await second.evaluate(() => { window.location.hash = '#/'; });
  await second.locator('[data-role="recent-player"]').fill('Nobody at all');
  await second.locator('[data-action="recent-search"]').click();
  await second.locator('[data-role="recent-games"][data-state="ready"]', { hasText: 'No finished games' }).waitFor();
  second.expectedErrors.push(/status of 404/); // Chromium logs the refused fetch
  await second.evaluate(() => { window.location.hash = '#/game/nosuchgame'; });
  await second.locator('[data-role="replay"][data-state="error"]').waitFor();
  assert(/no game/i.test(await second.locator('[data-role="replay-error"]').textContent()), 'an unknown game is explained');
});

scenario('a replay shows who was winning after each move, marks the moves that threw the game away, and the best move on request', async () => {
  const { first, second } = await playAnalysedGame();
  const firstSeat = String((await gameData(first)).you);
  const secondSeat = String((await gameData(second)).you);

  await second.locator('[data-action="replay"]').click();
  await replayAt(second, 0);
  // The analysis comes after the record: the replay works meanwhile.
  await second.locator('[data-role="analysis-bar"][data-state="ready"]').waitFor({ timeout: 30000 });
  await second.locator('[data-role="analysis"][data-state="ready"]').waitFor();
  const marked = await second.locator('[data-analysis-mark="blunder"]').evaluateAll((els) => els.map((e) => Number(e.dataset.replayMove)));
  assertEqual(marked, [7, 9], 'the give of the fourth dark piece and the thrown-away win are marked, nothing else');
  assert((await second.locator('[data-replay-move="9"]').textContent()).includes('??'), 'the mark shows in the move list');

  // The timeline: one cell per move chosen, in the colour of who was winning after it.
  const cells = await second.locator('[data-role="analysis-timeline"] [data-step]').evaluateAll((els) => els.map((e) => ({
    step: Number(e.dataset.step), leader: e.dataset.leader, marked: e.classList.contains('marked') })));
  assertEqual(cells.map((c) => c.step), [1, 3, 5, 7, 9, 11], 'a cell per move, at the step it ended');
  assertEqual(cells.filter((c) => c.marked).map((c) => c.step), [7, 9], 'the two marked moves');
  assertEqual(cells.slice(3).map((c) => c.leader), [firstSeat, secondSeat, secondSeat], 'who was winning after moves 7, 9 and 11');

  // The bar: who was winning after each move.
  const bar = async () => second.locator('[data-role="analysis-bar"]').evaluate((e) => ({ ...e.dataset }));
  await second.locator('[data-replay-move="7"] button').click();
  await replayAt(second, 7);
  assertEqual((await bar()).leader, firstSeat, 'after the fourth dark piece was given, its receiver wins');
  assertEqual((await bar()).distance, '2', 'in two placements: the opponent\'s, then theirs');
  await second.keyboard.press('ArrowRight');
  await second.keyboard.press('ArrowRight');
  await replayAt(second, 9);
  assertEqual((await bar()).leader, secondSeat, 'after the win was thrown away, the other player wins');
  const summary = await second.locator('[data-role="analysis-summary"]').textContent();
  assert(summary.includes(second.label) && /wins/.test(summary), `the panel says who wins: "${summary}"`);
  const mark = second.locator('[data-role="analysis-mark"]');
  assertEqual(await mark.getAttribute('data-seat'), firstSeat, 'the mark names who threw the win away');
  assert(/threw away a win with move 9/.test(await mark.textContent()), `the mark says what happened: "${await mark.textContent()}"`);
  await shot(second, 'replay-analysis-mark');

  // The best move, on request: at the position where it could have been played.
  assertEqual(await second.locator('[data-best="true"]').count(), 0, 'no best move before it is asked for');
  await second.locator('[data-action="show-best-move"]').click();
  await replayAt(second, 7);
  await second.locator('[data-square="3"][data-best="true"]').waitFor();
  const best = second.locator('[data-role="best-move"]');
  assertEqual(await best.getAttribute('data-square'), '3', 'the best move places on D1');
  assert(/D1/.test(await best.textContent()) && /call Quarto/.test(await best.textContent()), `the best move in words: "${await best.textContent()}"`);
  await shot(second, 'replay-analysis-best');
  // Stepping on hides it again; the end shows the result.
  await second.keyboard.press('ArrowRight');
  await replayAt(second, 8);
  assertEqual(await second.locator('[data-best="true"]').count(), 0, 'the best move is shown only at its position');
  await second.keyboard.press('End');
  await replayAt(second, 11);
  assertEqual((await bar()).leader, secondSeat, 'at the end, the winner');
});

/** The text zbarimg reads in a screenshot of `locator`, or null when zbarimg is not installed. */
async function decodeQr(locator, name) {
  try { execFileSync('zbarimg', ['--version'], { stdio: 'ignore' }); } catch { return null; }
  const file = path.join(OUT, `${name}.png`);
  await locator.screenshot({ path: file });
  return execFileSync('zbarimg', ['--quiet', '--nodbus', '--raw', '-Sbinary', file], { stdio: ['ignore', 'pipe', 'pipe'] }).toString().replace(/\n$/, '');
}

scenario('an invitation link is one page (who invites, the room, its clock, a name, Join); the waiting room shows the link and its QR code', async () => {
  const ann = await newPage('Ann');
  await enter(ann, 'Ann');
  // A private room: the lobby does not list it, so the invitation knows it by its id alone.
  await moreOptions(ann);
  await ann.locator('[data-role="room-name"]').fill('Friendly game');
  await ann.locator('[data-action="clock-60"]').click();
  await ann.locator('[data-role="private"]').check();
  await ann.locator('[data-action="create-room"]').click();
  await ann.waitForURL(/#\/room\/[^/]+$/);
  await ann.locator('[data-role="game"][data-status="waiting"]').waitFor();

  // The waiting room: the link as text, its QR code and a copy button.
  const link = (await ann.locator('[data-role="invite-link"]').textContent()).trim();
  assertEqual(link, ann.url(), 'the link shown opens this room');
  const qr = ann.locator('[data-role="invite-qr"]');
  await qr.locator('svg').waitFor();
  await ann.locator('[data-action="copy-invite"]').waitFor();
  const decoded = await decodeQr(qr, 'invite-qr');
  if (decoded !== null) assertEqual(decoded, link, 'zbarimg reads the link in the QR code on the page');
  else console.log('       (zbarimg is not installed: the QR code on the page is not decoded)');
  const problems = await axeBothThemes(ann, 'the waiting room', 'axe-waiting-room');

  // Someone with no name yet opens the link: one page, then the game.
  const bo = await newPage('Bo');
  await bo.goto(link);
  await bo.locator('[data-role="invite"][data-state="open"]').waitFor();
  const title = await bo.locator('[data-role="invite-title"]').textContent();
  assert(title.includes('Ann invites you') && title.includes('Friendly game') && title.includes('60 s per move'),
    `the invitation says who invites, to what, with which clock: "${title}"`);
  assert((await bo.locator('[data-role="invite-rules"]').textContent()).includes('Standard rules'), 'the rules in words');
  assertEqual(await bo.locator('[data-role="name"]').count(), 0, 'no welcome page on the way');
  problems.push(...await axeBothThemes(bo, 'the invitation', 'axe-invitation'));
  await bo.locator('[data-role="invite-name"]').fill('Bo');
  await bo.locator('[data-action="invite-join"]').click();
  await started(ann, bo);
  assertEqual((await gameData(bo)).you, '1', 'Bo sits in the free seat');
  assertEqual(await ann.locator('[data-role="invite-panel"]').count(), 0, 'the invitation goes once the seat is taken');

  // Once both seats are taken, the link says so, and offers to watch.
  const cy = await newPage('Cy');
  await cy.goto(link);
  await cy.locator('[data-role="invite"][data-state="playing"]').waitFor();
  const full = await cy.locator('[data-role="invite-title"]').textContent();
  assert(full.includes('Ann and Bo are already playing'), `the seats are taken: "${full}"`);
  await cy.locator('[data-role="invite-name"]').fill('Cy');
  await cy.locator('[data-action="invite-watch"]').click();
  await cy.locator('[data-role="game"][data-status="playing"]').waitFor();
  assertEqual((await gameData(cy)).you, '', 'Cy watches');

  // A link to a room that is gone says so.
  const di = await newPage('Di');
  di.expectedErrors.push(/status of 404/); // Chromium logs the refused fetch
  await di.goto(`${base}/#/room/nosuchroom`);
  await di.locator('[data-role="invite"][data-state="missing"]').waitFor();
  assert(/expired/.test(await di.locator('[data-role="invite-title"]').textContent()), 'an unknown room is explained');
  await shot(di, 'invitation-expired');
  assert(problems.length === 0, problems.join('\n'));
});

scenario('the invitation\'s QR code library: loaded with the first invitation, its code put into the panel on the page; without it, the link and the button', async () => {
  const LIBRARY = '**/javascript/qrcode-generator/qrcode.js';
  // The library held back: the panel is drawn without a code, and gets it once the library is
  // there, with nothing happening in the room to redraw the view.
  const ann = await newPage('Ann');
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const asked = [];
  await ann.route(LIBRARY, async (route) => { asked.push(route.request().url()); await held; await route.continue(); });
  await enter(ann, 'Ann');
  assertEqual(asked.length, 0, 'the lobby does not load the library');
  await createRoom(ann);
  const panel = ann.locator('[data-role="invite-panel"]');
  await panel.waitFor();
  assertEqual(await ann.locator('[data-role="invite-qr"]').count(), 0, 'no code while the library loads');
  assert(!/scan/.test(await panel.textContent()), `no word of scanning before there is a code: "${await panel.textContent()}"`);
  await ann.locator('[data-role="invite-link"]').waitFor();
  await ann.locator('[data-action="copy-invite"]').waitFor();
  const before = await panel.elementHandle();
  release();
  await ann.locator('[data-role="invite-qr"] svg').waitFor();
  assert(await before.evaluate((e) => e.isConnected), 'the code went into the panel already on the page');
  assert(/scan/.test(await panel.textContent()), 'the panel speaks of scanning once there is a code');
  assertEqual(asked.length, 1, 'one request for the library');
  assert(new URL(asked[0]).pathname === '/javascript/qrcode-generator/qrcode.js', `the library's address: ${asked[0]}`);
  const link = (await ann.locator('[data-role="invite-link"]').textContent()).trim();
  const decoded = await decodeQr(ann.locator('[data-role="invite-qr"]'), 'invite-qr-late');
  if (decoded !== null) assertEqual(decoded, link, 'zbarimg reads the link in the code put in late');

  // A server without node-qrcode-generator: a 404, and the panel stays the link and the button.
  const bo = await newPage('Bo');
  bo.expectedErrors.push(/status of 404/); // Chromium logs the refused script
  await bo.route(LIBRARY, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
  await enter(bo, 'Bo');
  const refused = bo.waitForResponse((r) => r.url().includes('/javascript/qrcode-generator/'));
  await createRoom(bo);
  await refused;
  const boPanel = bo.locator('[data-role="invite-panel"]');
  await boPanel.waitFor();
  await bo.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200))); // the script's error event
  assertEqual(await bo.locator('[data-role="invite-qr"]').count(), 0, 'no code without the library');
  assert(!/scan/.test(await boPanel.textContent()), `no word of scanning: "${await boPanel.textContent()}"`);
  assertEqual((await bo.locator('[data-role="invite-link"]').textContent()).trim(), bo.url(), 'the link is there');
  await bo.locator('[data-action="copy-invite"]').waitFor();
});

scenario('the lobby lists open rooms, then games in progress, the finished ones folded away, and a tournament\'s games under it', async () => {
  const [ann, bob, eve] = await Promise.all([newPage('Ann'), newPage('Bob'), newPage('Eve')]);
  await Promise.all([ann, bob, eve].map((p) => enter(p, p.label)));
  // A finished game (both stay seated), a game in progress, an open room.
  const done = await createRoom(ann);
  await joinAsPlayer(bob, done);
  const d = await started(ann, bob);
  await resign(d.first);
  await resultOf(d.second);
  await ann.evaluate(() => { window.location.hash = '#/'; });
  const playing = await createRoom(ann);
  await joinAsPlayer(bob, playing);
  await started(ann, bob);
  await ann.evaluate(() => { window.location.hash = '#/'; });
  const open = await createRoom(ann);
  // A tournament's game: Bob directs and plays, Ann plays.
  await bob.evaluate(() => { window.location.hash = '#/'; });
  const tid = await createTournament(bob, { name: 'Lobby cup' });
  await ann.evaluate(() => { window.location.hash = '#/'; });
  await joinTournament(ann, tid);
  await bob.locator('[data-action="join-tournament"]:not([disabled])').click();
  await bob.locator('[data-action="start-tournament"]:not([disabled])').click();
  await bob.waitForURL(/#\/room\/[^/]+$/);
  const game = decodeURIComponent(bob.url().slice(bob.url().indexOf('#/room/') + 7));
  await Promise.all([takenTo(ann, game), takenTo(bob, game)]);

  // Eve's lobby, at its next refresh.
  const games = eve.locator(`[data-role="tournament-row"][data-tournament-id="${tid}"] [data-role="tournament-playing"]`);
  await games.waitFor();
  await eve.locator(`[data-role="rooms"] [data-room-id="${playing}"] .pill.playing`).waitFor();
  const active = await eve.locator('[data-role="rooms"] > ul.rooms > [data-room-id]').evaluateAll((els) => els.map((e) => e.dataset.roomId));
  assert(active.includes(open) && active.includes(playing), `both rooms are listed: ${active}`);
  assert(active.indexOf(open) < active.indexOf(playing), `the open room comes before the game in progress: ${active}`);
  assert(!active.includes(done), 'the finished room is not among them');
  // The finished room is in the folded group, closed.
  const finished = eve.locator('[data-role="finished-rooms"]');
  assert(await finished.locator(`[data-room-id="${done}"]`).count() === 1, 'the finished room is in the finished group');
  assert(!(await finished.evaluate((e) => e.open)), 'the group is closed');
  assert(!(await finished.locator(`[data-room-id="${done}"]`).isVisible()), 'so the finished room is out of sight');
  const summary = await finished.locator('[data-action="show-finished"]').textContent();
  assert(/^Finished \(\d+\)$/.test(summary.trim()), `the group says how many: "${summary}"`);
  // The tournament's game is not among the rooms but under its tournament.
  assertEqual(await eve.locator(`[data-role="rooms"] [data-room-id="${game}"]`).count(), 0, 'the tournament game is not among the rooms');
  assertEqual(await games.getAttribute('data-playing'), '1', 'the tournament counts its game in progress');
  await shot(eve, 'lobby-groups');
  // Opened, the group stays open across the next refresh.
  await finished.locator('[data-action="show-finished"]').click();
  await finished.locator(`[data-room-id="${done}"]`).waitFor();
  const at = await eve.evaluate(() => window.quarto.lobby.at);
  await eve.waitForFunction((t) => window.quarto.lobby.at > t, at);
  assert(await finished.evaluate((e) => e.open), 'still open after a refresh');
  assert(await finished.locator(`[data-room-id="${done}"]`).isVisible(), 'the finished room in sight');
  // The games line leads to the tournament's boards.
  await games.locator('[data-role="room-tournament"]').click();
  await eve.locator(`[data-action="watch-board"][data-room="${game}"]`).waitFor();
});

// Last: it restarts the server. The game in progress survives it (the journal).
scenario('a server restart is announced, the pages reconnect and the game goes on where it stood', async () => {
  const [ann, bob, cy] = await Promise.all([newPage('Ann'), newPage('Bob'), newPage('Cy')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob'), enter(cy, 'Cy')]);
  const id = await createRoom(ann, { moveSeconds: '90' });
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  await watch(cy, id);
  await give(first, 8);
  await place(second, 5);
  await give(second, 11);
  await caughtUp(first, second);
  const before = await board(first);
  const ids = await Promise.all([ann, bob].map((p) => p.evaluate(() => window.quarto.me.id)));
  const port = Number(new URL(base).port);
  // A reconnect attempt while the server is down is refused, and Chromium logs that.
  for (const p of [ann, bob, cy]) p.expectedErrors.push(/ERR_CONNECTION_REFUSED/);
  await ann.evaluate(() => {
    window.__attempts = [];
    window.quarto.conn.addEventListener('state', (e) => { if (e.detail === 'connecting') window.__attempts.push(Date.now()); });
  });
  await stopServer(); // SIGTERM: the pages get 1012 "server restarting"
  await Promise.all([ann, bob, cy].map((p) => noticeShown(p, 'notice', /The server is restarting/)));
  await ann.locator('#conn', { hasText: 'The server is restarting' }).waitFor();
  // A restart may take longer than a notice's few seconds: it stays while the server is away.
  const restartNotice = ann.locator('#notices [data-role="notice"]', { hasText: 'The server is restarting' });
  // The time the server is down is nobody's: the clocks on the page stand still meanwhile.
  const clocks = () => ann.locator('[data-role="clock"]').allTextContents();
  const clocksAtClose = await clocks();
  await ann.waitForTimeout(6000);
  assert(await restartNotice.isVisible(), 'the restart notice stays while the server is away');
  assertEqual(await clocks(), clocksAtClose, 'the clocks while the server is away');
  // The server said it would be back: the page tries again every half second or so, not after a
  // backoff grown over the outage (the mover's clock runs from the moment the server is back).
  const attempts = await ann.evaluate(() => window.__attempts);
  const gaps = attempts.slice(1).map((t, i) => t - attempts[i]);
  assert(attempts.length >= 8 && Math.max(...gaps) < 1000, `tries while the server is away, ms apart: ${gaps.join(', ')}`);
  await shot(ann, 'restarting');
  await startServer(port);
  // Both come back as themselves, by their tokens, with the room as it stood.
  await Promise.all([ann, bob].map((p, i) => p.waitForFunction((old) => window.quarto.welcomed && window.quarto.me.id === old,
    ids[i], { timeout: 20000 })));
  // Once back, the page no longer says it is reconnecting.
  await Promise.all([ann, bob].map((p) => noticeShown(p, 'notice', /The server is back/)));
  await restartNotice.waitFor({ state: 'detached' });
  await waitGame(first, () => document.querySelector('[data-role="game"]')?.dataset.phase === 'place', 'the restored game');
  assertEqual(await board(first), before, 'the board after the restart');
  const hand = await first.locator('[data-role="in-hand"] [data-hand-piece]').getAttribute('data-hand-piece');
  assertEqual(Number(hand), 11, 'the piece in hand after the restart');
  // And the game goes on.
  await place(first, 6);
  await give(first, 4);
  await caughtUp(second, first);
  const expected = new Array(16).fill(null);
  expected[5] = 8; expected[6] = 11;
  assertEqual(await board(second), expected, 'the opponent sees the move made after the restart');
  // The spectator's place was forgotten with the old process; the page watches again by itself.
  await caughtUp(cy, first);
  assertEqual(await board(cy), expected, 'the spectator sees the move made after the restart');
  await noticeShown(cy, 'notice', /The server is back/);
  // A spectator's token does not outlive the process (only seats' do): the page starts again as
  // a new player, quietly, since nothing of the spectator's was lost.
  const cyNotices = await cy.evaluate(() => window.__shownNotices.map((n) => n.text));
  assert(!cyNotices.some((t) => /could not be resumed/.test(t)), `the spectator is not told a session was lost: ${cyNotices.join(' | ')}`);
  await shot(first, 'after-restart');
  await shot(cy, 'after-restart-spectator');
});

scenario('a tournament through a restart: its game goes on, a claim window open at the restart still open, the next round follows', async () => {
  const [dee, ann, bo, cy] = await Promise.all([newPage('Dee'), newPage('Ann'), newPage('Bo'), newPage('Cy')]);
  const everyone = [dee, ann, bo, cy];
  await Promise.all(everyone.map((p) => enter(p, p.label)));
  // A pause between rounds long enough to read round 1's result on a loaded machine.
  const id = await createTournament(dee, { name: 'Restart cup', moveSeconds: '300', claimSeconds: '60', pause: '4' });
  for (const p of [ann, bo, cy]) await joinTournament(p, id);
  await dee.locator('[data-role="tournament-player"]').nth(2).waitFor();
  await dee.locator('[data-action="start-tournament"]').click();
  const byId = new Map();
  for (const p of [ann, bo, cy]) byId.set(await playerId(p), p);
  const { room, players } = await boardOf(dee, 1);
  const [pa, pb] = players.map((x) => byId.get(x));
  await Promise.all([takenTo(pa, room), takenTo(pb, room)]);
  const { first, second } = await started(pa, pb);
  await fillRowZero(first, second);
  await give(first, 0); // without a call: the other player may claim the row
  const claim = second.locator('[data-role="claim"]');
  await claim.waitFor();

  const ids = await Promise.all(everyone.map(playerId));
  const port = Number(new URL(base).port);
  for (const p of everyone) p.expectedErrors.push(/ERR_CONNECTION_REFUSED/);
  await stopServer();
  await Promise.all(everyone.map((p) => noticeShown(p, 'notice', /The server is restarting/)));
  await second.waitForTimeout(2000);
  await startServer(port);
  // The server said it was restarting: the pages try again every half second, not after a
  // backoff grown over the outage, since the mover's clock runs from the moment it is back.
  const back = Date.now();
  const delays = await Promise.all(everyone.map((p, i) => p.waitForFunction((old) => window.quarto.welcomed && window.quarto.me.id === old,
    ids[i], { timeout: 20000 }).then(() => Date.now() - back)));
  assert(delays.every((ms) => ms < 3000), `every page is back within 3 s of the server: ${delays.join(', ')} ms`);

  // The claim window is open again, for the rest of its 60 s.
  await claim.waitFor();
  const left = (await claim.textContent()).match(/(\d+):(\d{2}) left/);
  assert(left && Number(left[1]) * 60 + Number(left[2]) >= 50, `the claim window reopened with most of its minute: "${await claim.textContent()}"`);
  await dee.locator('[data-role="tournament"][data-status="running"]').waitFor();
  await dee.locator(`[data-role="round-boards"][data-round="1"] [data-role="pairing-row"][data-room="${room}"]:not([data-done="true"])`).waitFor();
  await shot(second, 'tournament-restart-claim');
  await callQuarto(second, [0, 1, 2, 3]);
  for (const p of [first, second]) assertEqual((await resultOf(p)).reason, 'missed_quarto', `${p.label}: the claim made after the restart wins`);
  const cell = dee.locator(`[data-role="crosstable"] [data-player="${await playerId(second)}"][data-opponent="${await playerId(first)}"]`);
  await cell.filter({ hasText: /^\s*1\s*$/ }).waitFor();

  // Round 2 follows by itself after the pause, with a board of its own.
  await dee.locator('[data-action="show-round"][data-round="2"]').click();
  const next = await boardOf(dee, 2);
  assert(next.room !== room, 'round 2 has a room of its own');
  await Promise.all(next.players.map((x) => takenTo(byId.get(x), next.room)));
}, { timeoutMs: 90000 });

await run();
