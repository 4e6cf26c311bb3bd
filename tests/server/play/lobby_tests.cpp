// The lobby's pages: whatever the number of rooms, a list_rooms reply stays under 256 KB.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "play/lobby.hpp"

using namespace quarto;
using namespace quarto::server::play;

TEST_CASE("lobby: the largest page of the longest rooms stays under 256 KB, in the lobby's order")
{
    // Names at their limit, made of the character JSON escapes into two.
    const std::string longest(protocol::max_name_length, '"');
    lobby_board a, b;
    for (int i = 0; i < 1500; ++i) {
        lobby_listing listing{"room" + std::to_string(i), longest, rules{}, clock_settings{}, false, "t12345678"};
        lobby_state state;
        state.status = i % 3 == 0 ? model::room_status::playing : model::room_status::waiting;
        state.seats = {model::player_info{"p12345678", longest}, model::player_info{"p87654321", longest}};
        state.spectators = 1000000;
        (i % 2 ? a : b).add(std::move(listing), state);
    }
    a.add({"private", "x", rules{}, clock_settings{}, true, ""}, {});
    const std::vector<const lobby_board*> boards{&a, &b};
    const std::string page = rooms_page(boards, {0, protocol::max_page_size}, "req");
    CHECK(page.size() < 256 * 1024);
    const auto j = nlohmann::json::parse(page);
    CHECK(j["total"] == 1500);
    REQUIRE(j["rooms"].size() == protocol::max_page_size);
    for (const auto& r : j["rooms"]) CHECK(r["status"] == "waiting"); // 1000 waiting come first
    const auto last = nlohmann::json::parse(rooms_page(boards, {1400, protocol::max_page_size}, nullptr));
    CHECK(last["rooms"].size() == 100);
    for (const auto& r : last["rooms"]) CHECK(r["status"] == "playing");
}
