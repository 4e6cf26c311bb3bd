#include "attacker.hpp"

#include <algorithm>
#include <charconv>

#include "raw_field.hpp"

namespace quarto::chaos {

attacker::attacker(attack_context& context, attack_kind kind)
    : context_{context}, kind_{kind}, born_{clock_type::now()}, timer_{context.io}
{
    ++counts().started;
}

attacker::~attacker()
{
    for (auto& c : clients_) c->detach();
}

std::shared_ptr<ws_client> attacker::connect(bool upgrade, int receive_buffer, const endpoint_settings* from)
{
    auto c = std::make_shared<ws_client>(context_.io, from ? *from : context_.attackers,
                                         static_cast<ws_client::listener*>(this), context_.random);
    if (receive_buffer > 0) c->set_receive_buffer(receive_buffer);
    // Forget the connections that have ended: guest_spam opens hundreds in its life.
    std::erase_if(clients_, [](const auto& old) { return old->ended(); });
    clients_.push_back(c);
    ++counts().connections;
    c->start(upgrade);
    return c;
}

void attacker::after(ms delay, std::function<void()> step)
{
    const auto mine = ++step_;
    timer_.expires_after(delay);
    // A weak pointer: a pending step must not keep a finished attacker alive, and must not run
    // on one that is gone.
    timer_.async_wait([weak = weak_from_this(), mine, step = std::move(step)](const error_code& ec) {
        if (ec) return;
        const auto self = weak.lock();
        if (!self || self->finished_ || self->step_ != mine) return;
        step();
    });
}

void attacker::send(ws_client& c, std::string_view text)
{
    if (c.ended()) return;
    ++counts().messages_out;
    c.send_text(text);
}

void attacker::ask(ws_client& c, std::string_view label, std::string_view json,
                   std::initializer_list<std::string_view> accepted)
{
    if (expected_.size() > 1000) expected_.clear(); // replies that never came (the connection broke)
    const auto req = next_req_++;
    expected_[req] = expectation{std::string{label}, std::vector<std::string_view>(accepted)};
    std::string message = "{\"req\":\"q" + std::to_string(req) + "\"";
    if (json.size() > 2) message += ',';
    message += json.substr(1);
    send(c, message);
}

void attacker::end_connection(ws_client& c)
{
    if (c.ended()) return;
    switch (uniform(0, 2)) {
    case 0: c.close(1000, "bye"); break;
    case 1: c.half_close(); break;
    default: c.abort(); break;
    }
}

void attacker::stop()
{
    if (finished_) return;
    bool any = false;
    for (auto& c : clients_) {
        if (c->ended()) continue;
        any = true;
        end_connection(*c);
    }
    if (!any) finish();
}

void attacker::drop()
{
    if (finished_) return;
    for (auto& c : clients_) c->abort(); // each reports its end; the last one finishes us
    if (all_ended()) finish();
}

bool attacker::all_ended() const
{
    for (const auto& c : clients_)
        if (!c->ended()) return false;
    return true;
}

void attacker::finish()
{
    if (finished_) return;
    finished_ = true;
    ++step_; // no pending step runs
    timer_.cancel();
    for (auto& c : clients_)
        if (!c->ended()) c->abort();
    context_.finished(*this);
}

void attacker::on_open(ws_client& c)
{
    if (c.opened()) ++counts().opened;
    if (!finished_) opened(c);
}

void attacker::on_message(ws_client& c, ws_client::message_kind kind, std::string_view payload)
{
    ++counts().messages_in;
    if (finished_) return;
    if (kind == ws_client::message_kind::raw) return raw(c, payload);
    if (kind == ws_client::message_kind::binary) return surprise("a binary frame from the server");
    load::server_message m;
    if (!load::scan_message(payload, m)) return unscannable(c, payload);
    if (m.type == "error") ++counts().errors[std::string{m.code}];
    if (m.type == "welcome" && share_tokens_)
        if (const auto token = raw_field(payload, "token"); token && token->is_string)
            context_.tokens.add(std::string{token->text});
    if (m.type == "room_created" && !m.room.empty()) context_.rooms.add(std::string{m.room});
    if (const auto req = raw_field(payload, "req"); req && req->is_string && req->text.size() > 1 && req->text[0] == 'q') {
        std::uint64_t n = 0;
        const auto digits = req->text.substr(1);
        if (std::from_chars(digits.data(), digits.data() + digits.size(), n).ec == std::errc{}) {
            if (const auto e = expected_.find(n); e != expected_.end()) {
                const std::string key = m.type == "error" ? "error:" + std::string{m.code} : std::string{m.type};
                const bool fine =
                    key == "error:rate_limited" ||
                    std::find(e->second.accepted.begin(), e->second.accepted.end(), key) != e->second.accepted.end();
                if (fine) outcome(e->second.label + " -> " + key);
                else surprise(e->second.label + " -> " + key, std::string{payload.substr(0, 300)});
                expected_.erase(e);
            }
        }
    }
    text(c, payload, m);
}

void attacker::on_end(ws_client& c, const ws_client::ending& e)
{
    ++counts().endings[e.describe()];
    if (!finished_) ended(c, e);
}

} // namespace quarto::chaos
