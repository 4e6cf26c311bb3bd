// The game screen as a player sees it: the board fitting the window, its coordinates, the prompts
// and where the keyboard's focus goes (harness.mjs runs them).
//
//   QUARTO_SERVER=/path/to/quarto-server QUARTO_WEB_ROOT=/path/to/web E2E_OUT=/tmp/e2e node game-screen.mjs

import {
  DARK, newPage, noticeShown, enter, moreOptions, createRoom, joinAsPlayer, waitGame, started, give, place,
  resign, resultOf, assert, assertEqual, shot, axeBothThemes, fillRowZero, createTournament,
  joinTournament, takenTo, replayAt, playAnalysedGame, scenario, run,
} from './harness.mjs';

const PHONE = { width: 390, height: 844 };
// The screens the game must fit without scrolling: a 1366x768 laptop's browser window, a
// 1280x720 one, a full HD screen and a phone.
const SCREENS = [
  { width: 1366, height: 657 }, { width: 1280, height: 720 }, { width: 1920, height: 1080 }, PHONE,
];
const size = (v) => `${v.width}x${v.height}`;

/** Waits until it is `page`'s turn to `phase` (give or place). */
function myTurn(page, phase) {
  return waitGame(page, (ph) => {
    const d = document.querySelector('[data-role="game"]')?.dataset;
    return d && d.turn === d.you && d.phase === ph;
  }, `${page.label} to ${phase}`, phase);
}

/**
 * What a player needs to move that lies outside the window as the page stands (not scrolled by
 * the test): the board, both clocks, the status line, the Quarto! button, and the pool while
 * giving or the piece in hand while placing. Returns the list with the boxes, [] when all fit.
 */
async function outsideScreen(page) {
  return page.evaluate(() => {
    const d = document.querySelector('[data-role="game"]').dataset;
    const wanted = ['[data-role="board"]', '[data-role="clock"][data-seat="0"]', '[data-role="clock"][data-seat="1"]',
      '[data-role="status"]', '[data-action="quarto"]', d.phase === 'place' ? '[data-role="in-hand"]' : '[data-role="available"]'];
    const out = [];
    for (const sel of wanted) {
      const e = document.querySelector(sel);
      const b = e && e.getBoundingClientRect();
      if (b && b.width > 0 && b.top >= 0 && b.left >= 0 && b.bottom <= window.innerHeight && b.right <= window.innerWidth) continue;
      out.push(`${sel} ${b ? `[${Math.round(b.left)},${Math.round(b.top)} - ${Math.round(b.right)},${Math.round(b.bottom)}]` : 'missing'}`);
    }
    if (window.scrollY !== 0) out.push(`scrolled by ${window.scrollY}`);
    return out;
  });
}

/** Checks at every screen size that `page` shows what it needs to move; a screenshot of each. */
async function fitsEveryScreen(page, what, name) {
  for (const v of SCREENS) {
    await page.setViewportSize(v);
    await page.evaluate(() => window.scrollTo(0, 0));
    // The board is sized after the resize: give it its frame.
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    assertEqual(await outsideScreen(page), [], `${page.label}, ${what}, at ${size(v)}: outside the window`);
    await shot(page, `${name}-${size(v)}`);
  }
}

scenario('the game fits the window at 1366x657, 1280x720, 1920x1080 and on a phone: board, pieces, clocks, status and Quarto! without scrolling', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann', SCREENS[0]), newPage('Bob', SCREENS[0])]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann, { claimSeconds: '120' });
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  await fitsEveryScreen(first, 'the first give', 'fit-give');
  await give(first, DARK[0]);
  await myTurn(second, 'place');
  await fitsEveryScreen(second, 'placing', 'fit-place');
  await place(second, 0);
  await give(second, DARK[1]);
  await place(first, 1);
  await give(first, DARK[2]);
  await place(second, 2);
  await give(second, DARK[3]);
  await place(first, 3);
  await fitsEveryScreen(first, 'giving after a placement that filled a row', 'fit-give-after');
  await give(first, 0);
  // The claim window's prompt takes room above the board: the board makes way.
  await second.locator('[data-role="claim"]').waitFor();
  await fitsEveryScreen(second, 'the claim window', 'fit-claim');
});

