#include "cluster/redis_connection.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <spdlog/spdlog.h>
#include <sys/epoll.h>

namespace quarto::server::cluster {

namespace {
constexpr std::chrono::milliseconds first_backoff{100};
constexpr std::chrono::milliseconds last_backoff{2000};
constexpr std::chrono::milliseconds watchdog_period{500};

redis_connection& owner_of(const redisAsyncContext* c) { return *static_cast<redis_connection*>(c->data); }
} // namespace

redis_connection::redis_connection(net::event_loop& loop, redis_address where, std::string name, state_handler on_state)
    : loop_{loop}, where_{std::move(where)}, name_{std::move(name)}, on_state_{std::move(on_state)}
{
    retry_timer_ = loop_.timers().add([this] { connect_now(); });
    watchdog_timer_ = loop_.timers().add([this] {
        check_stall();
        if (open_) loop_.timers().set(watchdog_timer_, loop_.turn_time() + watchdog_period);
    });
}

redis_connection::~redis_connection()
{
    close();
    loop_.timers().remove(retry_timer_);
    loop_.timers().remove(watchdog_timer_);
}

void redis_connection::open()
{
    if (open_) return;
    open_ = true;
    backoff_ = first_backoff;
    loop_.timers().set(watchdog_timer_, loop_.turn_time() + watchdog_period);
    connect_now();
}

void redis_connection::close()
{
    open_ = false;
    on_state_ = {}; // whoever closes is no longer listening
    loop_.timers().cancel(retry_timer_);
    loop_.timers().cancel(watchdog_timer_);
    if (context_) drop("closed");
}

void redis_connection::connect_now()
{
    if (!open_ || context_) return;
    redisAsyncContext* c = where_.unix_path.empty() ? redisAsyncConnect(where_.host.c_str(), where_.port)
                                                    : redisAsyncConnectUnix(where_.unix_path.c_str());
    if (!c) return lost("out of memory");
    if (c->err) {
        const std::string why = c->errstr;
        redisAsyncFree(c);
        return lost(why);
    }
    context_ = c;
    going_ = false;
    fd_ = c->c.fd;
    c->data = this;
    // The hooks first: setting the connect callback already asks for the first write event.
    c->ev.data = this;
    c->ev.addRead = add_read;
    c->ev.delRead = del_read;
    c->ev.addWrite = add_write;
    c->ev.delWrite = del_write;
    c->ev.cleanup = cleanup;
    redisAsyncSetConnectCallback(c, on_connect);
    redisAsyncSetDisconnectCallback(c, on_disconnect);
    connect_started_ = loop_.turn_time();

    // Queued now, written once connected, ahead of anything else.
    queueing_setup_ = true;
    if (!where_.password.empty()) {
        std::vector<std::string> auth{"AUTH"};
        if (!where_.user.empty()) auth.push_back(where_.user);
        auth.push_back(where_.password);
        command(auth, [this](const redis_reply& r) {
            if (r.is_error()) spdlog::error("{}: Redis refused AUTH: {}", name_, r.text);
        });
    }
    if (where_.db != 0)
        command({"SELECT", std::to_string(where_.db)}, [this](const redis_reply& r) {
            if (r.is_error()) spdlog::error("{}: Redis refused SELECT {}: {}", name_, where_.db, r.text);
        });
    queueing_setup_ = false;
    for (const auto& subscription : channels_) send_subscribe(subscription.first);
}

bool redis_connection::command(const std::vector<std::string>& args, reply_handler done)
{
    const std::vector<std::string_view> views(args.begin(), args.end());
    return command(std::span<const std::string_view>{views}, std::move(done));
}

bool redis_connection::command(std::span<const std::string_view> args, reply_handler done)
{
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    argv.reserve(args.size());
    lengths.reserve(args.size());
    for (const auto a : args) {
        argv.push_back(a.data());
        lengths.push_back(a.size());
    }
    return send(static_cast<int>(argv.size()), argv.data(), lengths.data(), std::move(done));
}

bool redis_connection::send(int argc, const char** argv, const std::size_t* lengths, reply_handler done)
{
    if (!context_ || going_ || (!up_ && !queueing_setup_)) return false;
    auto* waiting = new reply_handler{std::move(done)};
    if (redisAsyncCommandArgv(context_, on_reply, waiting, argc, argv, lengths) != REDIS_OK) {
        delete waiting;
        return false;
    }
    if (outstanding_++ == 0) last_progress_ = loop_.turn_time();
    return true;
}

void redis_connection::subscribe(const std::string& channel, message_handler on_message)
{
    const bool known = channels_.contains(channel);
    channels_[channel] = std::move(on_message);
    if (!known && up_) send_subscribe(channel);
}

void redis_connection::send_subscribe(const std::string& channel)
{
    const char* argv[] = {"SUBSCRIBE", channel.data()};
    const std::size_t lengths[] = {9, channel.size()};
    // The callback lives as long as the subscription: hiredis calls it for every message.
    redisAsyncCommandArgv(context_, on_message, this, 2, argv, lengths);
}

// ---- hiredis's callbacks ---------------------------------------------------------------------

void redis_connection::on_connect(const redisAsyncContext* c, int status)
{
    auto& self = owner_of(c);
    if (status != REDIS_OK) { // hiredis frees the context when this returns
        self.context_ = nullptr;
        return self.lost(c->errstr);
    }
    self.up_ = true;
    self.backoff_ = first_backoff;
    self.last_progress_ = self.loop_.turn_time();
    spdlog::info("{}: connected to Redis at {}", self.name_, self.where_.shown());
    self.last_failure_.clear();
    if (self.on_state_) self.on_state_(true, {});
}

void redis_connection::on_disconnect(const redisAsyncContext* c, int)
{
    auto& self = owner_of(c);
    self.context_ = nullptr;
    self.lost(c->err ? c->errstr : "closed by Redis");
}

void redis_connection::on_reply(redisAsyncContext* c, void* reply, void* privdata)
{
    std::unique_ptr<reply_handler> handler{static_cast<reply_handler*>(privdata)};
    auto& self = owner_of(c);
    if (self.outstanding_ > 0) --self.outstanding_;
    self.last_progress_ = self.loop_.turn_time();
    if (!reply) { // the connection is going: no command may be sent on it from here
        self.going_ = true;
        if (*handler) (*handler)(redis_reply::failure("the connection to Redis was lost"));
        return;
    }
    if (*handler) (*handler)(redis_reply::copy_of(*static_cast<redisReply*>(reply)));
}

void redis_connection::on_message(redisAsyncContext* c, void* reply, void*)
{
    if (!reply) return;
    auto& self = owner_of(c);
    self.last_progress_ = self.loop_.turn_time();
    const auto* r = static_cast<const redisReply*>(reply);
    // ["message", channel, payload]; "subscribe" confirmations carry a count instead.
    if (r->type != REDIS_REPLY_ARRAY || r->elements != 3 || r->element[2]->type != REDIS_REPLY_STRING) return;
    const std::string_view kind{r->element[0]->str, r->element[0]->len};
    if (kind != "message") return;
    const std::string_view channel{r->element[1]->str, r->element[1]->len};
    const auto found = self.channels_.find(channel);
    if (found != self.channels_.end() && found->second)
        found->second(std::string_view{r->element[2]->str, r->element[2]->len});
}

void redis_connection::add_read(void* self)
{
    auto& s = *static_cast<redis_connection*>(self);
    s.reading_ = true;
    s.interest_changed();
}

void redis_connection::del_read(void* self)
{
    auto& s = *static_cast<redis_connection*>(self);
    s.reading_ = false;
    s.interest_changed();
}

void redis_connection::add_write(void* self)
{
    auto& s = *static_cast<redis_connection*>(self);
    s.writing_ = true;
    s.interest_changed();
}

void redis_connection::del_write(void* self)
{
    auto& s = *static_cast<redis_connection*>(self);
    s.writing_ = false;
    s.interest_changed();
}

void redis_connection::cleanup(void* self)
{
    auto& s = *static_cast<redis_connection*>(self);
    if (s.registered_) s.loop_.remove(s.fd_);
    s.registered_ = s.reading_ = s.writing_ = false;
    s.fd_ = -1;
}

// ---- the socket --------------------------------------------------------------------------------

void redis_connection::interest_changed()
{
    const std::uint32_t events = (reading_ ? EPOLLIN : 0u) | (writing_ ? EPOLLOUT : 0u);
    if (registered_) {
        loop_.modify(fd_, *this, events);
    } else if (events != 0) {
        registered_ = loop_.add(fd_, *this, events);
        if (!registered_) spdlog::error("{}: epoll refused the Redis socket", name_);
    }
}

void redis_connection::on_ready(std::uint32_t ready)
{
    if (context_ && (ready & (EPOLLIN | EPOLLERR | EPOLLHUP))) redisAsyncHandleRead(context_);
    if (context_ && (ready & EPOLLOUT)) redisAsyncHandleWrite(context_);
}

// ---- losing it, and trying again ---------------------------------------------------------------

void redis_connection::lost(const std::string& why)
{
    const bool was_up = up_;
    up_ = false;
    outstanding_ = 0;
    if (was_up && open_) {
        spdlog::warn("{}: lost Redis at {}: {}", name_, where_.shown(), why);
        last_failure_ = why;
    } else if (open_ && why != last_failure_) {
        spdlog::warn("{}: cannot reach Redis at {}: {} (trying again)", name_, where_.shown(), why);
        last_failure_ = why;
    }
    if (on_state_ && was_up) on_state_(false, why);
    if (open_) {
        loop_.timers().set(retry_timer_, loop_.turn_time() + backoff_);
        backoff_ = std::min(backoff_ * 2, last_backoff);
    }
}

void redis_connection::check_stall()
{
    if (!context_) return;
    const auto now = loop_.turn_time();
    if (!up_ && now - connect_started_ > connect_timeout) return drop("no connection within 2 s");
    if (up_ && outstanding_ > 0 && now - last_progress_ > stall_limit) drop("no reply for 3 s");
}

void redis_connection::drop(const std::string& why)
{
    redisAsyncContext* c = std::exchange(context_, nullptr);
    c->onDisconnect = nullptr; // we say it ourselves, with the reason
    redisAsyncFree(c);         // pending commands get their failure reply
    lost(why);
}

} // namespace quarto::server::cluster
