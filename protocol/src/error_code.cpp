#include "quarto/protocol/error_code.hpp"

namespace quarto::protocol {

std::string_view to_string(error_code code)
{
    switch (code) {
    case error_code::bad_json: return "bad_json";
    case error_code::bad_message: return "bad_message";
    case error_code::unknown_type: return "unknown_type";
    case error_code::hello_required: return "hello_required";
    case error_code::unknown_token: return "unknown_token";
    case error_code::no_such_room: return "no_such_room";
    case error_code::room_full: return "room_full";
    case error_code::not_in_room: return "not_in_room";
    case error_code::not_a_player: return "not_a_player";
    case error_code::not_your_turn: return "not_your_turn";
    case error_code::wrong_phase: return "wrong_phase";
    case error_code::square_taken: return "square_taken";
    case error_code::piece_unavailable: return "piece_unavailable";
    case error_code::invalid_claim: return "invalid_claim";
    case error_code::rate_limited: return "rate_limited";
    case error_code::no_such_tournament: return "no_such_tournament";
    case error_code::not_director: return "not_director";
    case error_code::registration_closed: return "registration_closed";
    case error_code::tournament_full: return "tournament_full";
    case error_code::not_registered: return "not_registered";
    case error_code::wrong_status: return "wrong_status";
    case error_code::not_enough_players: return "not_enough_players";
    case error_code::bot_already_registered: return "bot_already_registered";
    case error_code::too_many_rooms: return "too_many_rooms";
    case error_code::too_many_tournaments: return "too_many_tournaments";
    case error_code::unavailable: return "unavailable";
    case error_code::not_allowed: return "not_allowed";
    case error_code::name_taken: return "name_taken";
    case error_code::unknown_session: return "unknown_session";
    }
    return "internal";
}

error_code from_action_error(action_error e)
{
    switch (e) {
    case action_error::game_over: return error_code::wrong_phase; // the game is over: no phase fits
    case action_error::not_your_turn: return error_code::not_your_turn;
    case action_error::wrong_phase: return error_code::wrong_phase;
    case action_error::square_taken: return error_code::square_taken;
    case action_error::piece_unavailable: return error_code::piece_unavailable;
    case action_error::invalid_claim: return error_code::invalid_claim;
    case action_error::out_of_range: return error_code::bad_message; // parsing stops these first
    }
    return error_code::wrong_phase;
}

std::string_view default_message(error_code code)
{
    switch (code) {
    case error_code::bad_json: return "The message is not valid JSON.";
    case error_code::bad_message: return "The message has a missing or invalid field.";
    case error_code::unknown_type: return "Unknown message type.";
    case error_code::hello_required: return "Say hello first.";
    case error_code::unknown_token: return "That player token is not known here; say hello with a name.";
    case error_code::no_such_room: return "There is no such room.";
    case error_code::room_full: return "Both seats of this room are taken.";
    case error_code::not_in_room: return "You are not in this room.";
    case error_code::not_a_player: return "Spectators cannot play.";
    case error_code::not_your_turn: return "It is not your turn.";
    case error_code::wrong_phase: return "That move does not fit this moment of the game.";
    case error_code::square_taken: return "That square is already taken.";
    case error_code::piece_unavailable: return "That piece has already been played.";
    case error_code::invalid_claim: return "That is not a valid Quarto.";
    case error_code::rate_limited: return "Too many messages; slow down.";
    case error_code::no_such_tournament: return "There is no such tournament.";
    case error_code::not_director: return "Only the tournament's director can do that.";
    case error_code::registration_closed: return "Registration for this tournament is closed.";
    case error_code::tournament_full: return "This tournament has as many players as it takes.";
    case error_code::not_registered: return "That player is not registered in this tournament.";
    case error_code::wrong_status: return "The tournament is not in a state that allows that.";
    case error_code::not_enough_players: return "A tournament needs at least two players to start.";
    case error_code::bot_already_registered: return "This tournament has its computer player already: one may play.";
    case error_code::too_many_rooms: return "You are in as many rooms as one player (or one address) may be; leave one first.";
    case error_code::too_many_tournaments:
        return "You direct as many open tournaments as one player (or one address) may; finish one first.";
    case error_code::unavailable: return "That room is on another server that cannot be reached just now; try again in a moment.";
    case error_code::not_allowed: return "Rated games are for players with an account, under rules that are rated.";
    case error_code::name_taken: return "That name belongs to an account: log in, or choose another name.";
    case error_code::unknown_session: return "That session has ended; log in again.";
    }
    return "Internal error.";
}

} // namespace quarto::protocol
