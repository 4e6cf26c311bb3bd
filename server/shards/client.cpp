#include "shards/client.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "quarto/archive/token_hash.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/encode_tournament.hpp"
#include "shards/creation.hpp"
#include "shards/player_json.hpp"
#include "shards/shard.hpp"

namespace quarto::server::shards {

using protocol::error_code;

namespace {

// While a hello is looked up (a few milliseconds): past this many messages, the rest are
// refused as over the rate.
constexpr std::size_t max_held_messages = 64;

net::ws_connection::limits limits_of(const config& settings)
{
    net::ws_connection::limits l;
    l.max_message_bytes = settings.max_message_bytes;
    return l;
}

template <class... Ts>
struct overloaded : Ts... {
    using Ts::operator()...;
};

} // namespace

client::client(shard& home, play::client_ref self, int fd, std::shared_ptr<void> ticket, std::string address,
               std::string remote, std::string already_read, std::string session)
    : home_{home},
      self_{self},
      connection_{home.loop(), home, fd, *this, limits_of(home.state().settings), std::move(remote)},
      ticket_{std::move(ticket)},
      address_{std::move(address)},
      limiter_{home.state().settings.rate_limit, home.state().settings.rate_burst, home.turn_time()},
      joins_{home.state().settings.join_rate, home.state().settings.join_burst, home.turn_time()},
      cookie_session_{std::move(session)},
      carried_{std::move(already_read)}
{
    metrics::move(home_.counters().connections_open, 1);
    metrics::bump(home_.counters().connections_total);
    home_.state().live_connections.fetch_add(1, std::memory_order_relaxed);
}

client::client(shard& home, play::client_ref self, migrant&& moved)
    : home_{home},
      self_{self},
      connection_{home.loop(), home, std::move(moved.connection), *this, limits_of(home.state().settings), moved.remote},
      ticket_{std::move(moved.ticket)},
      address_{std::move(moved.address)},
      limiter_{moved.limiter},
      joins_{moved.joins},
      player_{std::move(moved.player)},
      held_{std::move(moved.held)},
      pending_{std::move(moved.pending)},
      resume_on_start_{moved.resume},
      carried_{std::move(moved.connection.unread)}
{
    metrics::move(home_.counters().connections_open, 1);
    metrics::bump(home_.counters().migrations_in);
}

client::~client() = default;

void client::start()
{
    if (!pending_.empty()) {
        const std::string text = std::move(pending_);
        handle(text);
    }
    if (resume_on_start_) {
        resume_on_start_ = false;
        resume_places();
    }
    release_held();
    if (!connection_.open()) return;
    const std::string already_read = std::move(carried_);
    connection_.start(already_read);
}

void client::add_place(const play::place& p)
{
    if (std::find(places_.begin(), places_.end(), p) == places_.end()) places_.push_back(p);
}

void client::remove_place(const play::place& p) { std::erase(places_, p); }

// ---- messages ------------------------------------------------------------------------------

void client::on_text(std::string_view message)
{
    auto& counters = home_.counters();
    metrics::bump(counters.messages_in);
    const auto received = home_.turn_time();
    switch (limiter_.admit(received)) {
    case net::rate_limiter::verdict::accept:
        try {
            handle(message);
        } catch (const std::exception& e) { // a bug: log it and keep serving
            spdlog::error("ws {}: {}", connection_.remote(), e.what());
        }
        counters.session_handling.record(net::rate_limiter::clock::now() - received);
        break;
    case net::rate_limiter::verdict::refuse:
        reply_error(error_code::rate_limited, protocol::default_message(error_code::rate_limited),
                    protocol::request_id_of(message));
        break;
    case net::rate_limiter::verdict::close:
        spdlog::warn("ws {}: closed for flooding", connection_.remote());
        connection_.close(net::close_code::policy_violation, "too many messages", true);
        break;
    }
}

void client::on_binary()
{
    metrics::bump(home_.counters().messages_in);
    switch (limiter_.admit(home_.turn_time())) {
    case net::rate_limiter::verdict::accept:
        return reply_error(error_code::bad_message, "Messages are JSON in text frames.", nullptr);
    case net::rate_limiter::verdict::refuse:
        return reply_error(error_code::rate_limited, protocol::default_message(error_code::rate_limited), nullptr);
    case net::rate_limiter::verdict::close:
        spdlog::warn("ws {}: closed for flooding", connection_.remote());
        return connection_.close(net::close_code::policy_violation, "too many messages", true);
    }
}

void client::handle(std::string_view text)
{
    if (finding_player_) {
        if (held_.size() >= max_held_messages)
            return reply_error(error_code::rate_limited, protocol::default_message(error_code::rate_limited),
                               protocol::request_id_of(text));
        held_.emplace_back(text);
        return;
    }
    auto parsed = protocol::parse_client_message(text);
    if (auto* error = std::get_if<protocol::parse_error>(&parsed)) {
        // Before hello, a message of any type but hello is answered hello_required, also one of
        // an unknown type or with bad fields; what is not a message at all (unreadable, not an
        // object, a bad req, no type: the parser read no type) gets its own error, as after it.
        if (!player_ && !error->type.empty() && error->type != "hello")
            return reply_error(error_code::hello_required, protocol::default_message(error_code::hello_required),
                               error->req);
        return reply_error(error->code, error->message, error->req);
    }
    auto& [message, req] = std::get<protocol::parsed_message>(parsed);
    if (const auto* session = std::get_if<protocol::session_message>(&message)) return on_session(*session, req);
    if (!player_) return reply_error(error_code::hello_required, protocol::default_message(error_code::hello_required), req);
    if (!admit_membership_change(message, req)) return;
    std::visit(overloaded{
                   [&](const protocol::session_message&) {},
                   [&](protocol::lobby_message& m) { on_lobby(m, req); },
                   [&](const protocol::room_message& m) { on_room(m, req, text); },
                   [&](const protocol::tournament_message& m) { on_tournament(m, req, text); },
               },
               message);
}

void client::on_session(const protocol::session_message& m, const json& req)
{
    std::visit(overloaded{
                   [&](const protocol::hello& h) { hello(h, req); },
                   [&](const protocol::rename& r) {
                       if (!player_)
                           return reply_error(error_code::hello_required,
                                              protocol::default_message(error_code::hello_required), req);
                       if (!admit_join_rate(req)) return;
                       // An account's name is its login: it stays as it was made.
                       if (player_->account)
                           return reply_error(error_code::not_allowed, "An account's name cannot be changed.", req);
                       check_guest_name(r.name, [name = r.name, req](client& c) { c.rename(name, req); }, req);
                   },
                   [&](const protocol::ping&) {
                       if (!player_)
                           return reply_error(error_code::hello_required,
                                              protocol::default_message(error_code::hello_required), req);
                       reply(protocol::pong(play::server_clock::unix_ms(), req));
                   },
               },
               m);
}

void client::hello(const protocol::hello& h, const json& req)
{
    auto& players = home_.players();
    if (player_ || finding_player_)
        return reply_error(error_code::bad_message, "This connection has already said hello.", req);
    if (h.session) return sign_in(*h.session, true, h, req);
    if (!cookie_session_.empty()) return sign_in(cookie_session_, false, h, req);
    renames_seen_ = players.renames();
    if (!h.token) {
        return check_guest_name(*h.name, [h, req](client& c) {
            auto& registry = c.home_.players();
            c.renames_seen_ = registry.renames();
            std::string token; // the player's secret, known here only as they get it
            c.player_ = registry.create(*h.name, &token, c.address_);
            c.publish_player();
            c.welcome(token, false, req);
        }, req);
    }
    if (auto known = players.find_by_token(*h.token); known && !known->account) {
        player_ = std::move(known);
        publish_player(); // another 30 days
        return welcome(*h.token, true, req);
    }
    auto* cluster = home_.state().cluster;
    if (!cluster) return reply_error(error_code::unknown_token, protocol::default_message(error_code::unknown_token), req);
    // Perhaps a token of another node: Redis knows. The answer comes back to this shard.
    finding_player_ = true;
    shard* home = &home_;
    cluster->find_player(archive::token_hash(*h.token), [home, ref = self_, token = *h.token, req](std::optional<std::string> found) {
        home->post([ref, token, req, found = std::move(found)](shard& s) {
            if (client* c = s.find_client(ref)) c->found_player(found, token, req);
        });
    });
}

void client::found_player(const std::optional<std::string>& record, const std::string& token, const json& req)
{
    finding_player_ = false;
    const auto found = record ? player_from_json(*record) : std::nullopt;
    if (!found || found->account) reply_error(error_code::unknown_token, protocol::default_message(error_code::unknown_token), req);
    else {
        player_ = home_.players().restore({found->info, archive::token_hash(token)});
        renames_seen_ = home_.players().renames();
        welcome(token, true, req);
    }
    release_held();
}

void client::release_held()
{
    while (!finding_player_ && !held_.empty()) {
        const std::string text = std::move(held_.front());
        held_.pop_front();
        handle(text);
    }
}

void client::publish_player()
{
    if (player_->account) return; // no token resumes an account: its session does
    if (auto* cluster = home_.state().cluster)
        cluster->publish_player(player_->token_hash, player_json(*player_));
}

void client::welcome(const std::string& token, bool resumed, const json& req)
{
    auto& players = home_.players();
    players.connected(player_->info.id);
    spdlog::info("ws {}: {} is {} ({})", connection_.remote(), resumed ? "resumed" : "hello", player_->info.id,
                 player_->info.name);
    const auto ratings = player_->account ? account_ratings() : std::vector<protocol::pool_rating>{};
    const std::span<const protocol::pool_rating> account{ratings};
    const auto* account_view = player_->account ? &account : nullptr;
    if (!resumed) return reply(protocol::welcome(player_->info, token, req, nullptr, account_view));
    const auto rooms = players.rooms_of(player_->info.id);
    const auto tournaments = players.tournaments_of(player_->info.id);
    const protocol::resume_list resuming{rooms, tournaments};
    reply(protocol::welcome(player_->info, token, req, &resuming, account_view));

    // Where the player's places are: if on one other shard, the connection moves there first.
    const auto& state = home_.state();
    std::optional<std::uint16_t> only;
    bool several = false;
    const auto note = [&](std::uint16_t s) {
        if (only && *only != s) several = true;
        only = s;
    };
    for (const auto& id : rooms) note(state.shard_of_room(id));
    for (const auto& id : tournaments) note(state.shard_of_tournament(id));
    if (only && !several && *only != home_.index() && places_.empty() && home_.state().settings.shard_migration)
        return move_to(*only, {}, true);
    resume_places();
}

void client::rename(const std::string& name, const json& req)
{
    auto& players = home_.players();
    const std::string old_name = player_->info.name;
    renames_seen_ = players.renames();
    if (auto renamed = players.rename(player_->info.id, name)) player_ = std::move(renamed);
    reply(protocol::renamed(player_->info, req));
    if (player_->info.name == old_name) return;
    publish_player();
    spdlog::info("ws {}: {} renamed", connection_.remote(), player_->info.id);
    // Every room and tournament the player is in, wherever it lives, shows the new name: on
    // this node's shards, and on the other nodes of a cluster.
    if (auto* cluster = home_.state().cluster) {
        std::string renamed;
        cluster::append(renamed, {cluster::relay_record::kind::renamed, cluster->id(), {}, false, {}, player_json(*player_), {}});
        cluster->to_all(std::move(renamed));
    }
    const auto& state = home_.state();
    for (const auto& id : players.rooms_of(player_->info.id))
        home_.run_on(state.shard_of_room(id), [info = player_->info, id](shard& s) {
            if (auto* r = s.find_room(id)) r->rename(info);
        });
    for (const auto& id : players.tournaments_of(player_->info.id))
        home_.run_on(state.shard_of_tournament(id), [info = player_->info, id](shard& s) {
            if (auto* t = s.find_tournament(id)) t->rename(info);
        });
}

void client::resume_places()
{
    auto& players = home_.players();
    const auto& state = home_.state();
    // On a cluster every node is told, and those that hold the player's rooms and tournaments
    // give them back (wherever the player was connected before); this node resumes its own.
    const bool ask_owners = state.cluster == nullptr;
    if (!ask_owners) home_.announce_back(self_, *player_);
    // Each shard resumes its places in the order asked, then sends its mark, which reaches this
    // client behind their snapshots: after the last mark, every snapshot is out.
    std::vector<std::uint16_t> owners;
    const auto owner = [&](std::uint16_t s) {
        if (std::find(owners.begin(), owners.end(), s) == owners.end()) owners.push_back(s);
    };
    for (const auto& id : players.rooms_of(player_->info.id)) {
        home_.resume_in(id, self_, *player_, ask_owners);
        owner(state.shard_of_room(id));
    }
    for (const auto& id : players.tournaments_of(player_->info.id)) {
        home_.resume_tournament_in(id, self_, *player_, ask_owners);
        owner(state.shard_of_tournament(id));
    }
    if (owners.empty()) return reply(protocol::resumed_all());
    resume_marks_left_ = owners.size(); // before the first run_on, which may bring its mark at once
    for (const auto s : owners) home_.run_on(s, [c = self_](shard& there) { there.resume_mark(c); });
}

void client::resume_mark()
{
    if (resume_marks_left_ == 0) return;
    if (--resume_marks_left_ == 0) reply(protocol::resumed_all());
}

void client::on_lobby(protocol::lobby_message& m, const json& req)
{
    std::visit(overloaded{
                   [&](const protocol::list_rooms& l) { reply(home_.rooms_page(l.page, req)); },
                   [&](protocol::create_room& c) {
                       if (home_.new_games_refused(self_, req) || !may_enter_room({}, req)) return;
                       auto made = create_room(home_, std::move(c), self_, *player_, address_);
                       if (auto* refused = std::get_if<creation_refused>(&made))
                           return reply_error(refused->code, refused->message, req);
                       play::room& r = *std::get<play::room*>(made);
                       reply(protocol::room_created(r.id(), req));
                       r.handle(self_, *player_, protocol::join{false}, nullptr); // seated: this sends the snapshot
                   },
                   [&](const protocol::list_tournaments& l) {
                       std::size_t total = 0;
                       const auto page = home_.state().tournaments.summaries(l.page, total);
                       reply(protocol::tournaments_list(page, total, static_cast<std::size_t>(l.page.offset), req));
                   },
                   [&](protocol::create_tournament& c) {
                       auto made = create_tournament(home_, std::move(c), *player_, address_);
                       if (auto* refused = std::get_if<creation_refused>(&made))
                           return reply_error(refused->code, refused->message, req);
                       tournaments::tournament& t = *std::get<tournaments::tournament*>(made);
                       reply(protocol::tournament_created(t.id(), req));
                       t.open(self_, *player_); // subscribes the director: the snapshot follows the reply
                   },
               },
               m);
}

bool client::admit_membership_change(const protocol::client_message& m, const json& req)
{
    bool changes = false;
    std::visit(overloaded{
                   [&](const protocol::session_message&) {},
                   [&](const protocol::lobby_message& l) {
                       changes = std::holds_alternative<protocol::create_room>(l) ||
                                 std::holds_alternative<protocol::create_tournament>(l);
                   },
                   [&](const protocol::room_message& r) {
                       changes = std::holds_alternative<protocol::join>(r.action) || std::holds_alternative<protocol::leave>(r.action);
                   },
                   [&](const protocol::tournament_message& t) {
                       changes = std::holds_alternative<protocol::join_tournament>(t.action) ||
                                 std::holds_alternative<protocol::withdraw_tournament>(t.action) ||
                                 std::holds_alternative<protocol::watch_tournament>(t.action) ||
                                 std::holds_alternative<protocol::unwatch_tournament>(t.action);
                   },
               },
               m);
    if (!changes) return true;
    // A connection of the same player elsewhere may have renamed them: enter with the new name.
    if (renames_seen_ != home_.players().renames()) {
        renames_seen_ = home_.players().renames();
        if (auto current = home_.players().find_by_id(player_->info.id)) player_ = std::move(current);
    }
    return admit_join_rate(req);
}

bool client::admit_join_rate(const json& req)
{
    switch (joins_.admit(home_.turn_time())) {
    case net::rate_limiter::verdict::accept: return true;
    case net::rate_limiter::verdict::refuse:
        reply_error(error_code::rate_limited, "Too many joins, leaves, renames or new rooms; slow down.", req);
        return false;
    case net::rate_limiter::verdict::close:
        spdlog::warn("ws {}: closed for flooding joins", connection_.remote());
        connection_.close(net::close_code::policy_violation, "too many messages", true);
        return false;
    }
    return false;
}

bool client::may_enter_room(const model::room_id& id, const json& req)
{
    const std::size_t cap = home_.state().settings.max_rooms_per_player;
    auto& players = home_.players();
    if (players.room_count(player_->info.id) < cap) return true;
    if (!id.empty()) { // one the player is in already: only its snapshot again
        const auto rooms = players.rooms_of(player_->info.id);
        if (std::find(rooms.begin(), rooms.end(), id) != rooms.end()) return true;
    }
    reply_error(error_code::too_many_rooms,
                "You are in " + std::to_string(cap) + " rooms, as many as one player may be in; leave one first.", req);
    return false;
}

void client::move_to(std::uint16_t target, std::string_view text, bool resume)
{
    migrant m{connection_.release(), std::move(ticket_), address_,         connection_.remote(), limiter_, joins_,
              player_,            std::string{text},  resume,  std::move(held_)};
    home_.emigrate(*this, target, std::move(m));
}

// ---- the end -------------------------------------------------------------------------------

void client::on_closed()
{
    for (const auto& p : places_) home_.run_on(home_.state().shard_of_place(p), [ref = self_, p](shard& s) { s.detach(ref, p); });
    places_.clear();
    if (player_) {
        home_.players().disconnected(player_->info.id);
        spdlog::info("ws {}: {} disconnected", connection_.remote(), player_->info.id);
    }
    metrics::move(home_.counters().connections_open, -1);
    home_.state().live_connections.fetch_sub(1, std::memory_order_relaxed);
    home_.retire(*this);
}

void client::reply(std::string text)
{
    metrics::bump(home_.counters().messages_out);
    connection_.send(net::make_frame(text));
}

void client::reply_error(error_code code, std::string_view message, const json& req)
{
    home_.counters().error(code);
    reply(protocol::error_reply(code, message, req));
}

} // namespace quarto::server::shards