scenario('the missed-Quarto prompt is neutral: the Quarto! button keeps its colour, the squares it speaks of are marked, a 2×2 square is a square, a losing wrong call is said', async () => {
  const [cy, di] = await Promise.all([newPage('Cy'), newPage('Di')]);
  await Promise.all([enter(cy, 'Cy'), enter(di, 'Di')]);
  // The advanced variant (2×2 squares count), where a wrong call loses the game.
  await cy.locator('[data-action="preset-advanced"]').click();
  await moreOptions(cy);
  await cy.locator('[data-role="false-claim"]').check();
  const id = await createRoom(cy, { claimSeconds: '120' });
  assert(/wrong call loses/.test(await cy.locator('.room-head .rules').textContent()), 'the room says a wrong call loses');
  await joinAsPlayer(di, id);
  const { first, second } = await started(cy, di);
  const quartoLooks = (p) => p.locator('[data-action="quarto"]').evaluate((b) => {
    const s = getComputedStyle(b);
    return { background: s.backgroundColor, border: s.borderColor, color: s.color, animation: s.animationName };
  });
  // Pieces 0, 8, 2, 4 share nothing but "light", in the square B2 C2 B3 C3.
  await give(first, 0);
  await place(second, 5);
  await give(second, 8);
  await place(first, 6);
  await give(first, 2);
  await place(second, 9);
  // The second player may call now (after their own placement): the button as it always looks.
  const usual = await quartoLooks(second);
  await give(second, 4);
  await place(first, 10);
  await give(first, 1);
  const prompt = second.locator('[data-role="claim"]');
  await prompt.waitFor();
  const text = (await prompt.textContent()).replace(/\s+/g, ' ');
  assert(/the square B2 C2 B3 C3/.test(text) && !/line B2/.test(text), `the prompt calls the 2×2 square a square: "${text}"`);
  assert(/wrong call loses/i.test(text), `the prompt says that a wrong call loses here: "${text}"`);
  assertEqual(await quartoLooks(second), usual, 'the Quarto! button keeps its usual look during the prompt');
  const marked = await second.locator('[data-role="board"] [data-square][data-claim-line]')
    .evaluateAll((els) => els.map((e) => Number(e.dataset.square)).sort((a, b) => a - b));
  assertEqual(marked, [5, 6, 9, 10], 'the squares the prompt speaks of are marked on the board');
  // Nor is the prompt itself in an alarm colour: it is a card like the players'.
  const [promptBg, cardBg] = await second.evaluate(() => [document.querySelector('[data-role="claim"]'), document.querySelector('[data-role="player"]')]
    .map((e) => getComputedStyle(e).backgroundColor));
  assertEqual(promptBg, cardBg, 'the prompt has the cards\' background');
  const problems = await axeBothThemes(second, 'the claim prompt', 'claim-prompt-desktop');
  await second.setViewportSize(PHONE);
  await prompt.waitFor();
  problems.push(...await axeBothThemes(second, 'the claim prompt on a phone', 'claim-prompt-phone'));
  assert(problems.length === 0, problems.join('\n'));
  // The other player is told the window is open, not what is in it.
  assert(/may still claim/.test(await first.locator('.claim-note').textContent()), 'the placer sees the window open');
});

