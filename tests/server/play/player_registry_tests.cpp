// Guests per address: one client saying hello and leaving in a loop holds a bounded number of
// player records, and nobody who is connected, seated or registered is forgotten for it.
#include <doctest/doctest.h>

#include "play/player_registry.hpp"

using namespace quarto::server::play;

TEST_CASE("player registry: past the cap, an address's longest-idle guest is forgotten at once")
{
    player_registry players;
    players.set_guests_per_address(3);
    std::string first_token, token;
    const auto first = players.create("A0", &first_token, "203.0.113.7");
    for (int i = 1; i < 3; ++i) players.create("A" + std::to_string(i), &token, "203.0.113.7");
    CHECK(players.size() == 3);
    CHECK(players.find_by_token(first_token) == first);

    const auto fourth = players.create("A3", &token, "203.0.113.7");
    CHECK(players.size() == 3);
    CHECK(players.find_by_token(first_token) == nullptr); // the oldest idle one
    CHECK(players.find_by_id(first->info.id) == nullptr);
    CHECK(players.find_by_token(token) == fourth);

    // Another address has its own count; a guest with no address (restored) is not counted.
    players.create("B0", nullptr, "198.51.100.1");
    players.create("R", nullptr);
    CHECK(players.size() == 5);
}

TEST_CASE("player registry: a connected, seated or registered guest is never forgotten for the cap")
{
    player_registry players;
    players.set_guests_per_address(2);
    const auto connected = players.create("Con", nullptr, "203.0.113.7");
    players.connected(connected->info.id);
    const auto seated = players.create("Sit", nullptr, "203.0.113.7");
    players.add_room(seated->info.id, "r1");
    const auto third = players.create("Third", nullptr, "203.0.113.7"); // nobody idle to forget
    CHECK(players.size() == 3);
    CHECK(players.find_by_id(connected->info.id));
    CHECK(players.find_by_id(seated->info.id));

    players.remove_room(seated->info.id, "r1"); // idle from now on: Third has been idle longer
    players.create("Fourth", nullptr, "203.0.113.7");
    CHECK(players.find_by_id(third->info.id) == nullptr);
    CHECK(players.find_by_id(seated->info.id));
    CHECK(players.room_count(connected->info.id) == 0);
}

TEST_CASE("player registry: no cap remembers every guest until the idle sweep")
{
    player_registry players;
    for (int i = 0; i < 50; ++i) players.create("G", nullptr, "203.0.113.7");
    CHECK(players.size() == 50);
    CHECK(players.forget_idle(std::chrono::steady_clock::now() + std::chrono::hours{2}, std::chrono::seconds{3600}) == 50);
    CHECK(players.size() == 0);
    players.create("G", nullptr, "203.0.113.7"); // the address index was cleaned with them
    CHECK(players.size() == 1);
}

TEST_CASE("player registry: a rename keeps the id and the token, and counts, and the old record stays as it was")
{
    player_registry players;
    std::string token;
    const auto ann = players.create("Ann", &token);
    const auto before = players.renames();
    const auto renamed = players.rename(ann->info.id, "Annabel");
    REQUIRE(renamed);
    CHECK(renamed->info.id == ann->info.id);
    CHECK(renamed->info.name == "Annabel");
    CHECK(renamed->token_hash == ann->token_hash);
    CHECK(ann->info.name == "Ann"); // whoever holds the old record reads it unchanged
    CHECK(players.find_by_token(token) == renamed);
    CHECK(players.find_by_id(ann->info.id) == renamed);
    CHECK(players.renames() == before + 1);

    CHECK(players.rename(ann->info.id, "Annabel") == renamed); // the same name: nothing changes
    CHECK(players.renames() == before + 1);
    CHECK(players.rename("pnobody12", "Zed") == nullptr);
}
