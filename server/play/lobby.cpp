#include "play/lobby.hpp"

#include <algorithm>

namespace quarto::server::play {

namespace {

int status_rank(const lobby_state& s)
{
    switch (s.status) {
    case model::room_status::waiting: return s.host_away() ? 2 : 0;
    case model::room_status::playing: return 1;
    case model::room_status::finished: return 3;
    }
    return 4;
}

// Shown in the lobby: public, and not a free seat opposite the computer.
bool listed(const lobby_listing& l, const lobby_state& s)
{
    return !l.is_private && !(l.computer && s.status == model::room_status::waiting);
}

} // namespace

bool lobby_state::host_away() const
{
    if (status != model::room_status::waiting) return false;
    int seated = 0;
    bool away = false;
    for (std::size_t s = 0; s < 2; ++s) {
        if (!seats[s]) continue;
        ++seated;
        away = !connected[s];
    }
    return seated == 1 && away;
}

void lobby_board::add(lobby_listing listing, lobby_state state)
{
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock{mutex_};
    auto id = listing.id;
    rooms_.insert_or_assign(std::move(id), entry{std::move(listing), std::move(state), now, {}});
}

void lobby_board::update(const model::room_id& id, const lobby_state& state)
{
    std::lock_guard lock{mutex_};
    const auto it = rooms_.find(id);
    if (it == rooms_.end() || it->second.state == state) return;
    it->second.state = state;
    it->second.summary.clear();
}

void lobby_board::remove(const model::room_id& id)
{
    std::lock_guard lock{mutex_};
    rooms_.erase(id);
}

void lobby_board::public_places(std::vector<place_in_list>& out, std::size_t board) const
{
    std::lock_guard lock{mutex_};
    for (const auto& [id, e] : rooms_)
        if (listed(e.listing, e.state)) out.push_back({status_rank(e.state), e.added, id, board});
}

// Built on first demand after a change; the caller holds the mutex.
const std::string& lobby_board::entry::summary_text() const
{
    if (summary.empty()) {
        std::array<std::optional<model::seat_info>, 2> seats;
        for (std::size_t s = 0; s < 2; ++s)
            if (state.seats[s]) seats[s] = model::seat_info{*state.seats[s], state.connected[s], std::nullopt};
        const protocol::room_view v{listing.id,    0,       listing.name, listing.game_rules,
                                    listing.clock, state.status, seats, state.spectators,
                                    nullptr,       {},      {},           listing.tournament};
        protocol::room_view shown = v;
        shown.rated = listing.rated;
        summary = protocol::room_summary(shown, listing.is_private);
    }
    return summary;
}

std::string lobby_board::public_summary(const model::room_id& id) const
{
    std::lock_guard lock{mutex_};
    const auto it = rooms_.find(id);
    if (it == rooms_.end() || it->second.listing.is_private) return {};
    return it->second.summary_text();
}

std::string lobby_board::summary(const model::room_id& id) const
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

std::optional<lobby_board::published> lobby_board::publication(const model::room_id& id) const
{
    std::lock_guard lock{mutex_};
    const auto it = rooms_.find(id);
    if (it == rooms_.end()) return std::nullopt;
    const entry& e = it->second;
    return published{status_rank(e.state), e.added, listed(e.listing, e.state), e.summary_text()};
}

void remote_lobby::replace(std::vector<room> rooms)
{
    std::unordered_map<model::room_id, room> by_id;
    by_id.reserve(rooms.size());
    for (auto& r : rooms) {
        auto id = r.id;
        by_id.insert_or_assign(std::move(id), std::move(r));
    }
    std::lock_guard lock{mutex_};
    rooms_.swap(by_id);
}

void remote_lobby::public_places(std::vector<lobby_board::place_in_list>& out, std::size_t board) const
{
    std::lock_guard lock{mutex_};
    for (const auto& [id, r] : rooms_)
        if (r.listed) out.push_back({r.status_rank, r.added, id, board});
}

std::string remote_lobby::summary(const model::room_id& id) const
{
    std::lock_guard lock{mutex_};
    const auto it = rooms_.find(id);
    return it == rooms_.end() ? std::string{} : it->second.summary;
}

std::size_t remote_lobby::size() const
{
    std::lock_guard lock{mutex_};
    return rooms_.size();
}

// Only the page's summaries are copied, whatever the number of rooms: the rest of the work is
// a sort of small keys.
std::string rooms_page(std::span<const lobby_board* const> boards, const protocol::page_request& page,
                       const nlohmann::json& req, const remote_lobby* others)
{
    std::vector<lobby_board::place_in_list> places;
    for (std::size_t b = 0; b < boards.size(); ++b) boards[b]->public_places(places, b);
    if (others) others->public_places(places, boards.size()); // the board after the last
    const std::size_t total = places.size();
    const std::size_t begin = std::min(static_cast<std::size_t>(page.offset), total);
    const std::size_t end = std::min(begin + static_cast<std::size_t>(page.limit), total);
    std::partial_sort(places.begin(), places.begin() + static_cast<std::ptrdiff_t>(end), places.end());
    std::vector<std::string> summaries;
    summaries.reserve(end - begin);
    for (std::size_t i = begin; i < end; ++i) {
        auto s = places[i].board < boards.size() ? boards[places[i].board]->public_summary(places[i].id)
                                                 : others->summary(places[i].id);
        if (!s.empty()) summaries.push_back(std::move(s));
    }
    return protocol::rooms_list(summaries, total, begin, req);
}

} // namespace quarto::server::play
