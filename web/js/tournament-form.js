// The form that creates a tournament (protocol section 19, create_tournament; rated ones in
// section 20). The lobby loads it when its "New tournament" is first opened, and puts `node` there.
// The hooks are listed at the top of tournament.js.

import { h } from './dom.js';
import { gameFields, numberField, readWhole, ratedOption } from './form-fields.js';
import { feedbackSlot, say } from './feedback.js';
import { MAX_TOURNAMENT_NAME_BYTES as MAX_NAME_BYTES, SWISS_ROUNDS, TOURNAMENT_PLAYERS, ROUND_PAUSE_SECONDS, tooLong } from './limits.js';

export class TournamentForm {
  constructor(app) {
    this.app = app;
    this.node = this.build();
  }

  update() {
    this.createButton.disabled = !this.app.welcomed;
    this.showRated(); // logged in or out
  }

  /** The server's refusal of create_tournament, said above the button. */
  feedback(text, kind) {
    say(this.slot, text, kind);
    return true;
  }

  build() {
    const name = h('input', { id: 't-name', type: 'text', dataset: { role: 'tournament-name' }, maxlength: MAX_NAME_BYTES,
      required: true, placeholder: 'e.g. Club night', autocomplete: 'off' });
    const format = h('select', { id: 't-format', dataset: { role: 'tournament-format' } },
      h('option', { value: 'round_robin' }, 'Round robin'),
      h('option', { value: 'swiss' }, 'Swiss'));
    const rounds = numberField('tournament-rounds', 't-rounds', '', SWISS_ROUNDS, '1', { placeholder: 'automatic', 'aria-describedby': 't-rounds-hint' });
    const roundsHint = h('small', { id: 't-rounds-hint', class: 'muted' }, '');
    const games = h('select', { id: 't-games', dataset: { role: 'tournament-games' } },
      h('option', { value: '1' }, '1 game'),
      h('option', { value: '2' }, '2 games'));
    const maxPlayers = numberField('tournament-max-players', 't-max-players', String(TOURNAMENT_PLAYERS.initial), TOURNAMENT_PLAYERS, '1');
    const fields = gameFields({ rolePrefix: 'tournament-', idPrefix: 't-', untimed: 'untimed games', moveHint: 't-move-hint' });
    const pause = numberField('round-pause', 't-round-pause', String(ROUND_PAUSE_SECONDS.initial), ROUND_PAUSE_SECONDS, '1', { 'aria-describedby': 't-pause-hint' });
    const rated = ratedOption(fields, { rolePrefix: 'tournament-', idPrefix: 't-', label: ' Rated tournament', login: ' to direct a rated tournament.' });
    this.showRated = () => rated.show(this.app.me.account);
    const startAt = h('input', { id: 't-start-at', type: 'datetime-local', dataset: { role: 'tournament-start-at' }, 'aria-describedby': 't-start-hint' });

    const syncFormat = () => {
      const swiss = format.value === 'swiss';
      rounds.disabled = !swiss;
      roundsHint.textContent = swiss
        ? 'Swiss: each round pairs players with equal scores. Empty rounds: enough to find a sole winner (about log₂ of the players).'
        : 'Round robin: everyone meets everyone once, so the number of rounds follows from the field.';
    };
    format.addEventListener('change', syncFormat);
    syncFormat();

    const submit = (e) => {
      e.preventDefault();
      const app = this.app;
      const complain = (text) => say(this.slot, text);
      const title = name.value.trim();
      if (!title) {
        complain('Please give the tournament a name.');
        name.focus();
        return;
      }
      const problem = tooLong("The tournament's name", title, MAX_NAME_BYTES);
      if (problem) {
        complain(problem);
        name.focus();
        return;
      }
      const options = { name: title, format: format.value };
      if (format.value === 'swiss') {
        const n = readWhole(complain, rounds, { bounds: SWISS_ROUNDS, empty: null,
          message: `A Swiss tournament has ${SWISS_ROUNDS.min} to ${SWISS_ROUNDS.max} rounds (or leave it empty).` });
        if (n === undefined) return;
        if (n !== null) options.rounds = n;
      }
      options.games_per_pairing = Number(games.value);
      const most = readWhole(complain, maxPlayers, { bounds: TOURNAMENT_PLAYERS, empty: TOURNAMENT_PLAYERS.initial,
        message: `The player limit must be a whole number from ${TOURNAMENT_PLAYERS.min} to ${TOURNAMENT_PLAYERS.max}.` });
      if (most === undefined) return;
      options.max_players = most;
      const game = fields.read(complain);
      if (game === undefined) return;
      options.rules = game.rules;
      options.clock = game.clock;
      const pauseSeconds = readWhole(complain, pause, { bounds: ROUND_PAUSE_SECONDS, empty: ROUND_PAUSE_SECONDS.initial,
        message: `The pause between rounds must be a whole number of seconds from ${ROUND_PAUSE_SECONDS.min} to ${ROUND_PAUSE_SECONDS.max}.` });
      if (pauseSeconds === undefined) return;
      options.round_pause_seconds = pauseSeconds;
      if (rated.chosen()) options.rated = true;
      if (startAt.value) {
        const ms = new Date(startAt.value).getTime();
        if (!Number.isFinite(ms)) {
          complain('The start time is not a date and time this browser understands.');
          startAt.focus();
          return;
        }
        if (ms <= Date.now()) {
          complain('The start time is in the past: choose a later time, or leave it empty and start the tournament yourself.');
          startAt.focus();
          return;
        }
        options.start_at_ms = ms;
      }
      app.createTournament(options);
    };

    this.createButton = h('button', { type: 'submit', class: 'primary', dataset: { action: 'create-tournament' }, disabled: !this.app.welcomed }, 'Create tournament');
    const form = h('form', { class: 'create-tournament-form', onsubmit: submit, oninput: this.showRated, dataset: { role: 'tournament-form' }, 'aria-labelledby': 'create-tournament-title' },
      h('p', { class: 'muted small' }, 'You direct the tournament: players register, you start it, the server pairs every round and seats the players in their games. To play in it yourself, join it once it is created.'),
      h('label', { for: 't-name' }, 'Name'), name,
      h('div', { class: 'grid2' },
        h('div', {}, h('label', { for: 't-format' }, 'Format'), format),
        h('div', {}, h('label', { for: 't-rounds' }, 'Rounds (Swiss)'), rounds)),
      roundsHint,
      h('div', { class: 'grid2' },
        h('div', {}, h('label', { for: 't-games' }, 'Games per pairing'), games,
          h('small', { class: 'muted' }, 'With 2, each player starts once')),
        h('div', {}, h('label', { for: 't-max-players' }, 'Most players'), maxPlayers)),
      h('div', { class: 'grid2' },
        h('div', {}, h('label', { for: 't-move-seconds' }, 'Seconds per move'), fields.move,
          h('small', { id: 't-move-hint', class: 'muted' }, 'Empty = untimed (then no-shows never lose on time)')),
        h('div', {}, h('label', { for: 't-claim-seconds' }, 'Seconds to claim a missed Quarto'), fields.claim)),
      h('label', { for: 't-round-pause' }, 'Pause between rounds (seconds)'), pause,
      h('small', { id: 't-pause-hint', class: 'muted' }, 'Time to read the last result before the next round\'s clocks start (0: at once).'),
      fields.traits.node,
      fields.variants,
      rated.node,
      h('label', { for: 't-start-at' }, 'Start time (optional)'), startAt,
      h('small', { id: 't-start-hint', class: 'muted' }, 'It starts by itself then, if at least 2 players have registered.'),
      this.slot = feedbackSlot(),
      this.createButton);
    this.showRated();
    return form;
  }
}
