#include "fake_host.hpp"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

namespace quarto::server::testing {

// A room's or tournament's timer: an entry of the host's table, fired by advance().
class fake_host::manual_alarm final : public play::alarm {
public:
    manual_alarm(fake_host& host, std::uint64_t id) : host_{host}, id_{id} {}
    ~manual_alarm() override { host_.alarms_.erase(id_); }
    void set(instant at) override
    {
        auto& e = host_.alarms_.at(id_);
        e.at = at;
        e.order = host_.next_order_++;
    }
    void cancel() override { host_.alarms_.at(id_).at.reset(); }

private:
    fake_host& host_;
    const std::uint64_t id_;
};

fake_host::fake_host() { spdlog::set_level(spdlog::level::warn); }

fake_host::~fake_host()
{
    // Rooms first, while the alarm table they unregister from is alive.
    rooms_.clear();
}

// ---- clients -------------------------------------------------------------------------------

play::client_ref fake_host::connect()
{
    const play::client_ref c{0, next_slot_++, 0};
    box(c);
    return c;
}

const fake_host::inbox* fake_host::find_box(const play::client_ref& c) const
{
    const auto it = clients_.find(key(c));
    return it == clients_.end() ? nullptr : &it->second;
}

const std::vector<json>& fake_host::frames(const play::client_ref& c) const
{
    static const std::vector<json> none;
    const inbox* b = find_box(c);
    return b ? b->frames : none;
}

const std::vector<std::string>& fake_host::payloads(const play::client_ref& c) const
{
    static const std::vector<std::string> none;
    const inbox* b = find_box(c);
    return b ? b->payloads : none;
}

std::vector<json> fake_host::take(const play::client_ref& c)
{
    inbox& b = box(c);
    std::vector<json> fresh(b.frames.begin() + static_cast<std::ptrdiff_t>(b.taken), b.frames.end());
    b.taken = b.frames.size();
    return fresh;
}

std::string fake_host::transcript(const play::client_ref& c) const
{
    std::string out = "frames to " + std::string{doctest::StringMaker<play::client_ref>::convert(c).c_str()} + ":\n";
    for (const auto& p : payloads(c)) out += "  " + p + "\n";
    return out;
}

std::string fake_host::transcript() const
{
    std::string out = "every frame sent:\n";
    for (const auto& [k, p] : sent_)
        out += "  to " + std::to_string(std::get<1>(k)) + ": " + p + "\n";
    return out;
}

std::vector<play::place> fake_host::places(const play::client_ref& c) const
{
    const inbox* b = find_box(c);
    return b ? b->places : std::vector<play::place>{};
}

bool fake_host::in_room(const play::client_ref& c, const std::string& room_id) const
{
    const auto p = places(c);
    return std::find(p.begin(), p.end(), play::place{play::place::kind::room, room_id}) != p.end();
}

bool fake_host::in_tournament(const play::client_ref& c, const std::string& tournament_id) const
{
    const auto p = places(c);
    return std::find(p.begin(), p.end(), play::place{play::place::kind::tournament, tournament_id}) != p.end();
}

void fake_host::send(const play::client_ref& to, const net::frame_ptr& f)
{
    REQUIRE_MESSAGE(f, "a null frame was sent");
    std::string payload{f->payload()};
    json parsed = json::parse(payload, nullptr, /*allow_exceptions=*/false);
    CHECK_MESSAGE(!parsed.is_discarded(), "a frame that is not JSON: " << payload);
    inbox& b = box(to);
    b.frames.push_back(std::move(parsed));
    b.payloads.push_back(payload);
    sent_.emplace_back(key(to), std::move(payload));
}

void fake_host::send_to_watcher(const play::client_ref& to, const net::frame_ptr& f)
{
    send(to, f);
    ++box(to).to_watcher;
}

std::size_t fake_host::sent_to_watcher(const play::client_ref& c) const
{
    const inbox* b = find_box(c);
    return b ? b->to_watcher : 0;
}

void fake_host::subscribed(const play::client_ref& c, const play::place& where)
{
    auto& p = box(c).places;
    // The shard's client keeps a set: a second subscription to one place is a no-op there, but
    // the room and tournament are not supposed to send one.
    CHECK_MESSAGE(std::find(p.begin(), p.end(), where) == p.end(), "subscribed twice to " << where.id);
    if (std::find(p.begin(), p.end(), where) == p.end()) p.push_back(where);
}

void fake_host::unsubscribed(const play::client_ref& c, const play::place& where) { std::erase(box(c).places, where); }

// ---- time ----------------------------------------------------------------------------------

std::unique_ptr<play::alarm> fake_host::make_alarm(std::function<void()> on_time)
{
    const std::uint64_t id = next_alarm_id_++;
    alarms_.emplace(id, alarm_entry{std::move(on_time), std::nullopt, 0});
    return std::make_unique<manual_alarm>(*this, id);
}

std::optional<instant> fake_host::next_alarm() const
{
    std::optional<instant> earliest;
    for (const auto& [id, e] : alarms_)
        if (e.at && (!earliest || *e.at < *earliest)) earliest = e.at;
    return earliest;
}

std::size_t fake_host::armed_alarms() const
{
    return static_cast<std::size_t>(
        std::count_if(alarms_.begin(), alarms_.end(), [](const auto& a) { return a.second.at.has_value(); }));
}

void fake_host::advance(milliseconds d) { advance_to(now_ + d); }

void fake_host::advance_to(instant t)
{
    for (;;) {
        // The earliest armed alarm due by `t`; ties in the order they were set.
        auto due = alarms_.end();
        for (auto it = alarms_.begin(); it != alarms_.end(); ++it) {
            const auto& e = it->second;
            if (!e.at || *e.at > t) continue;
            if (due == alarms_.end() || std::tie(*e.at, e.order) < std::tie(*due->second.at, due->second.order)) due = it;
        }
        if (due == alarms_.end()) break;
        now_ = std::max(now_, *due->second.at);
        due->second.at.reset();
        // Copied: the callback may destroy its own alarm.
        const auto on_time = due->second.on_time;
        on_time();
        run_deferred(); // the end of the timer's turn
    }
    now_ = std::max(now_, t);
}

// ---- the computer opponent's thinking -------------------------------------------------------

bool fake_host::think(const bots::think_request& request, std::function<void(const solver::move&)> answer)
{
    if (pool_full_) {
        ++questions_refused_;
        return false;
    }
    ++questions_asked_;
    if (!thinker_) {
        questions_.push_back({request, std::move(answer)});
        return true;
    }
    defer([m = thinker_(request), answer = std::move(answer)] { answer(m); });
    return true;
}

// ---- deferred tasks ------------------------------------------------------------------------

std::size_t fake_host::run_deferred()
{
    std::size_t ran = 0;
    while (!deferred_.empty()) {
        auto tasks = std::move(deferred_);
        deferred_.clear();
        for (auto& t : tasks) {
            t();
            ++ran;
        }
    }
    return ran;
}

// ---- what was stored and shown -------------------------------------------------------------

std::optional<play::lobby_state> fake_host::lobby_of(const model::room_id& room) const
{
    for (auto it = lobby_updates_.rbegin(); it != lobby_updates_.rend(); ++it)
        if (it->room == room) return it->state;
    return std::nullopt;
}

void fake_host::store(const model::tournament_id& id, std::string name, std::string status, std::string state,
                      std::function<void()> stored)
{
    json parsed = json::parse(state, nullptr, /*allow_exceptions=*/false);
    CHECK_MESSAGE(!parsed.is_discarded(), "a stored tournament state that is not JSON: " << state);
    stored_.push_back({id, std::move(name), std::move(status), std::move(parsed)});
    if (stored) stored();
}

// ---- rooms ---------------------------------------------------------------------------------

// Unique across hosts too: a tournament reopened on a second host (a restart) tells its rooms
// apart from the first host's by id, as random ids do on a real server.
model::room_id fake_host::new_room_id()
{
    static std::uint32_t hosts = 0;
    if (host_number_ == 0) host_number_ = ++hosts;
    return "h" + std::to_string(host_number_) + "room" + std::to_string(++next_room_);
}

// ---- the journal ---------------------------------------------------------------------------

void fake_host::journal_append(const model::room_id& room, std::int64_t n, const play::room_change& change,
                               std::string_view event)
{
    ++journal_steps_;
    const auto key = std::make_pair(room, n);
    REQUIRE_MESSAGE(!journal_.contains(key), "entry " << n << " of room " << room << " written twice");
    journal_.emplace(key, archive::journal_entry{room, n, play::encode(change), std::string{event}});
}

void fake_host::journal_cut(const model::room_id& room, std::int64_t below_n)
{
    ++journal_steps_;
    std::erase_if(journal_, [&](const auto& item) { return item.first.first == room && item.first.second < below_n; });
}

std::vector<archive::journal_entry> fake_host::journal_of(const model::room_id& room) const
{
    std::vector<archive::journal_entry> out;
    for (const auto& [key, e] : journal_)
        if (key.first == room) out.push_back(e);
    return out;
}

play::room& fake_host::restore_room(const model::room_id& id, const std::vector<archive::journal_entry>& entries)
{
    std::string problem;
    auto r = play::room::restore(*this, id, entries, problem);
    REQUIRE_MESSAGE(r, problem);
    return *rooms_.insert_or_assign(id, std::move(r)).first->second;
}

play::room& fake_host::create_room(play::room_settings settings, const play::client_ref& creator,
                                   const play::player_record& p)
{
    auto id = new_room_id();
    auto& r = *rooms_.emplace(id, std::make_unique<play::room>(*this, id, std::move(settings))).first->second;
    r.seat_creator(creator, p);
    // As the client does after room_created: the creator's join sends the snapshot.
    r.handle(creator, p, protocol::join{false}, nullptr);
    return r;
}

play::room& fake_host::open_game_room(play::room_settings settings, const play::player_record& first_seat,
                                      const play::player_record& second_seat)
{
    auto id = new_room_id();
    auto& r = *rooms_.emplace(id, std::make_unique<play::room>(*this, id, std::move(settings))).first->second;
    game_rooms_.push_back(id);
    r.seat_pair(first_seat, second_seat);
    return r;
}

std::vector<play::room*> fake_host::rooms_of_tournament(const model::tournament_id& tournament)
{
    std::vector<play::room*> out;
    for (auto& [id, r] : rooms_)
        if (r->tournament() && r->tournament()->tournament == tournament) out.push_back(r.get());
    return out;
}

play::room* fake_host::find_room(const model::room_id& id)
{
    const auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : it->second.get();
}

std::vector<model::room_id> fake_host::sweep(milliseconds idle)
{
    std::vector<model::room_id> closed;
    std::erase_if(rooms_, [&](auto& item) {
        if (!item.second->reclaim_if_idle(idle)) return false;
        closed.push_back(item.first);
        return true;
    });
    return closed;
}

// ---- helpers -------------------------------------------------------------------------------

std::vector<std::string> types_of(const std::vector<json>& frames)
{
    std::vector<std::string> out;
    for (const auto& f : frames) out.push_back(f.value("type", std::string{"?"}));
    return out;
}

std::vector<json> of_type(const std::vector<json>& frames, const std::string& type)
{
    std::vector<json> out;
    for (const auto& f : frames)
        if (f.value("type", std::string{}) == type) out.push_back(f);
    return out;
}

json error_to(fake_host& host, const play::client_ref& c, const std::string& code)
{
    const auto got = host.take(c);
    INFO(host.transcript(c));
    REQUIRE(types_of(got) == std::vector<std::string>{"error"});
    CHECK(got[0]["code"] == code);
    return got[0];
}

json last_of(const std::vector<json>& frames, const std::string& type)
{
    const auto all = of_type(frames, type);
    REQUIRE_MESSAGE(!all.empty(), "no " << type << " among " << frames.size() << " frames");
    return all.back();
}

int check_seq(const std::vector<json>& frames, const std::string& room_id)
{
    std::optional<std::uint64_t> last;
    int checked = 0;
    for (const auto& m : frames) {
        if (!m.is_object() || !m.contains("seq") || m.value("room", json{}) != room_id) continue;
        const std::string type = m.value("type", "");
        if (type == "synced") continue;
        REQUIRE_MESSAGE(m["seq"].is_number_unsigned(), m.dump());
        const auto seq = m["seq"].get<std::uint64_t>();
        if (type == "room") {
            if (last) CHECK_MESSAGE(seq >= *last, "snapshot seq went back: " << m.dump());
        } else {
            if (last) CHECK_MESSAGE(seq == *last + 1, "after seq " << *last << " got " << m.dump());
            ++checked;
        }
        last = seq;
    }
    return checked;
}

} // namespace quarto::server::testing
