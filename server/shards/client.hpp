// One client of the server: the controller of one WebSocket connection. It rate-limits and
// parses each message, answers the session (hello, ping) and the lobby itself, and hands room
// and tournament messages to their room or tournament: directly when it lives on this shard,
// as a message to its shard otherwise. It keeps the list of places its connection is in, as
// the rooms and tournaments tell it, so that it can leave them when the connection closes.
//
// A client in no room that joins one on another shard moves there first (see shard).
#pragma once

#include <algorithm>
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "net/rate_limiter.hpp"
#include "net/ws_connection.hpp"
#include "play/client_ref.hpp"
#include "play/place.hpp"
#include "play/player_registry.hpp"
#include "play/room.hpp"
#include "quarto/protocol/parse.hpp"
#include "shards/migrant.hpp"

namespace quarto::server::shards {

class shard;

class client final : public net::ws_connection::events {
public:
    using json = nlohmann::json;

    // A new connection whose handshake is done; `already_read`: its first bytes, read by the front;
    // `session`: the session id of the handshake's cookie (empty: none), which makes its hello an
    // account's.
    client(shard& home, play::client_ref self, int fd, std::shared_ptr<void> ticket, std::string address,
           std::string remote, std::string already_read, std::string session = {});
    // A client that has moved here.
    client(shard& home, play::client_ref self, migrant&& moved);
    ~client();
    client(const client&) = delete;
    client& operator=(const client&) = delete;

    // Starts reading; a client that moved first finishes what made it move.
    void start();
    const play::client_ref& ref() const { return self_; }
    // Null before hello.
    const std::shared_ptr<const play::player_record>& player() const { return player_; }
    bool in(const play::place& p) const { return std::find(places_.begin(), places_.end(), p) != places_.end(); }
    net::ws_connection& connection() { return connection_; }
    const std::vector<play::place>& places() const { return places_; }
    // Frames are queued that wait for the shard's next flush of watchers.
    bool waiting_watcher_flush = false;

    // What the rooms and tournaments say of this connection.
    void add_place(const play::place& p);
    void remove_place(const play::place& p);

    // A shard holding some of the places being resumed has sent their snapshots (shard::
    // resume_mark): after the last, resumed_all.
    void resume_mark();

    // The record Redis had for a token this node did not know (or nullopt): the hello goes on.
    void found_player(const std::optional<std::string>& record, const std::string& token, const json& req);

    // ws_connection::events
    void on_text(std::string_view message) override;
    void on_binary() override;
    void on_closed() override;

private:
    void handle(std::string_view text);
    void on_session(const protocol::session_message& m, const json& req);
    void on_lobby(protocol::lobby_message& m, const json& req);
    void on_room(const protocol::room_message& m, const json& req, std::string_view text);
    void on_tournament(const protocol::tournament_message& m, const json& req, std::string_view text);
    void hello(const protocol::hello& h, const json& req);
    // ---- accounts (client_account.cpp) ----
    // The hello of an account: its session (`from_hello`: named by the hello, else the
    // cookie's) is looked up in the archive; a cookie's that has ended leaves a guest's hello.
    void sign_in(const std::string& session, bool from_hello, const protocol::hello& h, const json& req);
    void signed_in(const std::string& id, const std::string& name,
                   const std::array<std::optional<archive::stored_rating>, 2>& ratings, const json& req);
    // The welcome's "ratings" of the account.
    std::vector<protocol::pool_rating> account_ratings() const;
    // A guest may not take an account's name: `free` runs once the archive says it is not one
    // (or cannot say), else the answer is name_taken.
    void check_guest_name(const std::string& name, std::function<void(client&)> free, const json& req);
    // The lookup is done: the messages held meanwhile are handled, in order (until one of them
    // starts another lookup).
    void release_held();
    // Tells the other nodes of a cluster who holds this token (and their name).
    void publish_player();
    // The player is known: the welcome, then (resumed) their rooms and tournaments.
    void welcome(const std::string& token, bool resumed, const json& req);
    void rename(const std::string& name, const json& req);
    // After hello with a token: the player's rooms and tournaments send their snapshots here,
    // then resumed_all.
    void resume_places();
    // The room `id` of this shard, or null.
    play::room* local_room(const model::room_id& id);
    // Moves this client to `target`, `text` to be handled there first.
    void move_to(std::uint16_t target, std::string_view text, bool resume);

    // Joining, leaving and creating have a tighter rate of their own: each reaches everyone
    // in a room, or makes something that lasts. False (answered rate_limited) when over it.
    bool admit_membership_change(const protocol::client_message& m, const json& req);
    bool admit_join_rate(const json& req);
    // The caps on what one player or address holds: false (answered) when over one.
    bool may_enter_room(const model::room_id& id, const json& req);

    void reply(std::string text);
    void reply_error(protocol::error_code code, std::string_view message, const json& req);

    shard& home_;
    const play::client_ref self_;
    net::ws_connection connection_;
    std::shared_ptr<void> ticket_; // this connection's place under the per-address cap
    const std::string address_;    // the client's address, as the per-address caps count it
    net::rate_limiter limiter_;
    net::rate_limiter joins_; // see admit_membership_change
    std::shared_ptr<const play::player_record> player_;
    std::uint64_t renames_seen_ = 0; // the registry's renames() when player_ was last taken
    bool finding_player_ = false;    // hello (or rename) asked Redis or the archive, and awaits the answer
    // What came meanwhile, handled in order once the answer is in: a client may send its first
    // messages right behind its hello.
    std::deque<std::string> held_;
    std::string cookie_session_;     // the handshake's session cookie, until hello
    std::vector<play::place> places_;
    std::string pending_;         // a migrant's message, handled on start()
    bool resume_on_start_ = false; // a migrant that said hello with a token
    // Shards whose snapshots of a resume are still on their way: while any are, the client
    // stays on this shard (their frames are addressed to it here).
    std::size_t resume_marks_left_ = 0;
    std::string carried_;         // bytes read but not yet taken apart (a migrant's, or the front's)
    play::room* cached_room_ = nullptr; // see local_room()
    std::uint64_t cached_epoch_ = 0;
};

} // namespace quarto::server::shards
