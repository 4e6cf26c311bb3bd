#include "play/lobby.hpp"

namespace quarto::server::play {

void lobby_board::add(lobby_listing listing, lobby_state state)
{
    std::lock_guard lock{mutex_};
    auto id = listing.id;
    rooms_.insert_or_assign(std::move(id), entry{std::move(listing), std::move(state), {}});
}

void lobby_board::update(const protocol::room_id& id, const lobby_state& state)
{
    std::lock_guard lock{mutex_};
    const auto it = rooms_.find(id);
    if (it == rooms_.end() || it->second.state == state) return;
    it->second.state = state;
    it->second.summary.clear();
}

void lobby_board::remove(const protocol::room_id& id)
{
    std::lock_guard lock{mutex_};
    rooms_.erase(id);
}

void lobby_board::public_summaries(std::vector<std::string>& out) const
{
    std::lock_guard lock{mutex_};
    for (const auto& [id, e] : rooms_) {
        if (e.listing.is_private) continue;
        if (e.summary.empty()) {
            std::array<std::optional<protocol::seat_info>, 2> seats;
            for (std::size_t s = 0; s < 2; ++s)
                if (e.state.seats[s]) seats[s] = protocol::seat_info{*e.state.seats[s], true};
            const protocol::room_view v{e.listing.id,    0,       e.listing.name, e.listing.game_rules,
                                        e.listing.clock, e.state.status, seats, e.state.spectators,
                                        nullptr,         {},      {},             e.listing.tournament};
            e.summary = protocol::room_summary(v, false);
        }
        out.push_back(e.summary);
    }
}

std::size_t lobby_board::size() const
{
    std::lock_guard lock{mutex_};
    return rooms_.size();
}

} // namespace quarto::server::play
