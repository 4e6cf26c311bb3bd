// What the machine was doing, second by second: the kernel's pressure stall information (the
// share of time some task waited for a CPU, or for I/O), the hypervisor's steal, and how long
// the server's and our own threads sat runnable without a CPU. When an honest event comes late,
// these say whether the server was slow or the machine (2 cores, shared) held everyone back.
#pragma once

#include <sys/types.h>

#include <optional>

namespace quarto::chaos {

struct pressure_totals {
    double cpu_some_s = 0; // /proc/pressure/cpu "some" total
    double io_some_s = 0;  // /proc/pressure/io "some" total
    double io_full_s = 0;  // /proc/pressure/io "full" total: every task stalled on I/O
    double steal_s = 0;    // /proc/stat, summed over CPUs
    double server_wait_s = 0; // the server's threads, runnable but not running (schedstat)
    double self_wait_s = 0;   // ours
};

// nullopt when the kernel keeps no pressure information.
std::optional<pressure_totals> read_pressure(pid_t server);

} // namespace quarto::chaos
