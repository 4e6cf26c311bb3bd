// Server error codes (protocol v1, tournaments in section 19) in words a player understands.

const MESSAGES = {
  bad_json: 'The server could not read our last message. Please reload the page.',
  bad_message: 'The server rejected our last message as malformed. Please reload the page.',
  unknown_type: 'The server does not know that request. Is the page out of date? Please reload.',
  hello_required: 'Please enter your name first.',
  no_such_room: 'That room does not exist (any more). It may have been closed.',
  room_full: 'Both seats in this room are taken — you can still watch the game.',
  not_in_room: 'You are not in this room.',
  not_a_player: 'Only the two players can do that; you are watching.',
  not_your_turn: 'It is not your turn yet.',
  wrong_phase: 'That is not possible at this point of the move.',
  square_taken: 'That square is already taken — choose an empty one.',
  piece_unavailable: 'That piece is not available any more.',
  invalid_claim: 'That is not a Quarto: the four squares must form a line on the board, include the last piece placed, and the four pieces must share a property.',
  name_taken: 'That name belongs to an account: log in, or choose another name.',
};

// Codes whose server message says more than ours (which squares, what is missing): it comes
// first, our explanation after it.
const SERVER_FIRST = {
  invalid_claim: 'A Quarto is a line of four pieces that share a trait, through the last piece placed.',
  rate_limited: 'Slow down a little — too many actions in a short time.',
  bad_token: 'Your previous session has expired; please enter your name again.',
  invalid_token: 'Your previous session has expired; please enter your name again.',
  unknown_token: 'Your previous session has expired; please enter your name again.',
  no_such_tournament: 'That tournament does not exist (any more).',
  not_director: 'Only the tournament director can do that.',
  registration_closed: 'Registration is closed: the tournament has already started.',
  tournament_full: 'The tournament is full — no more players can register.',
  not_registered: 'You are not registered in this tournament.',
  wrong_status: 'The tournament is not in a state that allows that right now.',
  not_enough_players: 'At least 2 players must register before the tournament can start.',
  bot_already_registered: 'The computer is entered already: one may play in a tournament.',
};

// The same code means different things depending on what we asked for.
const BY_REQUEST = {
  wrong_status: {
    start_tournament: 'The tournament has already started.',
    pause_tournament: 'Only a running tournament can be paused.',
    resume_tournament: 'Only a paused tournament can be resumed.',
  },
  registration_closed: {
    withdraw_tournament: 'The tournament has started: only the director can take a player out now.',
    add_bot: 'The tournament has started: the computer can no longer be entered.',
  },
  tournament_full: {
    add_bot: 'The tournament is full: there is no place for the computer.',
  },
  not_registered: {
    remove_player: 'That player is not (or no longer) in this tournament.',
  },
  not_allowed: {
    create: 'This room cannot be rated: rated games are for accounts, with all four traits and a clock.',
    create_tournament: 'This tournament cannot be rated: it needs an account to direct it, all four traits and a clock.',
    join: 'A rated game is for players with an account: log in to play, or watch.',
    join_tournament: 'A rated tournament is for players with an account: log in to play in it.',
    add_bot: 'The computer plays no rated tournament.',
  },
};

const PHASE_HINTS = {
  wrong_phase: {
    give: 'You must give a piece now, not place one.',
    place: 'You must place the piece in your hand now.',
  },
};

export function describeError(err, context = {}) {
  if (!err) return 'Something went wrong.';
  const code = err.code;
  if (SERVER_FIRST[code] && typeof err.message === 'string' && err.message.trim()) {
    const said = err.message.trim();
    return `${said}${/[.!?]$/.test(said) ? '' : '.'} ${SERVER_FIRST[code]}`;
  }
  let text = (BY_REQUEST[code] && context.kind && BY_REQUEST[code][context.kind]) || MESSAGES[code];
  if (code === 'wrong_phase' && context.phase && PHASE_HINTS.wrong_phase[context.phase]) {
    text = `${text} ${PHASE_HINTS.wrong_phase[context.phase]}`;
  }
  if (!text) {
    text = err.message ? `The server refused: ${err.message}` : `The server refused (${code || 'unknown error'}).`;
  }
  return text;
}
