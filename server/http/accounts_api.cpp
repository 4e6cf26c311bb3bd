#include "http/accounts_api.hpp"

#include <memory>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "accounts/password_rules.hpp"
#include "accounts/secret.hpp"
#include "http/games_api.hpp"
#include "http/session_cookie.hpp"
#include "quarto/archive/token_hash.hpp"
#include "quarto/core/rating/glicko2.hpp"
#include "quarto/protocol/encode.hpp"
#include "quarto/protocol/json_text.hpp"
#include "quarto/protocol/parse.hpp"

namespace quarto::server::http {
namespace {

namespace bh = beast::http;
using nlohmann::json;

std::int64_t unix_ms()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

api_reply error(bh::status status, std::string_view code, std::string_view message)
{
    return {status, api_error_body(code, message), {}};
}

api_reply archive_down()
{
    return error(bh::status::service_unavailable, "archive_unavailable",
                 "Accounts cannot be reached just now; please try again in a moment.");
}

api_reply busy()
{
    api_reply r = error(bh::status::too_many_requests, "rate_limited", "Too many logins are being checked; try again in a second.");
    r.headers.emplace_back(bh::field::retry_after, "1");
    return r;
}

api_reply not_logged_in() { return error(bh::status::unauthorized, "not_logged_in", "You are not logged in."); }

api_reply wrong_credentials()
{
    // One answer whether the name is an account's or not.
    return error(bh::status::unauthorized, "wrong_credentials", "That name and password do not match an account.");
}

api_reply rate_limited(std::chrono::seconds wait)
{
    api_reply r = error(bh::status::too_many_requests, "rate_limited",
                        "Too many failed logins; try again in " + std::to_string(wait.count()) + " seconds.");
    r.headers.emplace_back(bh::field::retry_after, std::to_string(wait.count()));
    return r;
}

api_reply signed_in(bh::status status, const std::string& id, const std::string& name, const std::string& session,
                    bool secure)
{
    api_reply r{status, json{{"player", id}, {"name", name}}.dump(), {}};
    r.headers.emplace_back(bh::field::set_cookie, session_cookie(session, secure));
    return r;
}

api_reply no_content(std::vector<std::pair<bh::field, std::string>> headers = {})
{
    return {bh::status::no_content, {}, std::move(headers)};
}

// A JSON object body, or the 400 that says what is wrong with it.
std::variant<json, api_reply> object_body(const std::string& body)
{
    json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return error(bh::status::bad_request, "bad_request", "The body must be a JSON object.");
    return j;
}

// A string member, or nullopt (and `problem` said) when missing or not a string.
const std::string* string_member(const json& j, const char* key, std::string& problem)
{
    const auto it = j.find(key);
    if (it == j.end() || !it->is_string()) {
        problem = std::string{"\""} + key + "\" must be a string.";
        return nullptr;
    }
    return it->get_ptr<const std::string*>();
}

std::optional<api_reply> password_refusal(std::string_view password)
{
    switch (accounts::check_password(password)) {
    case accounts::password_check::ok: return std::nullopt;
    case accounts::password_check::too_short:
        return error(bh::status::bad_request, "bad_password", "A password needs at least 8 characters.");
    case accounts::password_check::too_long:
        return error(bh::status::bad_request, "bad_password", "A password may be at most 256 bytes long.");
    }
    return std::nullopt;
}

// A password read from a body, wiped where it was read: only the secret keeps it.
std::shared_ptr<accounts::secret> take_secret(json& j, const char* key)
{
    auto& text = j[key].get_ref<std::string&>();
    auto kept = std::make_shared<accounts::secret>(text);
    std::fill(text.begin(), text.end(), '\0');
    return kept;
}

json ratings_json(const std::vector<archive::stored_rating>& stored)
{
    json out = json::object();
    for (const auto& r : stored) {
        std::string text;
        {
            protocol::json_text t{text};
            protocol::write_pool_rating(
                t, {rating::name(r.pool), r.rating, r.deviation, r.volatility, r.games,
                    rating::provisional({r.rating, r.deviation, r.volatility, r.games})});
        }
        out[std::string{rating::name(r.pool)}] = json::parse(text);
    }
    return out;
}

// The session's account, then `then(account)` on the archive's thread; a session that has ended
// answers 401.
void with_account(site& server, const std::string& session, api_answer answer,
                  std::function<void(archive::game_archive&, const archive::stored_account&)> then)
{
    auto* archive = server.archive();
    if (!archive) return answer(archive_down());
    if (session.empty()) return answer(not_logged_in());
    archive->find_session(archive::token_hash(session), unix_ms(), [archive, answer, then](auto found) {
        if (found.failed) return answer(archive_down());
        if (!found.value) return answer(not_logged_in());
        archive->find_account(*found.value, [archive, answer, then](auto account) {
            if (account.failed) return answer(archive_down());
            if (!account.value) return answer(not_logged_in());
            then(*archive, *account.value);
        });
    });
}

// A new session for the account, answered with its cookie.
void open_session(site& server, archive::game_archive& archive, const std::string& id, const std::string& name,
                  bh::status status, bool secure, api_answer answer)
{
    std::string session = server.new_session_id();
    const std::string hash = archive::token_hash(session);
    archive.add_session(hash, id, unix_ms(), [id, name, status, secure, answer, session = std::move(session)](auto added) {
        if (added.failed || !added.value) return answer(archive_down());
        answer(signed_in(status, id, name, session, secure));
    });
}

void sign_up(site& server, account_call& call, api_answer answer)
{
    auto body = object_body(call.body);
    if (auto* refusal = std::get_if<api_reply>(&body)) return answer(std::move(*refusal));
    json& j = std::get<json>(body);
    std::string problem;
    const auto name_field = j.find("name");
    const auto name = name_field == j.end() ? std::nullopt : protocol::read_player_name(*name_field, problem);
    if (!name) return answer(error(bh::status::bad_request, "bad_request", problem.empty() ? "\"name\" is missing." : problem));
    if (!string_member(j, "password", problem)) return answer(error(bh::status::bad_request, "bad_request", problem));
    if (auto refusal = password_refusal(j["password"].get_ref<const std::string&>())) return answer(std::move(*refusal));

    std::string id;
    if (const auto token = j.find("token"); token != j.end() && !token->is_null()) {
        if (!token->is_string()) return answer(error(bh::status::bad_request, "bad_request", "\"token\" must be a string."));
        const auto guest = server.guest_of_token(token->get_ref<const std::string&>());
        if (!guest)
            return answer(error(bh::status::bad_request, "unknown_token",
                                protocol::default_message(protocol::error_code::unknown_token)));
        if (guest->account)
            return answer(error(bh::status::conflict, "already_account", "This player has an account already: log in."));
        id = guest->id;
    } else {
        id = server.new_player_id();
    }
    auto* passwords = server.passwords();
    auto* archive = server.archive();
    if (!passwords || !archive) return answer(archive_down());
    site* at = &server;
    const bool secure = call.secure;
    const bool queued = passwords->hash(std::move(*take_secret(j, "password")), [=, name = *name](std::optional<std::string> hash) {
        if (!hash) return answer(error(bh::status::service_unavailable, "unavailable", "The password could not be hashed; try again."));
        archive->create_account(id, name, *hash, unix_ms(), [=](auto made) {
            if (made.failed) return answer(archive_down());
            switch (made.value) {
            case archive::account_creation::name_taken:
                return answer(error(bh::status::conflict, "name_taken", "Another account has that name."));
            case archive::account_creation::already_account:
                return answer(error(bh::status::conflict, "already_account", "This player has an account already: log in."));
            case archive::account_creation::created: break;
            }
            spdlog::info("accounts: {} made an account", id);
            at->account_made(id, name);
            open_session(*at, *archive, id, name, bh::status::created, secure, answer);
        });
    });
    if (!queued) answer(busy());
}

void log_in(site& server, account_call& call, api_answer answer)
{
    auto body = object_body(call.body);
    if (auto* refusal = std::get_if<api_reply>(&body)) return answer(std::move(*refusal));
    json& j = std::get<json>(body);
    std::string problem;
    const std::string* name = string_member(j, "name", problem);
    if (!name || !string_member(j, "password", problem)) return answer(error(bh::status::bad_request, "bad_request", problem));
    const std::string key = archive::account_name_key(*name);
    if (const auto wait = server.login_retry_after(call.address, key); wait.count() > 0) return answer(rate_limited(wait));
    auto* passwords = server.passwords();
    auto* archive = server.archive();
    if (!passwords || !archive) return answer(archive_down());
    auto password = take_secret(j, "password");
    site* at = &server;
    archive->find_account_by_name(*name, [=, address = call.address, secure = call.secure](auto found) {
        if (found.failed) return answer(archive_down());
        std::optional<std::string> stored;
        if (found.value) stored = found.value->password_hash;
        const bool queued = passwords->verify(std::move(*password), std::move(stored),
                                              [=, account = found.value](accounts::password_pool::verify_result r) {
            if (!r.match || !account) {
                at->login_failed(address, key);
                return answer(wrong_credentials());
            }
            at->login_succeeded(key);
            at->account_made(account->player_id, account->name);
            open_session(*at, *archive, account->player_id, account->name, bh::status::ok, secure, answer);
        });
        if (!queued) answer(busy());
    });
}

void log_out(site& server, account_call& call, api_answer answer, bool everywhere)
{
    const std::string ended = ended_session_cookie(call.secure);
    auto* archive = server.archive();
    if (!archive) return answer(archive_down());
    if (!everywhere) { // logging out twice, or without a session, is no failure
        if (call.session.empty()) return answer(no_content({{bh::field::set_cookie, ended}}));
        return archive->end_session(archive::token_hash(call.session), [answer, ended](bool done) {
            answer(done ? no_content({{bh::field::set_cookie, ended}}) : archive_down());
        });
    }
    site* at = &server;
    with_account(server, call.session, answer, [answer, ended, at](archive::game_archive& a, const archive::stored_account& account) {
        a.end_sessions(account.player_id, [answer, ended, at, id = account.player_id](bool done) {
            if (!done) return answer(archive_down());
            at->sessions_ended(id);
            answer(no_content({{bh::field::set_cookie, ended}}));
        });
    });
}

void me(site& server, account_call& call, api_answer answer)
{
    with_account(server, call.session, answer, [answer](archive::game_archive& a, const archive::stored_account& account) {
        a.ratings_of(account.player_id, [answer, account](auto ratings) {
            if (ratings.failed) return answer(archive_down());
            json out{{"player", account.player_id}, {"name", account.name}, {"account", true},
                     {"ratings", ratings_json(ratings.value)}};
            answer({bh::status::ok, out.dump(-1, ' ', false, json::error_handler_t::replace), {}});
        });
    });
}

void change_password(site& server, account_call& call, api_answer answer)
{
    auto body = object_body(call.body);
    if (auto* refusal = std::get_if<api_reply>(&body)) return answer(std::move(*refusal));
    json& j = std::get<json>(body);
    std::string problem;
    if (!string_member(j, "old", problem) || !string_member(j, "new", problem))
        return answer(error(bh::status::bad_request, "bad_request", problem));
    if (auto refusal = password_refusal(j["new"].get_ref<const std::string&>())) return answer(std::move(*refusal));
    auto* passwords = server.passwords();
    if (!passwords) return answer(archive_down());
    auto old_password = take_secret(j, "old");
    auto new_password = take_secret(j, "new");
    site* at = &server;
    const std::string keep = archive::token_hash(call.session);
    with_account(server, call.session, answer, [=, address = call.address](archive::game_archive& a,
                                                                            const archive::stored_account& account) {
        const std::string key = archive::account_name_key(account.name);
        if (const auto wait = at->login_retry_after(address, key); wait.count() > 0) return answer(rate_limited(wait));
        archive::game_archive* archive = &a;
        const bool queued = passwords->verify(std::move(*old_password), account.password_hash, [=](auto r) {
            if (!r.match) {
                at->login_failed(address, key);
                return answer(error(bh::status::unauthorized, "wrong_credentials", "The current password is not right."));
            }
            const bool hashing = passwords->hash(std::move(*new_password), [=](std::optional<std::string> hash) {
                if (!hash) return answer(error(bh::status::service_unavailable, "unavailable", "The password could not be hashed; try again."));
                // Every other session of the account ends: whoever knew the old password is out.
                archive->set_password(account.player_id, *hash, keep, [answer, at, id = account.player_id](auto changed) {
                    if (changed.failed || !changed.value) return answer(archive_down());
                    at->sessions_ended(id); // this device's own socket reconnects with its session
                    answer(no_content());
                });
            });
            if (!hashing) answer(busy());
        });
        if (!queued) answer(busy());
    });
}

void delete_me(site& server, account_call& call, api_answer answer)
{
    site* at = &server;
    const std::string ended = ended_session_cookie(call.secure);
    with_account(server, call.session, answer, [answer, ended, at](archive::game_archive& a, const archive::stored_account& account) {
        a.delete_account(account.player_id, [answer, ended, at, id = account.player_id](auto deleted) {
            if (deleted.failed || !deleted.value) return answer(archive_down());
            spdlog::info("accounts: {} deleted their account", id);
            at->account_made(id, std::string{archive::deleted_player_name});
            at->sessions_ended(id);
            answer(no_content({{bh::field::set_cookie, ended}}));
        });
    });
}

void export_me(site& server, account_call& call, api_answer answer)
{
    with_account(server, call.session, answer, [answer](archive::game_archive& a, const archive::stored_account& account) {
        a.export_account(account.player_id, [answer](auto found) {
            if (found.failed || !found.value) return answer(archive_down());
            api_reply r{bh::status::ok, archive::account_export_json(*found.value).dump(2, ' ', false, json::error_handler_t::replace), {}};
            r.headers.emplace_back(bh::field::content_disposition, "attachment; filename=\"quarto-account.json\"");
            answer(std::move(r));
        });
    });
}

api_reply method_not_allowed(std::string_view allow)
{
    api_reply r = error(bh::status::method_not_allowed, "bad_request", "That method is not served here.");
    r.headers.emplace_back(bh::field::allow, std::string{allow});
    return r;
}

} // namespace

bool is_accounts_route(std::string_view path)
{
    return path == "/api/accounts" || path == "/api/sessions" || path == "/api/sessions/current" || path == "/api/me" ||
           path == "/api/me/password" || path == "/api/me/export";
}

void serve_accounts_api(site& server, account_call call, api_answer answer)
{
    const auto m = call.method;
    const std::string_view p = call.path;
    if (p == "/api/accounts") return m == bh::verb::post ? sign_up(server, call, answer) : answer(method_not_allowed("POST"));
    if (p == "/api/sessions") {
        if (m == bh::verb::post) return log_in(server, call, answer);
        if (m == bh::verb::delete_) return log_out(server, call, answer, true);
        return answer(method_not_allowed("POST, DELETE"));
    }
    if (p == "/api/sessions/current")
        return m == bh::verb::delete_ ? log_out(server, call, answer, false) : answer(method_not_allowed("DELETE"));
    if (p == "/api/me") {
        if (m == bh::verb::get) return me(server, call, answer);
        if (m == bh::verb::delete_) return delete_me(server, call, answer);
        return answer(method_not_allowed("GET, DELETE"));
    }
    if (p == "/api/me/password")
        return m == bh::verb::post ? change_password(server, call, answer) : answer(method_not_allowed("POST"));
    return m == bh::verb::get ? export_me(server, call, answer) : answer(method_not_allowed("GET"));
}

} // namespace quarto::server::http
