#include "running_shards.hpp"

#include <cerrno>
#include <future>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <doctest/doctest.h>
#include <spdlog/spdlog.h>

#include "quarto/archive/journal.hpp"
#include "quarto/archive/store.hpp"

namespace quarto::server::testing {

// ---- ws_peer -------------------------------------------------------------------------------

void ws_peer::send(std::initializer_list<json> messages)
{
    static constexpr unsigned char key[4] = {0x12, 0x34, 0x56, 0x78};
    std::string bytes;
    for (const auto& m : messages) {
        const std::string payload = m.dump();
        REQUIRE(payload.size() < 126); // the 7-bit length form is enough for the tests' messages
        bytes += static_cast<char>(0x81); // FIN, text
        bytes += static_cast<char>(0x80 | payload.size());
        bytes.append(reinterpret_cast<const char*>(key), sizeof key);
        for (std::size_t i = 0; i < payload.size(); ++i) bytes += static_cast<char>(payload[i] ^ key[i % 4]);
    }
    REQUIRE(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size()));
}

bool ws_peer::receive(steady::time_point deadline)
{
    for (;;) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - steady::now()).count();
        if (left <= 0) return false;
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
        char buffer[4096];
        const ssize_t n = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n == 0) return false;
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            return false;
        }
        inbox_.append(buffer, static_cast<std::size_t>(n));
        arrived_ = steady::now();
        return true;
    }
}

std::optional<json> ws_peer::take_frame()
{
    for (;;) {
        if (inbox_.size() < 2) return std::nullopt;
        const auto first = static_cast<unsigned char>(inbox_[0]);
        const auto second = static_cast<unsigned char>(inbox_[1]);
        REQUIRE_MESSAGE((second & 0x80) == 0, "a server's frame is not masked");
        std::size_t header = 2;
        std::uint64_t length = second & 0x7F;
        if (length >= 126) {
            const std::size_t bytes = length == 126 ? 2 : 8;
            if (inbox_.size() < 2 + bytes) return std::nullopt;
            length = 0;
            for (std::size_t i = 0; i < bytes; ++i) length = length << 8 | static_cast<unsigned char>(inbox_[2 + i]);
            header += bytes;
        }
        if (inbox_.size() < header + length) return std::nullopt;
        const std::string payload = inbox_.substr(header, static_cast<std::size_t>(length));
        inbox_.erase(0, header + static_cast<std::size_t>(length));
        REQUIRE_MESSAGE((first & 0x80) != 0, "the server fragments no message");
        const int op = first & 0x0F;
        if (op == 0x1) return json::parse(payload);
        if (op == 0x8) {
            const int code = payload.size() >= 2 ? static_cast<unsigned char>(payload[0]) << 8 | static_cast<unsigned char>(payload[1]) : 0;
            return json{{"type", "close"}, {"code", code}};
        }
        // A ping (the connection was silent for long): not what the tests look at.
    }
}

json ws_peer::next()
{
    const auto deadline = steady::now() + await_limit;
    for (;;) {
        if (auto m = take_frame()) return *m;
        if (!receive(deadline)) {
            FAIL("connection " << name_ << ": no message within " << await_limit.count() << " s");
            return {};
        }
    }
}

json ws_peer::next(const std::string& type)
{
    json m = next();
    REQUIRE_MESSAGE(m["type"] == type, name_ << " expected " << type << ", got " << m.dump());
    return m;
}

std::vector<json> ws_peer::until(const std::string& type)
{
    std::vector<json> got;
    do got.push_back(next());
    while (got.back()["type"] != type);
    return got;
}

bool ws_peer::quiet() const
{
    if (!inbox_.empty()) return false;
    char byte;
    return ::recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT) < 0 && errno == EAGAIN;
}

void ws_peer::close()
{
    if (fd_ < 0) return;
    ::close(fd_);
    fd_ = -1;
}