scenario('the winner of a game the opponent leaves is told so, and the score stays, even after a new snapshot', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await enter(ann, 'Ann');
  const id = await createRoom(ann);
  await enter(bob, 'Bob');
  await joinAsPlayer(bob, id);
  await started(ann, bob);
  await bob.locator('[data-action="leave"]').click();
  await bob.locator('[data-action="confirm-resign"]').click();
  await bob.locator('[data-action="create-room"]').waitFor();
  const result = ann.locator('[data-role="result"]');
  await result.waitFor();
  const said = async (what) => {
    const text = (await result.textContent()).trim();
    assert(/^You win — Bob left/.test(text), `${what}: the result says Bob left: "${text}"`);
    await ann.locator('[data-role="score"]', { hasText: 'Ann 1 – 0 Bob' }).waitFor({ timeout: 5000 });
  };
  await said('at once');
  // The room waits for a new opponent meanwhile, its link at hand.
  await ann.locator('[data-role="game"][data-status="waiting"]').waitFor();
  await ann.locator('[data-role="invite-link"]').waitFor();
  await shot(ann, 'opponent-left');
  // The server's snapshot of the room has forgotten the game: the page has not.
  await ann.evaluate(() => window.quarto.conn.ws.close());
  await ann.waitForFunction(() => window.quarto.welcomed === false);
  await ann.waitForFunction(() => window.quarto.welcomed === true);
  await ann.waitForTimeout(300); // the resume's snapshot
  await said('after a reconnection');
  // A new opponent starts a new game, and a new pair's score.
  const cy = await newPage('Cy');
  await enter(cy, 'Cy');
  await joinAsPlayer(cy, id);
  await started(ann, cy);
  assertEqual(await ann.locator('[data-role="result"], [data-role="score"]').count(), 0, 'no result nor score of the last pair in the new game');
  assertEqual(await ann.locator('[data-role="moves"] li').count(), 0, 'a new game\'s moves');
});

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
  const { second } = await playAnalysedGame(SCREENS[0]);
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

/** Whether each coordinate label of `boardSel` names the row or column it stands by, as the
 *  squares' own names say; returns what is wrong. */
async function coordinateProblems(page, boardSel) {
  return page.evaluate((sel) => {
    const board = document.querySelector(sel);
    const wrong = [];
    const labels = [...document.querySelectorAll('[data-board-coord]')].filter((l) => l.closest('.board-frame')?.contains(board));
    const texts = labels.map((l) => l.textContent.trim()).sort().join('');
    if (texts !== '1234ABCD') wrong.push(`labels ${texts}`);
    for (const l of labels) {
      if (!l.closest('[aria-hidden="true"]')) wrong.push(`${l.textContent} is read aloud`);
      const lb = l.getBoundingClientRect();
      const col = /[A-D]/.test(l.textContent.trim());
      for (const sq of board.querySelectorAll('[data-square]')) {
        const name = sq.getAttribute('aria-label').slice(0, 2);
        if (!name.includes(l.textContent.trim())) continue;
        const b = sq.getBoundingClientRect();
        const mid = col ? lb.left + lb.width / 2 : lb.top + lb.height / 2;
        const [from, to] = col ? [b.left, b.right] : [b.top, b.bottom];
        if (mid < from || mid > to) wrong.push(`${l.textContent} is not by ${name}`);
        if (lb.width === 0 || lb.height === 0) wrong.push(`${l.textContent} is not shown`);
      }
    }
    return wrong;
  }, boardSel);
}

scenario('the board has its coordinates, A–D and 1–4 as the squares are named, in the game and the replay, not read aloud twice', async () => {
  const { first, second } = await playAnalysedGame(SCREENS[0]);
  for (const v of [SCREENS[0], PHONE]) {
    await first.setViewportSize(v);
    assertEqual(await coordinateProblems(first, '[data-role="board"]'), [], `the game at ${size(v)}`);
    await shot(first, `coordinates-game-${size(v)}`);
  }
  await second.locator('[data-action="replay"]').click();
  await replayAt(second, 0);
  for (const v of [SCREENS[0], PHONE]) {
    await second.setViewportSize(v);
    assertEqual(await coordinateProblems(second, '[data-role="replay-board"]'), [], `the replay at ${size(v)}`);
    await shot(second, `coordinates-replay-${size(v)}`);
  }
  // The move list speaks in these names.
  const move = await second.locator('[data-replay-move="2"]').textContent();
  assert(/A1/.test(move), `the move list names A1: "${move}"`);
  // So does How to play, under its small boards: they have coordinates too.
  await second.evaluate(() => { window.location.hash = '#/rules'; });
  await second.locator('[data-role="how-to-play"]').waitFor();
  const mini = await second.locator('.mini-frame').first().evaluate((f) => {
    const cells = [...f.querySelectorAll('.mini-board span')].map((c) => c.getBoundingClientRect());
    const labels = [...f.querySelectorAll('[data-board-coord]')];
    const wrong = [];
    labels.forEach((l, i) => {
      const b = l.getBoundingClientRect();
      const across = i < 4; // the columns first, then the rows
      const cell = across ? cells[i] : cells[(i - 4) * 4];
      const mid = across ? b.left + b.width / 2 : b.top + b.height / 2;
      if (mid < (across ? cell.left : cell.top) || mid > (across ? cell.right : cell.bottom)) wrong.push(`${l.textContent} is not by its cells`);
      if (!l.closest('[aria-hidden="true"]')) wrong.push(`${l.textContent} is read aloud`);
    });
    return { texts: labels.map((l) => l.textContent).join(''), wrong };
  });
  assertEqual(mini, { texts: 'ABCD1234', wrong: [] }, 'How to play\'s boards have their coordinates');
  await shot(second, 'coordinates-rules');
});

