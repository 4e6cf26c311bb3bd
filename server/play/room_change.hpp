// One entry of a room's journal (archive/journal.hpp): the change the room accepted, as the
// room replays it on restore. Encoded as one short line of text, words separated by spaces:
//
//   room {"name":…,"rules":…,"clock":…,"private":…,"seats":[…],"seq":N[,"tournament":{"id":…,"first":S}]
//         [,"bot":{"level":L,"delay_ms":D,"seat":S}][,"rated":true]}
//        a summary: the room as it stands (written when it opens and when a game starts; older
//        entries are cut); a tournament's game names its tournament and who gives first; a room
//        with the computer, its level, delay and seat (1 when left out; its token hash is "-": no
//        token resumes it). A seat of an account has its shown "rating" ({"points","provisional"});
//        in a rated room also "glicko": {"r","d","v","g","t"}, the rating its next game starts
//        from (rating, deviation, volatility, games, last game's Unix ms)
//   seat S HASH ID NAME     a player took seat S (HASH: the token's, to resume after a restart;
//                           "-" for the computer and for an account, which no token resumes)
//   rseat S POOL R D V G T HASH ID NAME   the same in a rated room, with the rating the player's
//                           games there start from (pool 0 standard, 1 advanced; rating,
//                           deviation, volatility, games, last game's Unix ms)
//   unseat S                seat S was left
//   start FIRST UNIX_MS GAME_ID       a game started; FIRST gives first
//   act KIND SEAT VALUE LINE T        an accepted action (core's move_kind name)
//   time T                  a deadline passed and ended the game (timeout, final window)
//   abandon S T             seat S had left the game long enough, and its opponent claimed it
//   rematch S               seat S asked for a rematch
//   rename S NAME           the player in seat S took a new name
//   ev [T]                  only an event (a watcher came or went, a connection changed)
//
// T is the game's time, in ms since it started: replayed at the same offsets, the clocks come
// back as they stood at the room's last entry.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "quarto/archive/accounts.hpp"
#include "quarto/core/game.hpp"
#include "quarto/protocol/encode.hpp"

namespace quarto::server::play {

struct seated_player {
    model::player_info info; // its shown rating included
    std::string token_hash;
    // In a rated room's summary: the rating the player's next game there starts from.
    std::optional<archive::stored_rating> rating{};
    friend bool operator==(const seated_player&, const seated_player&) = default;
};

namespace change {
struct summary {
    std::string name;
    rules game_rules;
    clock_settings clock;
    bool is_private = false;
    std::array<std::optional<seated_player>, 2> seats;
    std::uint64_t seq = 0; // the room's last event seq before this entry
    std::optional<std::string> tournament;
    std::optional<seat> tournament_first; // a tournament game's starter; nullopt: the coin decides
    model::room_score score;           // the seated pair's games so far
    std::optional<model::bot_opponent> bot; // the computer, if it plays here
    seat bot_seat = 1;                         // and its seat
    bool rated = false;                        // its games change ratings
    friend bool operator==(const summary&, const summary&) = default;
};
struct take_seat {
    seat s = 0;
    seated_player player;
    friend bool operator==(const take_seat&, const take_seat&) = default;
};
struct leave_seat {
    seat s = 0;
    friend bool operator==(const leave_seat&, const leave_seat&) = default;
};
struct start {
    seat first = 0;
    std::int64_t unix_ms = 0;
    std::string game_id;
    friend bool operator==(const start&, const start&) = default;
};
struct act {
    action what;
    std::int64_t t = 0;
    friend bool operator==(const act&, const act&) = default;
};
struct time_passed {
    std::int64_t t = 0;
    friend bool operator==(const time_passed&, const time_passed&) = default;
};
struct rematch {
    seat s = 0;
    friend bool operator==(const rematch&, const rematch&) = default;
};
struct abandon {
    seat absent = 0;
    std::int64_t t = 0;
    friend bool operator==(const abandon&, const abandon&) = default;
};
struct rename_seat {
    seat s = 0;
    std::string name;
    friend bool operator==(const rename_seat&, const rename_seat&) = default;
};
struct event_only {
    std::optional<std::int64_t> t;
    friend bool operator==(const event_only&, const event_only&) = default;
};
} // namespace change

using room_change = std::variant<change::summary, change::take_seat, change::leave_seat, change::start, change::act,
                                 change::time_passed, change::rematch, change::abandon, change::rename_seat,
                                 change::event_only>;

std::string encode(const room_change& c);
// The same, appended to `out` (a journal batch's bytes: no string of its own).
void encode_into(std::string& out, const room_change& c);
// nullopt for a line this code did not write.
std::optional<room_change> decode(std::string_view line);

// The game's time of an entry, if it has one.
std::optional<std::int64_t> game_time(const room_change& c);

} // namespace quarto::server::play
