// ws_connection over a real loopback TCP connection: the server's side is the connection under
// test on a net::event_loop running on a thread of its own, as a shard runs it; the test hands
// that loop work (send, close, tick, release) and drives the client's side by hand with frames
// built here (masked, as a browser sends them). Time is tick's argument and the turn times the
// owner records: nothing sleeps, every wait is for an event, with a deadline.
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "net/event_loop.hpp"
#include "net/ws_connection.hpp"
#include "net_support.hpp"
#include "tcp_segments.hpp"

using namespace quarto::server::net;
using namespace quarto::server::net::test;
using namespace std::chrono_literals;

namespace {

using steady = ws_connection::clock;
constexpr auto await_limit = 5s; // for events that take microseconds; only a failure waits it out

// A shard in miniature: an event_loop on its own thread. Work handed to it runs within a turn,
// and the frames a turn queued are written at its end, as shards/shard does.
class loop_thread final : public event_loop::owner, public ws_connection::flusher {
public:
    loop_thread() : thread_{[this] { loop_.run(*this); }} {}
    ~loop_thread() { stop(); }
    loop_thread(const loop_thread&) = delete;
    loop_thread& operator=(const loop_thread&) = delete;

    event_loop& loop() { return loop_; }
    void stop()
    {
        if (!thread_.joinable()) return;
        loop_.stop();
        thread_.join();
    }

    // Runs `f` on the loop's thread and returns its result once that turn has ended, so that
    // what it queued has been written.
    template <class F>
    auto call(F&& f) -> std::invoke_result_t<F&>
    {
        using result = std::invoke_result_t<F&>;
        auto done = std::make_shared<std::promise<result>>();
        auto future = done->get_future();
        {
            const std::lock_guard lock{mutex_};
            tasks_.push_back([this, &f, done] {
                if constexpr (std::is_void_v<result>) {
                    f();
                    at_turn_end_.push_back([done] { done->set_value(); });
                } else {
                    at_turn_end_.push_back([done, r = f()]() mutable { done->set_value(std::move(r)); });
                }
            });
        }
        loop_.wake();
        if (future.wait_for(await_limit) != std::future_status::ready) FAIL_CHECK("the loop did not run the task");
        return future.get();
    }

    // How often a connection asked to be flushed.
    int flush_requests()
    {
        return call([this] { return flush_requests_; });
    }

private:
    void on_wake() override
    {
        std::vector<std::function<void()>> tasks;
        {
            const std::lock_guard lock{mutex_};
            tasks.swap(tasks_);
        }
        for (auto& t : tasks) t();
    }
    void end_of_turn() override
    {
        while (!dirty_.empty()) {
            auto batch = std::move(dirty_);
            dirty_.clear();
            for (auto* c : batch) c->flush();
        }
        auto finishing = std::move(at_turn_end_);
        at_turn_end_.clear();
        for (auto& f : finishing) f();
    }
    void needs_flush(ws_connection& c) override
    {
        ++flush_requests_;
        dirty_.push_back(&c);
    }

    event_loop loop_;
    std::mutex mutex_;
    std::vector<std::function<void()>> tasks_;       // from the test's thread
    std::vector<std::function<void()>> at_turn_end_; // the loop's thread only, as the rest
    std::vector<ws_connection*> dirty_;
    int flush_requests_ = 0;
    std::thread thread_; // last: starts once the rest exists
};

// The connection's owner: records what it is told (on the loop's thread); the test waits on it.
class recorder final : public ws_connection::events {
public:
    explicit recorder(event_loop& on) : loop_{on} {}

    // Runs on the loop's thread when a text arrives, before it is recorded.
    std::function<void(std::string_view)> then;

    void on_text(std::string_view message) override
    {
        if (then) then(message);
        {
            const std::lock_guard lock{mutex_};
            texts_.emplace_back(message);
            heard_at_.push_back(loop_.turn_time());
        }
        changed_.notify_all();
    }
    void on_binary() override
    {
        {
            const std::lock_guard lock{mutex_};
            ++binaries_;
        }
        changed_.notify_all();
    }
    void on_closed() override
    {
        {
            const std::lock_guard lock{mutex_};
            ++closed_;
        }
        changed_.notify_all();
    }

