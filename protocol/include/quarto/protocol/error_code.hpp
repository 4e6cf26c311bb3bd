// Every error code the server sends, defined once with its wire name.
#pragma once

#include <cstdint>
#include <string_view>

#include "quarto/core/game.hpp"

namespace quarto::protocol {

enum class error_code : std::uint8_t {
    bad_json,
    bad_message,
    unknown_type,
    hello_required,
    unknown_token,
    no_such_room,
    room_full,
    not_in_room,
    not_a_player,
    not_your_turn,
    wrong_phase,
    square_taken,
    piece_unavailable,
    invalid_claim,
    rate_limited,
    // Tournaments.
    no_such_tournament,
    not_director,
    registration_closed,
    tournament_full,
    not_registered,
    wrong_status,
    not_enough_players,
    bot_already_registered,
    // Caps on what one player or one address may hold (section 14).
    too_many_rooms,
    too_many_tournaments,
    // A node of a cluster cannot reach the node that holds the room (Redis is down).
    unavailable,
    // Accounts and rated games.
    not_allowed,     // a guest asked for what takes an account (a rated room or its seat), or rules that are not rated
    name_taken,      // a guest's name is an account's
    unknown_session, // hello with a session that has ended (or never was)
};

inline constexpr std::size_t error_code_count = static_cast<std::size_t>(error_code::unknown_session) + 1;

std::string_view to_string(error_code code);
// The error a refused game action is reported as.
error_code from_action_error(action_error e);
// A sentence a player can read, for refusals that carry no more specific message.
std::string_view default_message(error_code code);

} // namespace quarto::protocol
