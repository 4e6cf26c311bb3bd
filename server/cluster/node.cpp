#include "cluster/node.hpp"

#include <algorithm>
#include <charconv>
#include <utility>

#include <spdlog/spdlog.h>

#include "cluster/relay_record.hpp"
#include "cluster/scripts.hpp"

namespace quarto::server::cluster {

namespace {

using namespace scripts;

using place_kind = node::place_kind;

std::string owner_key(place_kind kind, std::string_view id)
{
    return (kind == place_kind::room ? "quarto:room:" : "quarto:tournament:") + std::string{id};
}
std::string_view listing_key(place_kind kind) { return kind == place_kind::room ? lobby_key : tournaments_key; }
constexpr std::chrono::milliseconds release_wait{500};

} // namespace

node::node(redis_address redis, std::string id, hooks h)
    : redis_{std::move(redis)},
      id_{std::move(id)},
      hooks_{std::move(h)},
      redis_connection_{loop_, redis_, "node " + id_, [this](bool up, const std::string&) {
                            redis_up_.store(up, std::memory_order_relaxed);
                            if (!up) return;
                            beat(); // at once: a node that just started or reconnected is seen
                            claim_all();
                        }},
      subscriber_{loop_, redis_, "node " + id_ + " (channel)", [this](bool up, const std::string&) {
                      if (!up) return;
                      if (std::exchange(subscribed_before_, true))
                          loop_.timers().set(redis_back_timer_, loop_.turn_time() + redis_back_delay);
                  }}
{
    for (const std::string& channel : {"quarto:node:" + id_, std::string{all_nodes_channel}})
        subscriber_.subscribe(channel, [this](std::string_view payload) {
            if (hooks_.records) hooks_.records(payload);
        });
    retry_timer_ = loop_.timers().add([this] { run_retries(); });
    redis_back_timer_ = loop_.timers().add([this] {
        if (hooks_.redis_back) hooks_.redis_back();
    });
    beat_timer_ = loop_.timers().add([this] {
        loop_.timers().set(beat_timer_, loop_.turn_time() + heartbeat);
        beat();
    });
}

node::~node() { stop(); }

void node::start()
{
    thread_ = std::thread{[this] {
        loop_.refresh_turn_time();
        redis_connection_.open();
        subscriber_.open();
        loop_.timers().set(beat_timer_, loop_.turn_time() + heartbeat);
        loop_.run(*this);
        subscriber_.close();
        redis_connection_.close();
    }};
}

void node::stop()
{
    if (!thread_.joinable()) return;
    post([this] { release_lease(); });
    thread_.join();
}

void node::post(std::function<void()> task)
{
    {
        std::lock_guard lock{mutex_};
        tasks_.push_back(std::move(task));
    }
    loop_.wake();
}

void node::on_wake()
{
    std::vector<std::function<void()>> tasks;
    {
        std::lock_guard lock{mutex_};
        tasks.swap(tasks_);
    }
    for (auto& t : tasks) t();
}

std::vector<node::peer> node::peers() const
{
    std::lock_guard lock{mutex_};
    return peers_;
}

// ---- rooms ------------------------------------------------------------------------------------

void node::claim(place_kind kind, const std::string& id)
{
    post([this, kind, id] {
        auto key = owner_key(kind, id);
        redis_connection_.command({"SET", key, id_}, {});
        held_.try_emplace(std::move(key), held_place{kind, id, {}, {}});
    });
}

void node::release(place_kind kind, const std::string& id)
{
    post([this, kind, id] {
        const auto key = owner_key(kind, id);
        held_.erase(key);
        if (kind == place_kind::room)
            redis_connection_.command({"EVAL", release_place_script, "2", key, lobby_key, id_, id}, {});
        else
            redis_connection_.command({"EVAL", release_place_script, "3", key, tournaments_key, tournament_views_key, id_, id}, {});
    });
}

void node::claim_all()
{
    for (const auto& [key, place] : held_) {
        redis_connection_.command({"SET", key, id_}, {});
        if (!place.listing.empty()) redis_connection_.command({"HSET", listing_key(place.kind), place.id, place.listing}, {});
        if (!place.view.empty()) redis_connection_.command({"HSET", tournament_views_key, place.id, place.view}, {});
    }
}

void node::to_owner(place_kind kind, const std::string& id, std::string records, std::function<void(undelivered)> failed)
{
    post([this, key = owner_key(kind, id), records = std::move(records), failed = std::move(failed)]() mutable {
        send_to_owner(std::move(key), std::move(records), std::move(failed), 0);
    });
}

void node::send_to_owner(std::string key, std::string records, std::function<void(undelivered)> failed, int attempt)
{
    auto shared = std::make_shared<std::string>(std::move(records));
    const bool sent = redis_connection_.command(
        {"EVAL", to_owner_script, "1", key, id_, *shared},
        [this, key, shared, failed, attempt](const redis_reply& r) mutable {
            if (r.type == redis_reply::kind::integer && r.integer == 1) return;
            // No owner yet: the room may have been made a moment ago on another node, whose
            // record is on its way. Asked again a few times before the answer is no.
            // An owner that no longer listens (-2): it has stopped, and its rooms are being
            // taken over (within milliseconds of a SIGTERM; after its lease's TTL when it died).
            // Held a little longer before the answer is "unavailable, send it again".
            const bool no_owner_yet = r.integer == 0 && attempt < owner_retries;
            const bool owner_gone = r.integer == -2 && attempt < owner_gone_retries;
            if (r.type == redis_reply::kind::integer && (no_owner_yet || owner_gone))
                return later([this, key, shared, failed, attempt]() mutable {
                    send_to_owner(std::move(key), std::move(*shared), std::move(failed), attempt + 1);
                });
            spdlog::debug("node {}: {} not delivered after {} attempts (owner script: {})", id_, key, attempt + 1,
                          r.type == redis_reply::kind::integer ? std::to_string(r.integer) : std::string{"no integer"});
            if (r.type == redis_reply::kind::integer && r.integer == -1) return failed(undelivered::here);
            if (r.type == redis_reply::kind::integer && r.integer == 0) return failed(undelivered::no_owner);
            failed(undelivered::unavailable);
        });
    if (!sent) failed(undelivered::unavailable);
}

void node::later(std::function<void()> task)
{
    const auto at = loop_.turn_time() + owner_retry_delay;
    if (retries_.empty()) loop_.timers().set(retry_timer_, at);
    retries_.emplace_back(at, std::move(task));
}

void node::run_retries()
{
    const auto now = loop_.turn_time();
    while (!retries_.empty() && retries_.front().first <= now) {
        auto task = std::move(retries_.front().second);
        retries_.pop_front();
        task();
    }
    if (!retries_.empty()) loop_.timers().set(retry_timer_, retries_.front().first);
}

void node::publish_listing(place_kind kind, const std::string& id, std::string text)
{
    post([this, kind, id, text = std::move(text)] {
        const auto it = held_.find(owner_key(kind, id));
        if (it == held_.end()) return;
        it->second.listing = text; // published again if Redis comes back empty
        redis_connection_.command({"HSET", listing_key(kind), id, text}, {});
    });
}

void node::publish_view(const std::string& tournament, std::string snapshot)
{
    post([this, tournament, snapshot = std::move(snapshot)] {
        const auto it = held_.find(owner_key(place_kind::tournament, tournament));
        if (it == held_.end()) return;
        it->second.view = snapshot;
        redis_connection_.command({"HSET", tournament_views_key, tournament, snapshot}, {});
    });
}

void node::find_view(const std::string& tournament, std::function<void(std::optional<std::string>)> found)
{
    post([this, tournament, found = std::move(found)] {
        const bool sent = redis_connection_.command({"HGET", tournament_views_key, tournament}, [found](const redis_reply& r) {
            found(r.type == redis_reply::kind::text ? std::optional<std::string>{r.text} : std::nullopt);
        });
        if (!sent) found(std::nullopt);
    });
}

void node::beat_now()
{
    post([this] { beat(); });
}

void node::to_all(std::string records)
{
    post([this, records = std::move(records)] {
        redis_connection_.command({"PUBLISH", all_nodes_channel, records}, {});
    });
}

void node::to_node(const std::string& id, std::string records)
{
    post([this, id, records = std::move(records)] {
        redis_connection_.command({"PUBLISH", "quarto:node:" + id, records}, {});
    });
}

// ---- taking the rooms of dead nodes over ----------------------------------------------------------

void node::found_dead(const std::string& dead, const std::string& token_text)
{
    if (dead == id_ || taking_over_.contains(dead) || !hooks_.dead_node) return;
    std::int64_t token = 0;
    if (std::from_chars(token_text.data(), token_text.data() + token_text.size(), token).ec != std::errc{}) return;
    // One survivor takes a dead node over: whoever sets the mark first.
    taking_over_.insert(dead);
    const bool sent = redis_connection_.command(
        {"EVAL", mark_dead_script, "0", dead, token_text, id_, "30000"}, [this, dead, token](const redis_reply& r) {
            if (r.type != redis_reply::kind::integer || r.integer != 1) return (void)taking_over_.erase(dead); // not for us
            spdlog::warn("node {}: node {} is gone (lease expired); taking its rooms over", id_, dead);
            hooks_.dead_node(dead, token);
        });
    if (!sent) taking_over_.erase(dead);
}

void node::took_over(const std::string& dead, std::int64_t token, bool all)
{
    post([this, dead, token, all] {
        taking_over_.erase(dead);
        if (all) redis_connection_.command({"EVAL", took_over_script, "0", dead, std::to_string(token)}, {});
        else redis_connection_.command({"DEL", "quarto:takeover:" + dead + ":" + std::to_string(token)}, {});
    });
}

// ---- players ------------------------------------------------------------------------------------

void node::publish_player(const std::string& token_hash, std::string record)
{
    post([this, key = "quarto:player:" + token_hash, record = std::move(record)] {
        const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(player_ttl).count();
        redis_connection_.command({"SET", key, record, "EX", std::to_string(seconds)}, {});
    });
}

void node::find_player(const std::string& token_hash, std::function<void(std::optional<std::string>)> found)
{
    post([this, key = "quarto:player:" + token_hash, found = std::move(found)] {
        const bool sent = redis_connection_.command({"GET", key}, [found](const redis_reply& r) {
            if (r.type == redis_reply::kind::text) return found(r.text);
            if (r.is_error()) spdlog::warn("a player's token could not be looked up in Redis: {}", r.text);
            found(std::nullopt);
        });
        if (!sent) found(std::nullopt);
    });
}

// ---- the lease ---------------------------------------------------------------------------------

void node::beat()
{
    if (token_held_.load(std::memory_order_relaxed) != 0 && loop_.turn_time() - last_renewed_ > lease_ttl) {
        // It may have expired in Redis and been taken over: never act on it, nor take it back.
        spdlog::error("node {}: its lease (token {}) went unrenewed for {} s; it takes a new one once Redis answers",
                      id_, token_, lease_ttl.count() / 1000.0);
        lease_losses_.fetch_add(1, std::memory_order_relaxed);
        token_held_.store(0, std::memory_order_relaxed);
        token_ = 0;
    }
    if (!redis_connection_.up() || beat_pending_) return;
    if (token_ == 0) return take_token();
    renew(acquiring_);
}

void node::take_token()
{
    beat_pending_ = redis_connection_.command({"EVAL", token_script, "1", epoch_key}, [this](const redis_reply& r) {
        beat_pending_ = false;
        if (r.type != redis_reply::kind::integer) {
            spdlog::warn("node {}: no fencing token from Redis: {}", id_, r.text);
            return;
        }
        token_ = r.integer;
        acquiring_ = true;
        beat();
    });
}

void node::renew(bool acquiring)
{
    const std::string lease = "quarto:node:" + id_;
    const std::string token = std::to_string(token_);
    const std::string ttl = std::to_string(lease_ttl.count());
    const std::string figures = hooks_.figures ? hooks_.figures() : std::string{"{}"};
    beat_pending_ = redis_connection_.command(
        {"EVAL", heartbeat_script, "3", lease, lease + ":figures", nodes_key, token, ttl, figures, id_, acquiring ? "1" : "0"},
        [this, acquiring, sent = loop_.turn_time()](const redis_reply& r) {
            beat_pending_ = false;
            if (r.type != redis_reply::kind::array || r.elements.size() < 2 || r.elements[0].type != redis_reply::kind::integer) {
                spdlog::warn("node {}: heartbeat failed: {}", id_, r.is_error() ? r.text : "an unexpected reply");
                return;
            }
            renewed(r, acquiring, sent);
        });
}

void node::renewed(const redis_reply& r, bool acquiring, std::chrono::steady_clock::time_point sent)
{
    const auto status = r.elements[0].integer;
    if (status == -1) {
        spdlog::trace("node {}: waiting for token {} (was {})", id_, r.elements[1].text, waiting_for_);
        // Most often this node's previous process, gone without giving its lease back (a crash,
        // a kill): its lease expires within the TTL. Held longer, the holder is alive.
        if (waiting_for_ != r.elements[1].text) {
            spdlog::warn("node {}: its lease is held (token {}), by its previous process if that stopped without "
                         "giving it back: waiting up to {} s for it to expire",
                         id_, r.elements[1].text, lease_ttl.count() / 1000.0);
            waiting_since_ = sent;
            held_elsewhere_logged_ = false;
        } else if (!held_elsewhere_logged_ && sent - waiting_since_ > 2 * lease_ttl) {
            spdlog::error("node {}: another live process holds this node id (token {}); still waiting. Give every "
                          "node its own --node-id.",
                          id_, r.elements[1].text);
            held_elsewhere_logged_ = true;
        }
        waiting_for_ = r.elements[1].text;
        return;
    }
    if (status == 0) {
        spdlog::error("node {}: its lease (token {}) expired under it: paused or cut off from Redis for more than "
                      "{} s. Taking a new one.",
                      id_, token_, lease_ttl.count() / 1000.0);
        lease_losses_.fetch_add(1, std::memory_order_relaxed);
        token_held_.store(0, std::memory_order_relaxed);
        token_ = 0;
        return beat();
    }
    last_renewed_ = sent; // the lease runs from before the script ran, never from the reply
    if (acquiring) {
        spdlog::info("node {}: lease taken in Redis at {} (fencing token {})", id_, redis_.shown(), token_);
        acquiring_ = false;
        waiting_for_.clear();
        token_held_.store(token_, std::memory_order_relaxed);
        if (hooks_.new_token) hooks_.new_token(token_, std::exchange(previous_token_, token_));
        previous_token_ = token_;
    }
    std::vector<peer> read;
    if (r.elements.size() >= 3)
        for (std::size_t i = 0; i + 1 < r.elements[2].elements.size(); i += 2)
            read.push_back({r.elements[2].elements[i].text, r.elements[2].elements[i + 1].text,
                            r.elements[2].elements[i].text == id_});
    if (r.elements.size() >= 4)
        for (std::size_t i = 0; i + 1 < r.elements[3].elements.size(); i += 2)
            found_dead(r.elements[3].elements[i].text, r.elements[3].elements[i + 1].text);
    std::stable_partition(read.begin(), read.end(), [](const peer& p) { return p.self; });
    std::vector<std::string> live;
    for (const auto& p : read) live.push_back(p.id);
    read_listing(lobby_key, hooks_.rooms, live);
    read_listing(tournaments_key, hooks_.tournaments, std::move(live));
    std::lock_guard lock{mutex_};
    peers_ = std::move(read);
}

void node::read_listing(std::string_view key, const listing& to, std::vector<std::string> live)
{
    if (!to) return;
    redis_connection_.command({"HGETALL", key}, [&to, live = std::move(live)](const redis_reply& all) mutable {
        if (all.type != redis_reply::kind::array) return;
        std::vector<std::pair<std::string, std::string>> entries;
        for (std::size_t i = 0; i + 1 < all.elements.size(); i += 2)
            entries.emplace_back(all.elements[i].text, all.elements[i + 1].text);
        to(std::move(entries), std::move(live));
    });
}

void node::release_lease()
{
    loop_.timers().cancel(beat_timer_);
    const auto held = token_held_.exchange(0, std::memory_order_relaxed);
    const std::string lease = "quarto:node:" + id_;
    std::string gone;
    append(gone, {relay_record::kind::gone, id_, {}, false, {}, {}, {}});
    const bool sent = held != 0 && redis_connection_.command({"EVAL", release_script, "3", lease, lease + ":figures",
                                                               nodes_key, std::to_string(held), id_, gone},
                                                              [this](const redis_reply& r) {
                                                                  if (r.is_error())
                                                                      spdlog::warn("node {}: lease not given back: {}", id_, r.text);
                                                                  else
                                                                      spdlog::info("node {}: lease given back", id_);
                                                                  loop_.stop();
                                                              });
    if (!sent) return loop_.stop();
    // Redis may not answer: the lease then expires by itself.
    const auto give_up = loop_.timers().add([this] { loop_.stop(); });
    loop_.timers().set(give_up, loop_.turn_time() + release_wait);
}

} // namespace quarto::server::cluster