    // The test's side.
    std::vector<std::string> texts()
    {
        const std::lock_guard lock{mutex_};
        return texts_;
    }
    int binaries()
    {
        const std::lock_guard lock{mutex_};
        return binaries_;
    }
    int closed()
    {
        const std::lock_guard lock{mutex_};
        return closed_;
    }
    // The turn time at which text `i` arrived: the time the connection last heard the client.
    steady::time_point heard_at(std::size_t i)
    {
        const std::lock_guard lock{mutex_};
        REQUIRE(i < heard_at_.size());
        return heard_at_[i];
    }
    // Waits until `n` texts have arrived (or the connection ended first).
    void wait_texts(std::size_t n)
    {
        std::unique_lock lock{mutex_};
        const bool got = changed_.wait_for(lock, await_limit, [&] { return texts_.size() >= n || closed_ > 0; });
        INFO("texts so far: " << texts_.size() << ", closed " << closed_);
        REQUIRE(got);
        REQUIRE(texts_.size() >= n);
    }
    void wait_binaries(int n)
    {
        std::unique_lock lock{mutex_};
        REQUIRE(changed_.wait_for(lock, await_limit, [&] { return binaries_ >= n || closed_ > 0; }));
        REQUIRE(binaries_ >= n);
    }
    void wait_closed()
    {
        std::unique_lock lock{mutex_};
        REQUIRE(changed_.wait_for(lock, await_limit, [&] { return closed_ > 0; }));
    }

private:
    event_loop& loop_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::string> texts_;
    std::vector<steady::time_point> heard_at_;
    int binaries_ = 0;
    int closed_ = 0;
};

// A frame as the client receives it.
struct server_frame {
    bool fin = false;
    int rsv = 0;
    std::uint8_t op = 0;
    bool masked = false;
    std::string payload;
};

std::string describe(const server_frame& f)
{
    std::ostringstream out;
    out << (f.op <= 0xA ? name(static_cast<opcode>(f.op)) : "opcode?") << "(" << int{f.op} << ")";
    if (!f.fin) out << " !fin";
    if (f.rsv) out << " rsv=" << f.rsv;
    if (f.masked) out << " masked";
    if (f.op == 0x8 && f.payload.size() >= 2)
        out << " code " << ((static_cast<std::uint8_t>(f.payload[0]) << 8) | static_cast<std::uint8_t>(f.payload[1]))
            << " \"" << f.payload.substr(2) << "\"";
    else
        out << " " << f.payload.size() << " bytes \"" << f.payload.substr(0, 40) << (f.payload.size() > 40 ? "..." : "")
            << "\"";
    return out.str();
}

std::string describe(const std::vector<server_frame>& frames)
{
    std::string s = std::to_string(frames.size()) + " frame(s):";
    for (const auto& f : frames) s += "\n  " + describe(f);
    return s;
}

void check_frame(const server_frame& f, std::uint8_t op, std::string_view payload)
{
    INFO("got " << describe(f));
    CHECK(f.fin);
    CHECK(f.rsv == 0);
    CHECK_FALSE(f.masked); // a server must not mask
    CHECK(int{f.op} == int{op});
    const bool same = f.payload == payload; // compared here: a 256 kB payload is not printed
    if (!same) {
        std::size_t at = 0;
        while (at < f.payload.size() && at < payload.size() && f.payload[at] == payload[at]) ++at;
        INFO("expected " << payload.size() << " bytes, got " << f.payload.size() << ", first difference at " << at);
        CHECK(same);
    }
}

void check_text(const server_frame& f, std::string_view text) { check_frame(f, 0x1, text); }

void check_close(const server_frame& f, std::uint16_t code, std::optional<std::string_view> reason = {})
{
    INFO("got " << describe(f));
    CHECK(f.fin);
    CHECK_FALSE(f.masked);
    REQUIRE(int{f.op} == 0x8);
    REQUIRE(f.payload.size() >= 2);
    const int got = (static_cast<std::uint8_t>(f.payload[0]) << 8) | static_cast<std::uint8_t>(f.payload[1]);
    CHECK(got == code);
    if (reason) CHECK(f.payload.substr(2) == std::string{*reason});
}

// A payload that shows where a byte went missing or moved.
std::string pattern(std::size_t size, unsigned seed)
{
    std::string s(size, '\0');
    for (std::size_t i = 0; i < size; ++i) s[i] = static_cast<char>('a' + (i * 7 + seed) % 26);
    return s;
}

std::string text_frame(std::string_view payload, bool fin = true)
{
    return client_frame(fin ? 0x81 : 0x01, payload);
}
std::string continuation(std::string_view payload, bool fin)
{
    return client_frame(fin ? 0x80 : 0x00, payload);
}
std::string close_frame(std::uint16_t code, std::string_view reason = {})
{
    return client_frame(0x88, close_payload(code, reason));
}

// The client's end: writes bytes as given, reads with a deadline, parses server frames.
class client_end {
public:
    explicit client_end(int fd) : fd_{fd} {}
    ~client_end()
    {
        if (fd_ >= 0) ::close(fd_);
    }
    client_end(const client_end&) = delete;
    client_end& operator=(const client_end&) = delete;

    void write(std::string_view bytes)
    {
        while (!bytes.empty()) {
            const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) continue;
            REQUIRE(n > 0);
            bytes.remove_prefix(static_cast<std::size_t>(n));
        }
    }

    // Reads until `n` frames are in, the server ends the connection, or the deadline passes.
    std::vector<server_frame> read_frames(std::size_t n)
    {
        receive_until([&] { return frames_.size() >= n; });
        INFO("waited for " << n << ", have " << describe(frames_) << std::string{eof_ ? "\nthen end of stream" : ""});
        REQUIRE(frames_.size() >= n);
        std::vector<server_frame> taken(frames_.begin(), frames_.begin() + static_cast<std::ptrdiff_t>(n));
        frames_.erase(frames_.begin(), frames_.begin() + static_cast<std::ptrdiff_t>(n));
        return taken;
    }

    // Every frame until the server ends the TCP connection.
    std::vector<server_frame> read_to_end()
    {
        receive_until([] { return false; });
        INFO("have " << describe(frames_));
        REQUIRE(eof_);
        CHECK(error_ == 0);       // a FIN, not a reset
        CHECK(pending_error() == 0); // nor a reset after the FIN
        CHECK(inbox_.empty());    // no frame cut short
        ::shutdown(fd_, SHUT_WR); // as a browser ends its side once the server has ended its own
        auto all = std::move(frames_);
        frames_.clear();
        return all;
    }

