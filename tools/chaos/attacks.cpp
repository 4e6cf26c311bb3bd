#include "attacks.hpp"

namespace quarto::chaos {

std::string attacker_name(std::string_view prefix)
{
    static std::uint64_t next = 0;
    return std::string{prefix} + std::to_string(next++);
}

std::shared_ptr<attacker> make_attacker(attack_kind kind, attack_context& context)
{
    switch (kind) {
    case attack_kind::list_poll:
    case attack_kind::room_spam:
    case attack_kind::tournament_spam:
    case attack_kind::spectator_churn: return make_lobby_attacker(kind, context);
    case attack_kind::garbage:
    case attack_kind::frame_violation:
    case attack_kind::flood:
    case attack_kind::huge_req:
    case attack_kind::oversize: return make_input_attacker(kind, context);
    case attack_kind::slow_reader:
    case attack_kind::slowloris:
    case attack_kind::idle_silent:
    case attack_kind::idle_quiet:
    case attack_kind::guest_spam: return make_transport_attacker(kind, context);
    case attack_kind::resume:
    case attack_kind::drop_resume: return make_resume_attacker(kind, context);
    case attack_kind::count_: break;
    }
    return nullptr;
}

} // namespace quarto::chaos
