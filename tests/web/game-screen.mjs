// The game screen as a player sees it: the board fitting the window, its coordinates, the prompts
// and where the keyboard's focus goes (harness.mjs runs them).
//
//   QUARTO_SERVER=/path/to/quarto-server QUARTO_WEB_ROOT=/path/to/web E2E_OUT=/tmp/e2e node game-screen.mjs

import { scenario, run } from './harness.mjs';

await run();
