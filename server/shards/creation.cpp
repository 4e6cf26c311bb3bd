#include "shards/creation.hpp"

#include <memory>
#include <utility>

#include <spdlog/spdlog.h>

#include "quarto/core/rating/pool.hpp"
#include "shards/shard.hpp"

namespace quarto::server::shards {

std::variant<play::room*, creation_refused> create_room(shard& home, protocol::create_room request,
                                                        const play::client_ref& creator, const play::player_record& p,
                                                        const std::string& address)
{
    if (request.rated) {
        if (!p.account)
            return creation_refused{protocol::error_code::not_allowed, "Only a player with an account can create a rated room."};
        if (request.opponent)
            return creation_refused{protocol::error_code::not_allowed, "Games against the computer are not rated."};
        if (!rating::pool_of(request.game_rules, request.clock))
            return creation_refused{protocol::error_code::not_allowed,
                                    "Only games with all four attributes and a move clock are rated."};
    }
    auto quota = home.state().rooms_per_address->admit(address);
    if (!quota)
        return creation_refused{protocol::error_code::too_many_rooms,
                                "As many rooms are open from your address as one address may have."};
    const bool is_private = request.is_private;
    const auto opponent = request.opponent;
    play::room_settings settings{request.name.empty() ? p.info.name + "'s room" : std::move(request.name),
                                 request.game_rules,
                                 request.clock,
                                 is_private,
                                 std::nullopt,
                                 opponent,
                                 std::move(quota)};
    settings.rated = request.rated;
    play::room& r = home.create_room(std::move(settings), creator, p);
    spdlog::info("room {}: created by {}{}{}{}", r.id(), p.info.id, is_private ? " (private)" : "", r.rated() ? " (rated)" : "",
                 opponent ? fmt::format(" against the computer, level {}", opponent->level) : "");
    return &r;
}

std::variant<tournaments::tournament*, creation_refused> create_tournament(shard& home, protocol::create_tournament request,
                                                                           const play::player_record& director,
                                                                           const std::string& address)
{
    // A start time is a timer on this loop: centuries ahead would overflow it.
    if (request.settings.start_at_ms && *request.settings.start_at_ms > home.unix_ms() + model::max_tournament_start_ahead_ms)
        return creation_refused{protocol::error_code::bad_message, "start_at_ms: at most a year from now (unix time in ms)."};
    if (request.settings.rated) {
        if (!director.account)
            return creation_refused{protocol::error_code::not_allowed, "Only a player with an account can direct a rated tournament."};
        if (!rating::pool_of(request.settings.game_rules, request.settings.clock))
            return creation_refused{protocol::error_code::not_allowed,
                                    "Only games with all four attributes and a move clock are rated."};
    }
    auto& state = home.state();
    auto for_director = state.tournaments_per_director->admit(director.info.id);
    auto for_address = for_director ? state.tournaments_per_address->admit(address) : nullptr;
    if (!for_director)
        return creation_refused{protocol::error_code::too_many_tournaments,
                                std::string{protocol::default_message(protocol::error_code::too_many_tournaments)}};
    if (!for_address)
        return creation_refused{protocol::error_code::too_many_tournaments,
                                "As many unfinished tournaments were created from your address as one address may have."};
    auto& t = home.create_tournament(std::move(request.settings), director,
                                     std::make_shared<std::pair<std::shared_ptr<void>, std::shared_ptr<void>>>(
                                         std::move(for_director), std::move(for_address)));
    spdlog::info("tournament {}: created by {}", t.id(), director.info.id);
    return &t;
}

} // namespace quarto::server::shards
