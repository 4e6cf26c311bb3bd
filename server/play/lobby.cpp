#include "play/lobby.hpp"

#include <algorithm>

namespace quarto::server::play {

namespace {

int status_rank(protocol::room_status s)
{
    switch (s) {
    case protocol::room_status::waiting: return 0;
    case protocol::room_status::playing: return 1;
    case protocol::room_status::finished: return 2;
    }
    return 3;
}

} // namespace

void lobby_board::add(lobby_listing listing, lobby_state state)
{
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock{mutex_};
    auto id = listing.id;
    rooms_.insert_or_assign(std::move(id), entry{std::move(listing), std::move(state), now, {}});
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

void lobby_board::public_places(std::vector<place_in_list>& out, std::size_t board) const
{
    std::lock_guard lock{mutex_};
    for (const auto& [id, e] : rooms_)
        if (!e.listing.is_private && !(e.listing.computer && e.state.status == protocol::room_status::waiting))
            out.push_back({status_rank(e.state.status), e.added, id, board});
}

// Built on first demand after a change; the caller holds the mutex.
const std::string& lobby_board::entry::summary_text() const
{
    if (summary.empty()) {
        std::array<std::optional<protocol::seat_info>, 2> seats;
        for (std::size_t s = 0; s < 2; ++s)
            if (state.seats[s]) seats[s] = protocol::seat_info{*state.seats[s], true, std::nullopt};
        const protocol::room_view v{listing.id,    0,       listing.name, listing.game_rules,
                                    listing.clock, state.status, seats, state.spectators,
                                    nullptr,       {},      {},           listing.tournament};
        summary = protocol::room_summary(v, listing.is_private);
    }
    return summary;
}

std::string lobby_board::public_summary(const protocol::room_id& id) const
{
    std::lock_guard lock{mutex_};
    const auto it = rooms_.find(id);
    if (it == rooms_.end() || it->second.listing.is_private) return {};
    return it->second.summary_text();
}

std::string lobby_board::summary(const protocol::room_id& id) const
{
    std::lock_guard lock{mutex_};
    const auto it = rooms_.find(id);
    return it == rooms_.end() ? std::string{} : it->second.summary_text();
}

std::size_t lobby_board::size() const
{
    std::lock_guard lock{mutex_};
    return rooms_.size();
}

// Only the page's summaries are copied, whatever the number of rooms: the rest of the work is
// a sort of small keys.
std::string rooms_page(std::span<const lobby_board* const> boards, const protocol::page_request& page,
                       const nlohmann::json& req)
{
    std::vector<lobby_board::place_in_list> places;
    for (std::size_t b = 0; b < boards.size(); ++b) boards[b]->public_places(places, b);
    const std::size_t total = places.size();
    const std::size_t begin = std::min(static_cast<std::size_t>(page.offset), total);
    const std::size_t end = std::min(begin + static_cast<std::size_t>(page.limit), total);
    std::partial_sort(places.begin(), places.begin() + static_cast<std::ptrdiff_t>(end), places.end());
    std::vector<std::string> summaries;
    summaries.reserve(end - begin);
    for (std::size_t i = begin; i < end; ++i)
        if (auto s = boards[places[i].board]->public_summary(places[i].id); !s.empty()) summaries.push_back(std::move(s));
    return protocol::rooms_list(summaries, total, begin, req);
}

} // namespace quarto::server::play