scenario('the keyboard focus stays where the next action is: after giving a piece, on the board', async () => {
  const [ann, bob] = await Promise.all([newPage('Ann'), newPage('Bob')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob')]);
  const id = await createRoom(ann);
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  const focused = (p) => p.evaluate(() => {
    const a = document.activeElement;
    return { tag: a.tagName.toLowerCase(), square: a.dataset.square ?? null, inBoard: !!a.closest('[data-role="board"]') };
  });
  // Giving with the keyboard: the pool's stop, Enter.
  await first.locator('[data-role="available"] [tabindex="0"]').focus();
  await first.keyboard.press('ArrowRight');
  await first.keyboard.press('Enter');
  await first.locator('[data-role="available"] [data-piece="1"]').waitFor({ state: 'detached' });
  let at = await focused(first);
  assert(at.inBoard && at.square !== null, `after giving, the focus is on the board: ${JSON.stringify(at)}`);
  // ...where Enter places the piece given back, once it comes.
  await place(second, 5);
  await give(second, 2);
  await myTurn(first, 'place');
  at = await focused(first);
  assert(at.inBoard, `the focus is still on the board when the piece comes: ${JSON.stringify(at)}`);
  await first.keyboard.press('Enter');
  await first.locator(`[data-square="${at.square}"][data-piece="2"]`).waitFor();
  // The second player gave with the mouse: the focus does not fall to the page either.
  at = await focused(second);
  assert(at.tag !== 'body', `after a click on a piece, the focus is not lost: ${JSON.stringify(at)}`);
});

scenario('a tournament game on a phone: Back to the tournament clear of the empty hand, no stale pairing above Game over, the title once', async () => {
  const [dee, vic] = await Promise.all([newPage('Dee', PHONE), newPage('Vic', PHONE)]);
  await Promise.all([enter(dee, 'Dee'), enter(vic, 'Vic')]);
  const tid = await createTournament(dee, { name: 'Phone cup' });
  await dee.evaluate(() => { window.location.hash = '#/'; });
  await vic.locator(`[data-role="tournament-row"][data-tournament-id="${tid}"]`).waitFor();
  await joinTournament(vic, tid);
  await dee.evaluate((h) => { window.location.hash = h; }, `#/tournament/${encodeURIComponent(tid)}`);
  await dee.locator('[data-action="join-tournament"]:not([disabled])').click();
  await dee.locator('[data-action="start-tournament"]:not([disabled])').click();
  await dee.waitForURL(/#\/room\/[^/]+$/);
  const room = decodeURIComponent(dee.url().slice(dee.url().indexOf('#/room/') + 7));
  await Promise.all([takenTo(dee, room), takenTo(vic, room)]);
  await dee.locator('[data-role="pairing"]').waitFor();
  // The title says the room once: the tournament's name links back, the room's name is not
  // the same words again.
  const head = (await dee.locator('.room-head .room-title').innerText()).replace(/\s+/g, ' ');
  assertEqual(head.split('Phone cup').length - 1, 1, `the tournament's name once in the title: "${head}"`);
  await shot(dee, 'tournament-game-phone');
  await resign(vic);
  await resultOf(dee);
  assertEqual(await dee.locator('[data-role="pairing"]').count(), 0, 'the round\'s pairing is gone once the game is over');
  await dee.locator('[data-action="back-to-tournament"]').waitFor();
  // Nothing of the hand's box (if it shows at all) lies under the button, nor sticks out of it.
  const under = await dee.evaluate(() => {
    const back = document.querySelector('[data-action="back-to-tournament"]').getBoundingClientRect();
    const hand = document.querySelector('[data-role="in-hand"]');
    return [hand, ...hand.querySelectorAll('*')].filter((e) => {
      const b = e.getBoundingClientRect();
      return b.width > 0 && b.left < back.right && back.left < b.right && b.top < back.bottom && back.top < b.bottom;
    }).map((e) => e.className || e.tagName).concat(hand.scrollWidth > hand.clientWidth + 1 ? ['the hand\'s text sticks out'] : []);
  });
  assertEqual(under, [], 'Back to the tournament is clear of the hand\'s box');
  const status = await dee.locator('[data-role="status"]').textContent();
  assert(!/next tournament game/.test(status), `a finished tournament promises no next game: "${status}"`);
  const problems = await axeBothThemes(dee, 'a finished tournament game on a phone', 'tournament-game-over-phone');
  assert(problems.length === 0, problems.join('\n'));
});

scenario('long names wrap between words, and the full name is at hand', async () => {
  const long = 'Maximiliane Orlowska-Brennan';
  const [ann, bob] = await Promise.all([newPage('Long', PHONE), newPage('Bob', PHONE)]);
  await Promise.all([enter(ann, long), enter(bob, 'Bob')]);
  const id = await createRoom(ann);
  await joinAsPlayer(bob, id);
  await started(ann, bob);
  for (const v of [PHONE, SCREENS[0]]) {
    await bob.setViewportSize(v);
    const name = bob.locator('[data-role="player"] .name', { hasText: 'Maximiliane' });
    assertEqual(await name.getAttribute('title'), long, `${size(v)}: the full name in its title`);
    // Each line of the name ends between words (or at the end of a word too long for a line).
    const cuts = await name.evaluate((e) => {
      const text = e.textContent;
      const range = document.createRange();
      const bad = [];
      let lastTop = null;
      for (let i = 0; i < text.length; i++) {
        range.setStart(e.firstChild, i);
        range.setEnd(e.firstChild, i + 1);
        const r = range.getClientRects()[0];
        if (!r) continue;
        if (lastTop !== null && r.top > lastTop + 2 && /\w/.test(text[i - 1] ?? '') && /\w/.test(text[i])) bad.push(i);
        lastTop = r.top;
      }
      const clipped = e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1;
      return { bad, clipped };
    });
    assertEqual(cuts.bad, [], `${size(v)}: the name breaks between words`);
    assert(!cuts.clipped, `${size(v)}: the name is shown whole`);
    await shot(bob, `long-name-${size(v)}`);
  }
});

scenario('the claim window says when it closes, and why: the time ran out, or the opponent moved on', async () => {
  const [ann, bob, cy, di] = await Promise.all([newPage('Ann'), newPage('Bob'), newPage('Cy'), newPage('Di')]);
  await Promise.all([enter(ann, 'Ann'), enter(bob, 'Bob'), enter(cy, 'Cy'), enter(di, 'Di')]);
  // A short window, not used: it runs out.
  const id = await createRoom(ann, { claimSeconds: '3' });
  await joinAsPlayer(bob, id);
  const { first, second } = await started(ann, bob);
  await fillRowZero(first, second);
  await give(first, 0);
  await second.locator('[data-role="claim"]').waitFor();
  const over = await noticeShown(second, 'notice', /time/i, 10000);
  assert(/claim/i.test(over), `the window's end is said: "${over}"`);
  assertEqual(await second.locator('[data-role="claim"]').count(), 0, 'the prompt is gone');
  // A long window, which the opponent closes by placing: the placer is told why it closed.
  const id2 = await createRoom(cy, { claimSeconds: '120' });
  await joinAsPlayer(di, id2);
  const { first: f, second: s } = await started(cy, di);
  await fillRowZero(f, s);
  await give(f, 0);
  await s.locator('[data-role="claim"]').waitFor();
  await f.locator('.claim-note').waitFor();
  await place(s, 4);
  const passed = await noticeShown(f, 'notice', /placed/i, 5000);
  assert(/claim/i.test(passed), `the placer is told the chance has passed: "${passed}"`);
});

await run();
