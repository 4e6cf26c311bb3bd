// The game screen as a player sees it: the board fitting the window, its coordinates, the prompts
// and where the keyboard's focus goes (harness.mjs runs them).
//
//   QUARTO_SERVER=/path/to/quarto-server QUARTO_WEB_ROOT=/path/to/web E2E_OUT=/tmp/e2e node game-screen.mjs

import {
  DARK, newPage, noticeShown, enter, moreOptions, createRoom, joinAsPlayer, gameData, waitGame, started, give, place,
  callQuarto, resign, resultOf, assert, assertEqual, shot, axeBothThemes, fillRowZero, createTournament,
  joinTournament, takenTo, scenario, run,
} from './harness.mjs';

const PHONE = { width: 390, height: 844 };
// The screens the game must fit without scrolling: a 1366x768 laptop's browser window, a
// 1280x720 one, a full HD screen and a phone.
const SCREENS = [
  { width: 1366, height: 657 }, { width: 1280, height: 720 }, { width: 1920, height: 1080 }, PHONE,
];
const size = (v) => `${v.width}x${v.height}`;

/** The replay view's step. */
async function replayAt(page, step) {
  await page.locator(`[data-role="replay"][data-state="ready"][data-replay-step="${step}"]`).waitFor();
}

/** Plays the game of the analysis scenario: moves 7 and 9 change the result; 11 moves. */
async function analysedGame() {
  const [ana, ari] = await Promise.all([newPage('Ana', SCREENS[0]), newPage('Ari', SCREENS[0])]);
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

/** Presses the control `hook` with the mouse `times` times where it was first found, and checks
 *  each time that the page did not scroll and the control stayed under the pointer. */
async function pressInPlace(page, hook, times, what) {
  const control = page.locator(`[${hook}]`);
  const box = await control.boundingBox();
  const scrollY = await page.evaluate(() => window.scrollY);
  for (let i = 0; i < times; i++) {
    const step = Number((await page.locator('[data-role="replay"]').getAttribute('data-replay-step')));
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await replayAt(page, hook === 'data-replay-next' ? step + 1 : step - 1);
    assertEqual(await page.evaluate(() => window.scrollY), scrollY, `${what}: press ${i + 1} of ${hook} leaves the page where it was`);
    const now = await control.boundingBox();
    assert(Math.abs(now.x - box.x) < 1 && Math.abs(now.y - box.y) < 1, `${what}: press ${i + 1} of ${hook} leaves it under the pointer: ${JSON.stringify([box, now])}`);
  }
}

scenario('the replay\'s controls stay under the pointer, and Show best move says where it went', async () => {
  const { second } = await analysedGame();
  await second.locator('[data-action="replay"]').click();
  await replayAt(second, 0);
  await second.locator('[data-role="analysis"][data-state="ready"]').waitFor({ timeout: 30000 });
  await pressInPlace(second, 'data-replay-next', 10, size(SCREENS[0]));
  await pressInPlace(second, 'data-replay-prev', 3, size(SCREENS[0]));
  await shot(second, 'replay-steps-desktop');
  // At move 9, the move that threw the win away: its best move is at move 7, where it was chosen.
  await second.keyboard.press('ArrowRight');
  await second.keyboard.press('ArrowRight');
  await replayAt(second, 9);
  const button = second.locator('[data-action="show-best-move"]');
  assert(/move 7/.test(await button.textContent()), `the button says where it goes: "${await button.textContent()}"`);
  await button.click();
  await replayAt(second, 7);
  const best = second.locator('[data-role="best-move"]');
  const text = await best.textContent();
  assert(/move 7/.test(text) && /moves 8 and 9/.test(text) && /D1/.test(text), `what Show best move did, in words: "${text}"`);
  await shot(second, 'replay-best-move');

  // On a phone: the controls come into view once, then stay.
  await second.setViewportSize(PHONE);
  await second.keyboard.press('Home');
  await replayAt(second, 0);
  await second.locator('[data-replay-next]').scrollIntoViewIfNeeded();
  await pressInPlace(second, 'data-replay-next', 6, size(PHONE));
  await pressInPlace(second, 'data-replay-prev', 2, size(PHONE));
  await shot(second, 'replay-steps-phone');
});

await run();