// ---- running_shards ------------------------------------------------------------------------

namespace {

config settings_of(std::uint16_t shards, bool migration, const std::string& journal)
{
    config c;
    c.threads = shards;
    c.shard_migration = migration;
    c.journal = !journal.empty();
    c.db_path = journal;
    return c;
}

} // namespace

running_shards::running_shards(std::uint16_t shards, bool migration, const std::string& journal)
    : state_{settings_of(shards, migration, journal)}
{
    spdlog::set_level(spdlog::level::warn); // the tests read frames, not the connections' info lines
    if (!journal.empty()) {
        // The store first: it brings the file's schema to the current version, as the server does.
        auto store = archive::open_store(journal);
        if (const auto* error = std::get_if<archive::open_error>(&store)) FAIL("the store: " << error->message);
        auto opened = archive::journal::open(journal);
        if (const auto* error = std::get_if<archive::open_error>(&opened)) FAIL("the journal: " << error->message);
        state_.journal = std::move(std::get<std::unique_ptr<archive::journal>>(opened));
    }
    for (std::uint16_t i = 0; i < shards; ++i) state_.shards.push_back(std::make_unique<shards::shard>(i, state_));
    for (auto& s : state_.shards) threads_.emplace_back([s = s.get()] { s->run(); });
}

running_shards::~running_shards()
{
    for (auto& s : state_.shards) s->stop();
    for (auto& t : threads_) t.join();
    // As the server stops: the journal's last commits answer shards that are still there.
    if (state_.journal) state_.journal->close();
    state_.shards.clear();
}

std::unique_ptr<ws_peer> running_shards::connect(std::uint16_t i, const std::string& name)
{
    int fds[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
    REQUIRE(::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK) == 0); // as the front hands it over
    shard(i).post([fd = fds[0], name](shards::shard& s) { s.open_websocket(fd, nullptr, "192.0.2.1", name, {}); });
    return std::make_unique<ws_peer>(fds[1], name);
}

void running_shards::settle(std::uint16_t i)
{
    // Three tasks, each answering from the end of the turn that runs it (a deferred task). The
    // first may run in a turn that read its sockets before what is to settle came on them.
    // The second is posted once that turn is ending, so it runs in a later one, which reads what
    // came (if no turn before did); but it answers before that turn writes. The third runs in a
    // turn after that one's end.
    for (int turn = 0; turn < 3; ++turn) {
        auto promise = std::make_shared<std::promise<void>>();
        auto answered = promise->get_future();
        shard(i).post([promise](shards::shard& s) { s.defer([promise] { promise->set_value(); }); });
        REQUIRE_MESSAGE(answered.wait_for(await_limit) == std::future_status::ready, "shard " << i << " took no turn");
    }
}

// ---- a game --------------------------------------------------------------------------------

json hello(ws_peer& p, const std::string& name)
{
    p.send({{{"type", "hello"}, {"name", name}}});
    return p.next("welcome");
}

game start_game(ws_peer& ann, ws_peer& bo)
{
    game g;
    ann.send({{{"type", "create_room"}, {"req", "c"}}});
    g.room = ann.next("room_created")["room"];
    ann.next("room");
    bo.send({{{"type", "join"}, {"room", g.room}, {"req", "j"}}});
    bo.next("room");
    g.first = bo.next("game_started")["first"];
    const auto to_ann = ann.until("game_started");
    REQUIRE(to_ann.size() == 2); // joined, game_started
    return g;
}

json give(const std::string& room, int piece, json req)
{
    json m{{"type", "give"}, {"room", room}, {"piece", piece}};
    if (!req.is_null()) m["req"] = std::move(req);
    return m;
}

json place(const std::string& room, int square, json req)
{
    json m{{"type", "place"}, {"room", room}, {"square", square}};
    if (!req.is_null()) m["req"] = std::move(req);
    return m;
}

} // namespace quarto::server::testing