    // Nothing has arrived that the test has not taken (what a turn wrote is there by now).
    bool quiet()
    {
        take_in();
        return frames_.empty() && inbox_.empty() && !eof_;
    }

private:
    int pending_error() const
    {
        int error = 0;
        socklen_t size = sizeof error;
        ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &size);
        return error;
    }

    template <class Done>
    void receive_until(Done&& done)
    {
        const auto deadline = steady::now() + await_limit;
        for (;;) {
            take_in();
            if (done() || eof_ || error_) return;
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - steady::now()).count();
            if (left <= 0) return;
            pollfd p{fd_, POLLIN, 0};
            ::poll(&p, 1, static_cast<int>(left));
        }
    }

    void take_in()
    {
        char buffer[64 * 1024];
        while (!eof_ && !error_) {
            const ssize_t n = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
            if (n > 0) {
                inbox_.append(buffer, static_cast<std::size_t>(n));
                continue;
            }
            if (n == 0) eof_ = true;
            else if (errno == EINTR) continue;
            else if (errno != EAGAIN && errno != EWOULDBLOCK) error_ = errno;
            break;
        }
        server_frame f;
        while (parse(f)) frames_.push_back(std::move(f));
    }

    bool parse(server_frame& out)
    {
        const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(inbox_[i]); };
        if (inbox_.size() < 2) return false;
        std::size_t at = 2;
        std::uint64_t length = byte(1) & 0x7F;
        if (length == 126) {
            if (inbox_.size() < 4) return false;
            length = (std::uint64_t{byte(2)} << 8) | byte(3);
            at = 4;
        } else if (length == 127) {
            if (inbox_.size() < 10) return false;
            length = 0;
            for (std::size_t i = 0; i < 8; ++i) length = (length << 8) | byte(2 + i);
            at = 10;
        }
        const bool masked = (byte(1) & 0x80) != 0;
        if (masked) at += 4;
        if (inbox_.size() < at + length) return false;
        out.fin = (byte(0) & 0x80) != 0;
        out.rsv = (byte(0) >> 4) & 0x7;
        out.op = byte(0) & 0x0F;
        out.masked = masked;
        out.payload = inbox_.substr(at, static_cast<std::size_t>(length));
        inbox_.erase(0, at + static_cast<std::size_t>(length));
        return true;
    }

    int fd_;
    std::string inbox_;
    std::vector<server_frame> frames_; // received, not yet taken by the test
    bool eof_ = false;
    int error_ = 0;
};

struct socket_sizes {
    int client_receive = 0; // SO_RCVBUF of the client, before it connects (0: the default)
    int server_send = 0;    // SO_SNDBUF of the server's socket
};

void set_int_option(int fd, int level, int name, int value)
{
    REQUIRE(::setsockopt(fd, level, name, &value, sizeof value) == 0);
}

