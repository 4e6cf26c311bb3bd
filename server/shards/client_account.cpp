// The client's side of accounts: a hello that is an account's (its session, from the hello or
// the WebSocket's cookie), and the names a guest may not take (an account's). Each asks the
// archive, whose answer comes back to this shard: the client waits for it (finding_player_),
// as for a token Redis knows.
#include <array>

#include <spdlog/spdlog.h>

#include "quarto/archive/token_hash.hpp"
#include "quarto/core/rating/glicko2.hpp"
#include "quarto/protocol/encode.hpp"
#include "shards/client.hpp"
#include "shards/shard.hpp"

namespace quarto::server::shards {

using protocol::error_code;

namespace {

using ratings_by_pool = std::array<std::optional<archive::stored_rating>, 2>;

ratings_by_pool by_pool(const std::vector<archive::stored_rating>& stored)
{
    ratings_by_pool out;
    for (const auto& r : stored) out[static_cast<std::size_t>(r.pool)] = r;
    return out;
}

} // namespace

void client::sign_in(const std::string& session, bool from_hello, const protocol::hello& h, const json& req)
{
    auto* archive = home_.state().archive.get();
    if (!archive) return reply_error(error_code::unknown_session, protocol::default_message(error_code::unknown_session), req);
    finding_player_ = true;
    shard* home = &home_;
    // Runs on the archive's thread: the session, then its account and ratings, then back here.
    const auto back = [home, ref = self_](std::function<void(client&)> then) {
        home->post([ref, then = std::move(then)](shard& s) {
            if (client* c = s.find_client(ref)) then(*c);
        });
    };
    const auto not_signed_in = [back, from_hello, h, req](bool failed) {
        back([from_hello, h, req, failed](client& c) {
            c.finding_player_ = false;
            // A cookie that no longer holds a session leaves a guest's hello as it was.
            if (!from_hello && !failed && (h.name || h.token)) {
                c.cookie_session_.clear();
                c.hello(h, req);
            } else if (failed) {
                c.reply_error(error_code::unavailable, "Accounts cannot be reached just now; try again in a moment.", req);
            } else {
                c.reply_error(error_code::unknown_session, protocol::default_message(error_code::unknown_session), req);
            }
            c.release_held();
        });
    };
    archive->find_session(archive::token_hash(session), play::server_clock::unix_ms(), [=](auto found) {
        if (found.failed || !found.value) return not_signed_in(found.failed);
        const std::string id = *found.value;
        archive->find_account(id, [=](auto account) {
            if (account.failed || !account.value) return not_signed_in(account.failed);
            archive->ratings_of(id, [=, name = account.value->name](auto ratings) {
                if (ratings.failed) return not_signed_in(true);
                back([id, name, req, rated = by_pool(ratings.value)](client& c) { c.signed_in(id, name, rated, req); });
            });
        });
    });
}

void client::signed_in(const std::string& id, const std::string& name, const ratings_by_pool& ratings, const json& req)
{
    finding_player_ = false;
    auto& players = home_.players();
    renames_seen_ = players.renames();
    player_ = players.sign_in(id, name, ratings);
    cookie_session_.clear(); // not needed again, and a secret
    // An account's hello always resumes: the same player may be in rooms from another device.
    welcome({}, true, req);
    release_held();
}

std::vector<protocol::pool_rating> client::account_ratings() const
{
    // Both pools: one with no rated game yet is a new player's rating.
    std::vector<protocol::pool_rating> out;
    for (const auto pool : {rating::pool::standard, rating::pool::advanced}) {
        const archive::stored_rating r = player_->rating_in(pool);
        const rating::rating now{r.rating, r.deviation, r.volatility, r.games};
        out.push_back({rating::name(pool), r.rating, r.deviation, r.volatility, r.games, rating::provisional(now)});
    }
    return out;
}

void client::check_guest_name(const std::string& name, std::function<void(client&)> free, const json& req)
{
    auto* archive = home_.state().archive.get();
    if (!archive) return free(*this);
    finding_player_ = true;
    shard* home = &home_;
    archive->name_is_account(name, [home, ref = self_, free = std::move(free), req](auto taken) {
        home->post([ref, free, req, taken](shard& s) {
            client* c = s.find_client(ref);
            if (!c) return;
            c->finding_player_ = false;
            // An archive out of reach does not keep guests out of play: names are checked
            // again when an account is made.
            if (!taken.failed && taken.value) c->reply_error(error_code::name_taken, protocol::default_message(error_code::name_taken), req);
            else free(*c);
            c->release_held();
        });
    });
}

} // namespace quarto::server::shards
