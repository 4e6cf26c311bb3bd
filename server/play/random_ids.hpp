// Unguessable identifiers: player tokens (128 bits) and short ids for rooms and players; and
// the seeds of the rooms' and tournaments' coins, from the same source.
#pragma once

#include <cstdint>
#include <string>

namespace quarto::server::play {

// 32 hex digits from the operating system's random source: a secret that resumes a player.
std::string new_token();
// `length` characters of lowercase base32, e.g. "k3x9abqz": room ids that can go in a link.
std::string new_short_id(std::size_t length = 8);
// 32 bits from the operating system's random source, through one std::random_device per
// thread: constructing one costs about 28 µs on a virtual machine (its CPUID check traps to the
// hypervisor), which was a fifth of restoring 10,000 rooms from the journal.
std::uint32_t random_word();

} // namespace quarto::server::play