// A TCP connection over 127.0.0.1: the server's end non-blocking, as the front hands it over.
std::pair<int, int> connect_pair(socket_sizes sizes)
{
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(listener >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    REQUIRE(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(listener, 1) == 0);
    REQUIRE(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    const int client = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(client >= 0);
    if (sizes.client_receive) set_int_option(client, SOL_SOCKET, SO_RCVBUF, sizes.client_receive);
    REQUIRE(::connect(client, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
    const int server = ::accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    ::close(listener);
    REQUIRE(server >= 0);
    if (sizes.server_send) set_int_option(server, SOL_SOCKET, SO_SNDBUF, sizes.server_send);
    set_int_option(server, IPPROTO_TCP, TCP_NODELAY, 1);
    set_int_option(client, IPPROTO_TCP, TCP_NODELAY, 1);
    return {server, client};
}

// One connection under test on loop `a`, its client, and room for the connection it becomes
// after a handover (on `a` again or on loop `b`).
struct harness {
    loop_thread a;
    loop_thread b;
    recorder owner{a.loop()};
    std::optional<recorder> next_owner; // the owner after a handover
    ws_connection::limits limits;
    int server_fd = -1;
    std::optional<client_end> client;
    std::unique_ptr<ws_connection> conn;
    std::unique_ptr<ws_connection> next; // the connection resumed from a handover

    explicit harness(ws_connection::limits l = {}, socket_sizes sizes = {}) : limits{l}
    {
        const auto [server, client_fd] = connect_pair(sizes);
        server_fd = server;
        client.emplace(client_fd);
        a.call([&] { // made and started on its loop's thread, as a shard does
            conn = std::make_unique<ws_connection>(a.loop(), a, server, owner, limits, "127.0.0.1");
            conn->start();
        });
    }
    ~harness()
    {
        // The loops stop before the connections go: nothing of theirs runs while they are freed.
        a.stop();
        b.stop();
    }

    void write(std::string_view bytes) { client->write(bytes); }

    // Waits until the server's loop has read everything the client sent, and that turn ended.
    void settle(loop_thread& on)
    {
        const auto deadline = steady::now() + await_limit;
        int unread = 0;
        while ((unread = unread_by_server()) > 0 && steady::now() < deadline) std::this_thread::yield();
        REQUIRE(unread == 0);
        on.call([] {}); // a turn after the one that read
    }
    void settle() { settle(a); }
    int unread_by_server() const
    {
        int n = 0;
        ::ioctl(server_fd, FIONREAD, &n);
        return n;
    }

    // The server has ended the connection, with nothing sent after what was read already.
    void expect_end(loop_thread& on, ws_connection& c, recorder& r)
    {
        const auto rest = client->read_to_end();
        INFO("after the expected frames: " << describe(rest));
        CHECK(rest.empty());
        r.wait_closed();
        CHECK(on.call([&] { return c.finished(); }));
        CHECK(r.closed() == 1);
    }
    void expect_end() { expect_end(a, *conn, owner); }

    // The client closes; the server answers with the same code and ends.
    void close_cleanly(loop_thread& on, ws_connection& c, recorder& r)
    {
        write(close_frame(1000, "done"));
        check_close(client->read_frames(1)[0], 1000, "");
        expect_end(on, c, r);
    }
    void close_cleanly() { close_cleanly(a, *conn, owner); }

    bool open() { return a.call([&] { return conn->open(); }); }
    std::size_t queued() { return a.call([&] { return conn->queued_messages(); }); }
    void send(std::string text)
    {
        a.call([&] { conn->send(make_frame(text)); });
    }
};

} // namespace

// ---- reading -------------------------------------------------------------------------------

TEST_CASE("ws_connection: a text message is delivered")
{
    harness h;
    h.write(text_frame("hello"));
    h.owner.wait_texts(1);
    CHECK(h.owner.texts() == std::vector<std::string>{"hello"});
    CHECK(h.owner.binaries() == 0);
    CHECK(h.owner.closed() == 0);
    CHECK(h.open());
    h.close_cleanly();
    CHECK(h.owner.texts().size() == 1);
}

TEST_CASE("ws_connection: messages in one write, an empty one, and one trickled a byte at a time")
{
    harness h;
    h.write(text_frame("one") + text_frame("") + text_frame("three"));
    h.owner.wait_texts(3);
    CHECK(h.owner.texts() == std::vector<std::string>{"one", "", "three"});

    // Every byte boundary of a header (16-bit length, mask) and of its payload, each its own read.
    const std::string trickled = text_frame(pattern(300, 1));
    for (const char byte : trickled) {
        h.write(std::string_view{&byte, 1});
        h.settle();
    }
    h.owner.wait_texts(4);
    const auto texts = h.owner.texts();
    CHECK(texts.size() == 4);
    CHECK(texts.back() == pattern(300, 1));
    h.close_cleanly();
}

TEST_CASE("ws_connection: a message larger than the inline read buffer, between small ones")
{
    harness h;
    const std::string large = pattern(3000, 2);
    h.write(text_frame("before") + text_frame(large) + text_frame("after"));
    h.owner.wait_texts(3);
    CHECK(h.owner.texts() == std::vector<std::string>{"before", large, "after"});
    // And again once the buffer went back to its small size.
    h.write(text_frame(large));
    h.owner.wait_texts(4);
    CHECK(h.owner.texts()[3] == large);
    h.close_cleanly();
}

TEST_CASE("ws_connection: a fragmented message is reassembled, a ping between fragments answered")
{
    harness h;
    h.write(text_frame("Hel", false) + client_frame(0x89, "p1") + continuation("lo, ", false));
    check_frame(h.client->read_frames(1)[0], 0xA, "p1");
    h.settle();
    CHECK(h.owner.texts().empty()); // not before the last fragment

    h.write(continuation("world", true));
    h.owner.wait_texts(1);
    CHECK(h.owner.texts() == std::vector<std::string>{"Hello, world"});

    // A second one right after, in one write with an empty middle fragment.
    h.write(text_frame("a", false) + continuation("", false) + continuation("b", true) + text_frame("c"));
    h.owner.wait_texts(3);
    CHECK(h.owner.texts() == std::vector<std::string>{"Hello, world", "ab", "c"});
    h.close_cleanly();
}

TEST_CASE("ws_connection: a binary message reaches on_binary, whole or in fragments")
{
    harness h;
    h.write(client_frame(0x82, "\x01\x02\x03"));
    h.owner.wait_binaries(1);
    h.write(client_frame(0x02, "\x01") + continuation("\x02", true) + text_frame("then text"));
    h.owner.wait_texts(1);
    CHECK(h.owner.binaries() == 2);
    CHECK(h.owner.texts() == std::vector<std::string>{"then text"});
    h.close_cleanly();
}

TEST_CASE("ws_connection: a pong is taken silently, a ping with a payload is answered with it")
{
    harness h;
    h.write(client_frame(0x8A, "unsolicited") + client_frame(0x89, pattern(125, 3)) + text_frame("x"));
    check_frame(h.client->read_frames(1)[0], 0xA, pattern(125, 3));
    h.owner.wait_texts(1);
    h.close_cleanly();
}

TEST_CASE("ws_connection: a message of exactly max_message_bytes is accepted, one byte more closes with 1009")
{
    ws_connection::limits l;
    l.max_message_bytes = 1000;

    SUBCASE("in one frame")
    {
        harness h{l};
        h.write(text_frame(pattern(1000, 4)));
        h.owner.wait_texts(1);
        CHECK(h.owner.texts()[0] == pattern(1000, 4));
        // The server decides on the header: no need to send the 1001 bytes.
        h.write(client_header(0x81, 1001));
        check_close(h.client->read_frames(1)[0], 1009);
        h.expect_end();
        CHECK(h.owner.texts().size() == 1);
    }
    SUBCASE("in fragments: the limit is on the whole message")
    {
        harness h{l};
        h.write(text_frame(pattern(600, 5), false) + continuation(pattern(400, 6), true));
        h.owner.wait_texts(1);
        CHECK(h.owner.texts()[0] == pattern(600, 5) + pattern(400, 6));
        h.write(text_frame(pattern(600, 5), false) + client_header(0x80, 401));
        check_close(h.client->read_frames(1)[0], 1009);
        h.expect_end();
        CHECK(h.owner.texts().size() == 1);
    }
    SUBCASE("a 64-bit length far over the limit")
    {
        harness h{l};
        h.write(client_header(0x82, 1ULL << 40));
        check_close(h.client->read_frames(1)[0], 1009);
        h.expect_end();
    }
}

TEST_CASE("ws_connection: after a failure, what the client is still sending does not reset the connection")
{
    // The server decides on the header and stops reading with most of the frame unread. Were the
    // socket closed then, the kernel would answer with a reset, and a reset can destroy the close
    // frame before the client reads it: the client must get the frame, then a clean end.
    ws_connection::limits l;
    l.max_message_bytes = 1000;
    harness h{l};
    h.write(client_header(0x81, 4000) + pattern(2000, 7));
    check_close(h.client->read_frames(1)[0], 1009);
    h.write(pattern(2000, 8)); // the rest of the frame, sent as the close frame came in
    h.expect_end();
}

TEST_CASE("ws_connection: broken framing closes with 1002")
{
    struct broken {
        std::string what;
        std::string bytes;
    };
    const broken cases[] = {
        {"an unmasked frame", client_frame(0x81, "hi", false)},
        {"reserved bits", client_frame(0xC1, "hi")},
        {"an unknown opcode", client_frame(0x83, "hi")},
        {"a fragmented ping", client_frame(0x09, "p")},
        {"a continuation without a message", continuation("x", true)},
        {"a new message inside a fragmented one", text_frame("a", false) + text_frame("b")},
        {"a close frame with a one-byte payload", client_frame(0x88, "\x03")},
    };
    for (const auto& c : cases) {
        CAPTURE(c.what);
        harness h;
        h.write(c.bytes);
        check_close(h.client->read_frames(1)[0], 1002);
        h.expect_end();
        CHECK(h.owner.texts().empty());
    }
}

TEST_CASE("ws_connection: a text message that is not UTF-8 fails the connection with 1007")
{
    // RFC 6455 section 8.1. Each case its own connection; none reaches the owner.
    struct bad_text {
        std::string what;
        std::string bytes;
    };
    const bad_text cases[] = {
        {"an overlong two-byte form", text_frame("{\"a\":\"\xC0\xAF\"}")},
        {"an overlong three-byte form", text_frame("\xE0\x80\xAF")},
        {"an overlong four-byte form", text_frame("\xF0\x80\x80\xAF")},
        {"a surrogate", text_frame("\xED\xA0\x80")},
        {"a surrogate pair", text_frame("\xED\xA0\x80\xED\xB0\x80")},
        {"past U+10FFFF", text_frame("\xF4\x90\x80\x80")},
        {"FE", text_frame("ok\xFE")},
        {"FF", text_frame("\xFF")},
        {"a lone continuation byte", text_frame("ab\x80" "cd")},
        {"a truncated character at the end", text_frame("\xE2\x82")},
        {"a truncated character before ASCII", text_frame("\xE2\x82" "A")},
        {"a truncated character at the end of the last fragment",
         text_frame("\xCE\xBA", false) + continuation("\xE2\x82", true)},
        {"a character cut across fragments, then ASCII", text_frame("\xE2", false) + continuation("A", true)},
        {"a surrogate split across fragments", text_frame("\xED", false) + continuation("\xA0\x80", true)},
        {"an empty final fragment after a truncated character", text_frame("\xF0\x9F\x98", false) + continuation("", true)},
        {"a bad middle fragment", text_frame("a", false) + continuation("\xC1\xBF", false) + continuation("b", true)},
    };
    for (const auto& c : cases) {
        CAPTURE(c.what);
        harness h;
        h.write(c.bytes);
        check_close(h.client->read_frames(1)[0], 1007);
        h.expect_end();
        CHECK(h.owner.texts().empty());
    }
}

TEST_CASE("ws_connection: a bad fragment fails the connection at once, before the message ends")
{
    for (const std::string first : {"valid so far \xF4\x90", "\xED\xA0", "\xC0", "ok \xFF"}) {
        CAPTURE(first);
        harness h;
        h.write(text_frame(first, false)); // the rest of the message never comes
        check_close(h.client->read_frames(1)[0], 1007);
        h.expect_end();
    }
}

TEST_CASE("ws_connection: UTF-8 split across fragments is fine, and binary messages are not text")
{
    harness h;
    // "κόσμε" cut inside three of its characters, and U+1F600 cut after each of its bytes.
    h.write(text_frame("\xCE", false) + continuation("\xBA\xE1\xBD", false) + continuation("\xB9\xCF\x83\xCE\xBC\xCE", false) +
            continuation("\xB5", true));
    h.write(text_frame("\xF0", false) + continuation("\x9F", false) + continuation("\x98", false) + continuation("\x80", true));
    h.owner.wait_texts(2);
    CHECK(h.owner.texts() ==
          std::vector<std::string>{"\xCE\xBA\xE1\xBD\xB9\xCF\x83\xCE\xBC\xCE\xB5", "\xF0\x9F\x98\x80"});
    // Bytes that are no UTF-8 in a binary message, whole or fragmented: handed on as binary.
    h.write(client_frame(0x82, "\xFF\xFE\xC0") + client_frame(0x02, "\xE2") + continuation("A", true) + text_frame("after"));
    h.owner.wait_texts(3);
    CHECK(h.owner.binaries() == 2);
    h.close_cleanly();
}

// ---- closing -------------------------------------------------------------------------------

TEST_CASE("ws_connection: the client's close is answered with its code, then the connection ends")
{
    struct echo {
        std::string payload;
        std::uint16_t answer;
    };
    const echo cases[] = {
        {close_payload(1000, "bye"), 1000},
        {close_payload(1001), 1001},
        {close_payload(4001, "app-defined"), 4001},
        {"", 1000}, // no code at all: answered as a normal close
    };
    for (const auto& c : cases) {
        CAPTURE(c.answer);
        harness h;
        h.write(text_frame("last") + client_frame(0x88, c.payload) + text_frame("after the close"));
        check_close(h.client->read_frames(1)[0], c.answer, ""); // the code alone
        h.expect_end();
        CHECK(h.owner.texts() == std::vector<std::string>{"last"});
        // Nothing more reaches the owner, and on_closed stays at one.
        h.a.call([&] {
            h.conn->tick(steady::now() + 1h);
            h.conn->send(make_frame("too late"));
            h.conn->close(close_code::normal, "again", false);
        });
        CHECK_FALSE(h.open());
        CHECK(h.owner.closed() == 1);
    }
}

TEST_CASE("ws_connection: a close code no endpoint may send is a protocol error, not echoed")
{
    // RFC 6455 section 7.4: 1004-1006 and 1015 are reserved (1005 and 1006 name the absence of a
    // code, never sent), below 1000 and 1016..2999 unassigned, nothing is defined from 5000.
    // Echoing one would put it on the wire from the server.
    for (const int code : {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535}) {
        CAPTURE(code);
        harness h;
        h.write(close_frame(static_cast<std::uint16_t>(code)));
        check_close(h.client->read_frames(1)[0], 1002);
        h.expect_end();
    }
    // The codes a peer may send are answered with themselves.
    for (const int code : {1000, 1003, 1007, 1011, 1012, 1014, 3000, 3999, 4000, 4999}) {
        CAPTURE(code);
        harness h;
        h.write(close_frame(static_cast<std::uint16_t>(code)));
        check_close(h.client->read_frames(1)[0], static_cast<std::uint16_t>(code), "");
        h.expect_end();
    }
}

TEST_CASE("ws_connection: a close frame whose reason is not UTF-8 is answered 1007")
{
    for (const std::string reason : {"\xFF", "bye \xC0\xAF", "\xED\xA0\x80", "cut \xE2\x82"}) {
        CAPTURE(reason);
        harness h;
        h.write(close_frame(1000, reason));
        check_close(h.client->read_frames(1)[0], 1007);
        h.expect_end();
    }
    // A reason in UTF-8 beyond ASCII is fine: the code comes back.
    harness h;
    h.write(close_frame(1001, "\xCE\xBA\xE1\xBD\xB9\xCF\x83\xCE\xBC\xCE\xB5"));
    check_close(h.client->read_frames(1)[0], 1001, "");
    h.expect_end();
}

TEST_CASE("ws_connection: close() sends its frame after what is queued and waits for the client's")
{
    harness h;
    h.a.call([&] {
        h.conn->send(make_frame("a"));
        h.conn->send(make_frame("b"));
        h.conn->close(close_code::going_away, "server shutting down", false);
        h.conn->send(make_frame("after close: dropped"));
    });
    const auto frames = h.client->read_frames(3);
    check_text(frames[0], "a");
    check_text(frames[1], "b");
    check_close(frames[2], 1001, "server shutting down");
    CHECK_FALSE(h.open());

    // Waiting for the client: the socket stays, the owner has not been told.
    h.settle();
    CHECK_FALSE(h.a.call([&] { return h.conn->finished(); }));
    CHECK(h.owner.closed() == 0);
    CHECK(h.client->quiet());

    // Data and pings from the client meanwhile are not delivered nor answered; its close ends it.
    h.write(text_frame("late") + client_frame(0x89, "late ping") + close_frame(1001));
    h.expect_end();
    CHECK(h.owner.texts().empty());
}

TEST_CASE("ws_connection: close() with drop_unsent sends only the close frame")
{
    harness h;
    h.a.call([&] {
        h.conn->send(make_frame("dropped"));
        h.conn->close(close_code::service_restart, "restart", true);
    });
    check_close(h.client->read_frames(1)[0], 1012, "restart");
    h.write(close_frame(1012));
    h.expect_end();
}

TEST_CASE("ws_connection: a close handshake the client never finishes ends after close_timeout")
{
    harness h;
    h.a.call([&] { h.conn->close(close_code::normal, "", false); });
    check_close(h.client->read_frames(1)[0], 1000, "");
    h.a.call([&] { h.conn->tick(steady::now() + ws_connection::close_timeout - 1s); });
    CHECK_FALSE(h.a.call([&] { return h.conn->finished(); }));
    CHECK(h.owner.closed() == 0);
    h.a.call([&] { h.conn->tick(steady::now() + ws_connection::close_timeout + 1s); });
    CHECK(h.owner.closed() == 1);
    h.expect_end();
}

// ---- writing -------------------------------------------------------------------------------

TEST_CASE("ws_connection: frames queued in one turn leave in one gathered write")
{
    harness h;
    const std::string sizes[] = {"x", pattern(200, 7), pattern(5000, 8)};
    const int requests = h.a.flush_requests();
    const auto before = data_segments_out(h.server_fd);
    const auto queued = h.a.call([&] {
        for (const auto& s : sizes) h.conn->send(make_frame(s));
        return h.conn->queued_messages();
    });
    CHECK(queued == 3);
    CHECK(h.a.flush_requests() == requests + 1); // asked once for the turn
    CHECK(h.queued() == 0);
    // One sendmsg on loopback is one TCP segment (well under the 64 kB MSS).
    CHECK(data_segments_out(h.server_fd) - before == 1);
    const auto frames = h.client->read_frames(3);
    for (std::size_t i = 0; i < 3; ++i) check_text(frames[i], sizes[i]);

    // The measure tells writes apart: one turn per frame is one segment per frame.
    const auto before_apart = data_segments_out(h.server_fd);
    for (const auto& s : sizes) h.send(s);
    CHECK(data_segments_out(h.server_fd) - before_apart == 3);
    const auto apart = h.client->read_frames(3);
    for (std::size_t i = 0; i < 3; ++i) check_text(apart[i], sizes[i]);
    h.close_cleanly();
}

TEST_CASE("ws_connection: more frames in a turn than one send takes leave in order")
{
    harness h;
    const auto before = data_segments_out(h.server_fd);
    h.a.call([&] {
        for (int i = 0; i < 150; ++i) h.conn->send(make_frame("frame " + std::to_string(i)));
    });
    CHECK(h.queued() == 0);
    CHECK(data_segments_out(h.server_fd) - before <= 3); // gathered: 64 + 64 + 22 frames today
    const auto frames = h.client->read_frames(150);
    for (std::size_t i = 0; i < frames.size(); ++i) check_text(frames[i], "frame " + std::to_string(i));
    h.close_cleanly();
}

TEST_CASE("ws_connection: a client that does not read is closed with 1008 at the queue's bound")
{
    const std::size_t big = 256 * 1024; // far more than the small socket buffers hold
    const socket_sizes small{4096, 4096};

    SUBCASE("the bound on messages")
    {
        ws_connection::limits l;
        l.max_queued_messages = 4;
        harness h{l, small};
        h.send(pattern(big, 1));
        REQUIRE(h.queued() == 1); // partly written, the rest waits for room
        for (unsigned i = 2; i <= 4; ++i) h.send(pattern(big, i));
        CHECK(h.open());
        CHECK(h.queued() == 4);
        h.send(pattern(big, 5));
        CHECK_FALSE(h.open());
        CHECK(h.owner.closed() == 0); // the close frame still has to get out

        // Reading again, the client gets the frame that was under way, whole, then the close.
        const auto frames = h.client->read_to_end();
        INFO(describe(frames));
        REQUIRE(frames.size() == 2);
        check_text(frames[0], pattern(big, 1));
        check_close(frames[1], 1008, "not reading");
        h.owner.wait_closed();
        CHECK(h.owner.closed() == 1);
    }
    SUBCASE("the bound on bytes")
    {
        ws_connection::limits l;
        l.max_queued_bytes = big + big / 2;
        harness h{l, small};
        h.send(pattern(big, 1));
        REQUIRE(h.queued() == 1);
        h.send(pattern(big, 2));
        CHECK_FALSE(h.open());
        const auto frames = h.client->read_to_end();
        INFO(describe(frames));
        REQUIRE(frames.size() == 2);
        check_text(frames[0], pattern(big, 1));
        check_close(frames[1], 1008, "not reading");
        h.owner.wait_closed();
    }
}

// ---- keep-alive ----------------------------------------------------------------------------

TEST_CASE("ws_connection: tick() pings after ping_after of silence and gives up after idle_timeout")
{
    harness h;
    h.write(text_frame("hi"));
    h.owner.wait_texts(1);
    const auto t = h.owner.heard_at(0); // the connection heard the client at this turn's time
    const int requests = h.a.flush_requests();

    h.a.call([&] { h.conn->tick(t + ws_connection::ping_after - 1ms); });
    CHECK(h.client->quiet()); // nothing sent yet
    h.a.call([&] { h.conn->tick(t + ws_connection::ping_after); });
    check_frame(h.client->read_frames(1)[0], 0x9, "");
    h.a.call([&] { h.conn->tick(t + ws_connection::ping_after + 5s); });
    CHECK(h.a.flush_requests() == requests + 1); // one ping per silence
    CHECK(h.client->quiet());

    // The client answers: a pong counts as hearing from it (the text only marks the turn).
    h.write(client_frame(0x8A, "") + text_frame("pong's turn"));
    h.owner.wait_texts(2);
    const auto t2 = h.owner.heard_at(1);
    h.a.call([&] { h.conn->tick(t2 + ws_connection::ping_after - 1ms); });
    CHECK(h.client->quiet());
    h.a.call([&] { h.conn->tick(t2 + ws_connection::ping_after); });
    check_frame(h.client->read_frames(1)[0], 0x9, "");

    h.a.call([&] { h.conn->tick(t2 + ws_connection::idle_timeout - 1ms); });
    CHECK(h.open());
    CHECK(h.owner.closed() == 0);
    h.a.call([&] { h.conn->tick(t2 + ws_connection::idle_timeout); });
    CHECK(h.owner.closed() == 1);
    h.expect_end(); // dropped: no close frame for a peer that is gone
}

// ---- moving to another loop ----------------------------------------------------------------

TEST_CASE("ws_connection: released while handling a message, resumed on another loop")
{
    // As client::move_to does: the message that decides the move is handled, a reply is queued,
    // the connection is released within the same turn; the other loop carries on.
    harness h;
    std::optional<ws_connection::handover> handed; // written on loop a, read after wait_texts
    h.owner.then = [&](std::string_view m) {
        if (m == "first") h.conn->send(make_frame("reply to first"));
        if (m == "move") {
            h.conn->send(make_frame("reply to move"));
            handed = h.conn->release();
        }
    };
    h.write(text_frame("first"));
    check_text(h.client->read_frames(1)[0], "reply to first");

    const std::string cut = text_frame("after the move");
    h.write(text_frame("move") + text_frame("next") + cut.substr(0, 5));
    h.owner.wait_texts(2);
    h.settle();
    CHECK(h.owner.texts() == std::vector<std::string>{"first", "move"});
    REQUIRE(handed.has_value());
    CHECK(handed->unread == text_frame("next") + cut.substr(0, 5)); // still masked, as received
    REQUIRE(handed->queue.size() == 1);
    CHECK(handed->queue[0]->payload() == "reply to move");
    CHECK(handed->first_offset == 0);
    CHECK_FALSE(handed->in_message);
    CHECK(handed->fd == h.server_fd);
    CHECK(h.a.call([&] { return h.conn->finished(); }));
    CHECK(h.client->quiet()); // the reply waits for the new loop

    h.next_owner.emplace(h.b.loop());
    h.b.call([&] {
        const std::string unread = handed->unread;
        h.next = std::make_unique<ws_connection>(h.b.loop(), h.b, std::move(*handed), *h.next_owner, h.limits,
                                                 "127.0.0.1");
        h.next->start(unread);
    });
    CHECK(h.next_owner->texts() == std::vector<std::string>{"next"}); // from the carried bytes
    check_text(h.client->read_frames(1)[0], "reply to move");

    h.write(cut.substr(5) + client_frame(0x89, "still there?"));
    h.next_owner->wait_texts(2);
    CHECK(h.next_owner->texts()[1] == "after the move");
    check_frame(h.client->read_frames(1)[0], 0xA, "still there?");
    h.close_cleanly(h.b, *h.next, *h.next_owner);
    CHECK(h.owner.closed() == 0); // the first owner heard nothing after the release
    CHECK(h.owner.texts().size() == 2);
}

TEST_CASE("ws_connection: released mid-write and mid-message, resumed on the same loop")
{
    harness h{{}, socket_sizes{4096, 4096}};
    const std::string big = pattern(256 * 1024, 9);
    h.a.call([&] {
        h.conn->send(make_frame(big));
        h.conn->send(make_frame("small"));
    });
    REQUIRE(h.queued() == 2); // the big one partly written: the client does not read yet

    // In one read: a message (it marks the turn's time), the first fragment of another, and
    // three bytes of the next frame.
    const std::string tail = continuation("lo!", true);
    h.write(text_frame("mark") + text_frame("Hel", false) + tail.substr(0, 3));
    h.owner.wait_texts(1);
    h.settle();
    const auto t = h.owner.heard_at(0);

    auto handed = h.a.call([&] { return h.conn->release(); });
    CHECK_FALSE(h.open());
    CHECK(h.a.call([&] { return h.conn->finished(); }));
    REQUIRE(handed.queue.size() == 2);
    CHECK(handed.first_offset > 0);
    CHECK(handed.first_offset < handed.queue[0]->wire_size());
    CHECK(handed.queue[0]->payload() == big);
    CHECK(handed.queue[1]->payload() == "small");
    CHECK(handed.in_message);
    CHECK(handed.partial_op == opcode::text);
    CHECK(handed.partial_message == "Hel");
    CHECK(handed.unread == tail.substr(0, 3));
    CHECK(handed.last_heard == t);
    CHECK_FALSE(handed.ping_sent);

    h.next_owner.emplace(h.a.loop());
    h.a.call([&] {
        const std::string unread = handed.unread;
        h.next = std::make_unique<ws_connection>(h.a.loop(), h.a, std::move(handed), *h.next_owner, h.limits,
                                                 "127.0.0.1");
        h.next->start(unread);
        // The silence carried over too: ping_after after the last frame heard before the move.
        h.next->tick(t + ws_connection::ping_after);
    });

    const auto frames = h.client->read_frames(3);
    check_text(frames[0], big);
    check_text(frames[1], "small");
    check_frame(frames[2], 0x9, "");
    h.write(tail.substr(3));
    h.next_owner->wait_texts(1);
    CHECK(h.next_owner->texts() == std::vector<std::string>{"Hello!"});
    h.close_cleanly(h.a, *h.next, *h.next_owner);
    CHECK(h.owner.closed() == 0); // the first owner heard nothing after the release
    CHECK(h.owner.texts() == std::vector<std::string>{"mark"});
}

TEST_CASE("ws_connection: a connection that cannot start tells its owner it has ended")
{
    loop_thread l;
    recorder owner{l.loop()};
    std::unique_ptr<ws_connection> c;
    l.call([&] {
        ws_connection::handover nothing; // fd -1: as if the socket were lost on the way
        nothing.queue.push_back(make_frame("never sent"));
        c = std::make_unique<ws_connection>(l.loop(), l, std::move(nothing), owner, ws_connection::limits{}, "127.0.0.1");
        c->start();
    });
    CHECK(owner.closed() == 1);
    CHECK(l.call([&] { return c->finished() && !c->open(); }));
    l.call([&] { c->send(make_frame("after")); });
    CHECK(owner.closed() == 1);
    l.stop();
}
