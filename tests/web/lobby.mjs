// Arriving and coming back: the lobby's rooms, links opened without a name, a returning player,
// and what a repeat visit fetches (harness.mjs runs them).
//
//   QUARTO_SERVER=/path/to/quarto-server QUARTO_WEB_ROOT=/path/to/web E2E_OUT=/tmp/e2e node lobby.mjs

import { scenario, run } from './harness.mjs';

await run();
