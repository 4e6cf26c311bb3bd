// What a shard hosts: its rooms and tournaments, found, created, restored and loaded; the
// messages for them; the lobby's pages; the computer's thinking.
#include "shards/shard.hpp"

#include "play/random_ids.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/stored_tournament.hpp"
#include "shards/client.hpp"
#include "shards/player_json.hpp"
#include "shards/shard_of.hpp"

namespace quarto::server::shards {

bool shard::restore_room(const model::room_id& id, std::span<const archive::journal_entry> entries)
{
    loop_.refresh_turn_time(); // the room's clocks resume from now
    std::string problem;
    auto restored = play::room::restore(*this, id, entries, problem);
    if (!restored) {
        // Kept in the log (the entries are dropped, so that the id is free again).
        spdlog::error("journal: room {} NOT restored: {}", id, problem);
        for (const auto& e : entries) spdlog::error("journal: room {} entry {}: {} | {}", id, e.n, e.change, e.event);
        journal_cut(id, archive::journal_batch::all_entries);
        state_.relocated_rooms.forget(id);
        return false;
    }
    auto& r = *rooms_.emplace(id, std::move(restored)).first->second;
    lobby_.add(r.listing(), r.lobby());
    publish_lobby(id);
    if (state_.cluster) {
        state_.cluster->claim(place_kind::room, id);
        std::vector<std::string> seated;
        for (const auto& seat : r.lobby().seats)
            if (seat) seated.push_back(seat->id);
        announce_moved({play::place::kind::room, id}, seated);
    }
    return true;
}

play::room* shard::find_room(const model::room_id& id)
{
    const auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : it->second.get();
}

std::vector<play::room*> shard::rooms_of_tournament(const model::tournament_id& tournament)
{
    std::vector<play::room*> out;
    for (auto& [id, r] : rooms_)
        if (r->tournament() && r->tournament()->tournament == tournament) out.push_back(r.get());
    return out;
}

tournaments::tournament* shard::find_tournament(const model::tournament_id& id)
{
    const auto it = tournaments_.find(id);
    return it == tournaments_.end() ? nullptr : it->second.get();
}

bool shard::new_games_paused() const { return state_.journal && state_.journal->backlogged(); }

bool shard::new_games_refused(const play::client_ref& from, const nlohmann::json& req)
{
    if (!new_games_paused()) return false;
    counters_.error(protocol::error_code::unavailable);
    send(from, net::make_frame(protocol::error_reply(protocol::error_code::unavailable, play::new_games_paused_message, req)));
    return true;
}

model::room_id shard::new_room_id() const
{
    // Drawn until it hashes to this shard (a few tries: one in `shards` ids does).
    model::room_id id;
    do id = play::new_short_id();
    while (shard_of(id, state_.shards.size()) != index_ || rooms_.contains(id) || state_.relocated_rooms.find(id));
    return id;
}

play::room& shard::create_room(play::room_settings settings, const play::client_ref& creator, const play::player_record& p)
{
    auto id = new_room_id();
    auto& r = *rooms_.emplace(id, std::make_unique<play::room>(*this, id, std::move(settings))).first->second;
    lobby_.add(r.listing(), r.lobby());
    if (state_.cluster) state_.cluster->claim(place_kind::room, id);
    publish_lobby(id);
    r.seat_creator(creator, p);
    return r;
}

play::room& shard::open_game_room(play::room_settings settings, const play::player_record& first_seat,
                                  const play::player_record& second_seat)
{
    auto id = new_room_id();
    auto& r = *rooms_.emplace(id, std::make_unique<play::room>(*this, id, std::move(settings))).first->second;
    lobby_.add(r.listing(), r.lobby());
    if (state_.cluster) state_.cluster->claim(place_kind::room, id);
    publish_lobby(id);
    r.seat_pair(first_seat, second_seat);
    return r;
}

tournaments::tournament& shard::create_tournament(model::tournament_settings settings, const play::player_record& p,
                                                  std::shared_ptr<void> quota)
{
    model::tournament_record record;
    record.settings = std::move(settings);
    record.director = p.info.id;
    record.director_name = p.info.name;
    record.created_ms = unix_ms();
    do { // "t" + 8 random characters, written in place (see player_registry::create)
        record.id = play::new_short_id(9);
        record.id[0] = 't';
    } while (state_.shard_of_tournament(record.id) != index_ || tournaments_.contains(record.id));
    auto views = std::make_shared<tournaments::tournament_views>();
    const auto id = record.id;
    const auto created_ms = record.created_ms;
    auto& t = *tournaments_
                   .emplace(id, std::make_unique<tournaments::tournament>(*this, std::move(record), views, std::move(quota)))
                   .first->second;
    state_.tournaments.add(id, created_ms, std::move(views));
    if (state_.cluster) state_.cluster->claim(place_kind::tournament, id);
    return t;
}

void shard::load_tournament(model::tournament_record record)
{
    auto views = std::make_shared<tournaments::tournament_views>();
    const auto id = record.id;
    const auto created_ms = record.created_ms;
    // An unfinished one counts against its director's cap again (its address is not kept).
    std::shared_ptr<void> quota;
    if (record.status != model::tournament_status::finished)
        quota = state_.tournaments_per_director->admit(record.director, /*even_over_cap=*/true);
    auto& t = *tournaments_
                   .emplace(id, std::make_unique<tournaments::tournament>(*this, std::move(record), views, std::move(quota)))
                   .first->second;
    state_.tournaments.add(id, created_ms, std::move(views));
    if (state_.cluster) state_.cluster->claim(place_kind::tournament, id);
    // Now, not in the posted reopen: a director or player whose hello came before this shard
    // ran it would resume without the tournament (no snapshot, ever).
    t.link_people();
    post([&t](shard&) { t.reopen(); });
}

void shard::adopt_tournament(model::tournament_record record)
{
    const auto id = record.id;
    if (tournaments_.contains(id)) return;
    load_tournament(std::move(record));
    // After the reopen just posted: a client's resume finds the tournament as it goes on.
    post([id](shard& s) {
        if (auto* t = s.find_tournament(id)) s.announce_moved({play::place::kind::tournament, id}, t->people());
    });
}

std::string shard::rooms_page(const protocol::page_request& page, const nlohmann::json& req) const
{
    std::vector<const play::lobby_board*> boards;
    boards.reserve(state_.shards.size());
    for (const auto& s : state_.shards) boards.push_back(&s->lobby_);
    return play::rooms_page(boards, page, req, state_.cluster ? &state_.other_nodes_rooms : nullptr);
}

std::string shard::room_summary(const model::room_id& id) const
{
    // A room is on the board of the shard it lives on; asking each board costs a lookup apiece.
    for (const auto& s : state_.shards)
        if (auto summary = s->lobby_.summary(id); !summary.empty()) return summary;
    return state_.other_nodes_rooms.summary(id);
}

void shard::lobby_changed(const model::room_id& room, const play::lobby_state& state)
{
    lobby_.update(room, state);
    publish_lobby(room);
}

bool shard::think(const bots::think_request& request, std::function<void(const solver::move&)> answer)
{
    if (!state_.bots) return false;
    // The answer comes back through this shard's mailbox: the room is touched on its own thread.
    return state_.bots->submit({request, [this, answer = std::move(answer)](const solver::move& m) {
                                    post([answer, m](shard&) { answer(m); });
                                }});
}

} // namespace quarto::server::shards
