// The kinds of misbehaviour the soak mixes, with how often each is picked when a slot frees up.
// The weights keep the server's load bounded: the costly kinds (floods, slow readers, which may
// each make the server hold 8 MiB) are rare, the cheap ones (idle sockets, lobby polling) common.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace quarto::chaos {

enum class attack_kind : std::size_t {
    list_poll,       // list_rooms / list_tournaments in a loop, odd pages and bad limits
    room_spam,       // create_room in a loop: rate_limited, too_many_rooms
    tournament_spam, // create_tournament, join others', start them: too_many_tournaments
    spectator_churn, // join/leave (the honest rooms too) past the join rate
    garbage,         // binary frames, invalid UTF-8, non-JSON, bad fields, before and after hello
    frame_violation, // frames RFC 6455 forbids: closed with 1002
    flood,           // pings far past the rate limit: closed with 1008
    huge_req,        // req values that must come back exactly as written
    oversize,        // a message of exactly the limit (answered), then one byte more (1009)
    slow_reader,     // asks for big pages and never reads: closed with 1008 "not reading"
    slowloris,       // an upgrade request that never ends, or nothing at all
    idle_silent,     // upgraded, then silent, and never answers a ping
    idle_quiet,      // says hello, answers pings, and just holds its socket
    guest_spam,      // hello and close, again and again (its tokens feed the resume storms)
    resume,          // hello with a token (known, forgotten or made up) and sync every room
    drop_resume,     // two players mid-game; one drops (reset), resumes with its token and syncs
    count_
};

inline constexpr std::size_t attack_kind_count = static_cast<std::size_t>(attack_kind::count_);

struct attack_kind_info {
    std::string_view name;
    double weight; // share of new attackers, in percent
};

inline constexpr std::array<attack_kind_info, attack_kind_count> attack_kinds{{
    {"list_poll", 12},
    {"room_spam", 10},
    {"tournament_spam", 5},
    {"spectator_churn", 10},
    {"garbage", 8},
    {"frame_violation", 2},
    {"flood", 1},
    {"huge_req", 4},
    {"oversize", 3},
    {"slow_reader", 1},
    {"slowloris", 8},
    {"idle_silent", 8},
    {"idle_quiet", 15},
    {"guest_spam", 7},
    {"resume", 3},
    {"drop_resume", 3},
}};

inline std::string_view name_of(attack_kind k) { return attack_kinds[static_cast<std::size_t>(k)].name; }

} // namespace quarto::chaos
