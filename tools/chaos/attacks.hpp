// The attackers, one class per kind, made by kind. Each file holds a family:
// attacks_lobby.cpp (lists, rooms, tournaments, spectators), attacks_input.cpp (what the server
// must refuse: garbage, bad frames, floods, odd reqs, oversize), attacks_transport.cpp (sockets
// that misbehave: slow readers, slowloris, idle, hello-and-close), attacks_resume.cpp (tokens,
// drops mid-game, sync).
#pragma once

#include <memory>

#include "attacker.hpp"

namespace quarto::chaos {

std::shared_ptr<attacker> make_attacker(attack_kind kind, attack_context& context);

std::shared_ptr<attacker> make_lobby_attacker(attack_kind kind, attack_context& context);
std::shared_ptr<attacker> make_input_attacker(attack_kind kind, attack_context& context);
std::shared_ptr<attacker> make_transport_attacker(attack_kind kind, attack_context& context);
std::shared_ptr<attacker> make_resume_attacker(attack_kind kind, attack_context& context);

// "<prefix><n>": names stay distinct, and short (player names are at most 32 bytes).
std::string attacker_name(std::string_view prefix);

} // namespace quarto::chaos
