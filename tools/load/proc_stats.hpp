// What /proc says about a process: CPU time, memory, and which process listens on a port.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <sys/types.h>

namespace quarto::load {

struct cpu_times {
    double user_s = 0;
    double system_s = 0;
    double total() const { return user_s + system_s; }
};

// utime + stime from /proc/PID/stat (PID 0: this process, /proc/self).
std::optional<cpu_times> read_cpu(pid_t pid);

// The same for each of the process's threads (/proc/PID/task/*/stat), summed by thread name:
// a server that names its threads ("quarto-shard-0", "quarto-pwd-0", ...) shows where its CPU
// went. Threads that share a name are added up; a thread that has gone is not counted.
std::map<std::string, cpu_times> read_thread_cpu(pid_t pid);

// Time the process's threads spent runnable but waiting for a CPU, in seconds: the sum of the
// second field of /proc/PID/task/*/schedstat. On a shared machine this tells CPU starvation
// apart from a slow server. nullopt when the kernel does not keep schedstats.
std::optional<double> read_run_delay(pid_t pid);

struct memory_status {
    bool valid = false;        // false when the process could not be read
    std::uint64_t rss_kib = 0; // VmRSS
    std::uint64_t hwm_kib = 0; // VmHWM, the peak RSS
};
memory_status read_memory(pid_t pid);

// The process with a listening TCP socket on `port` (IPv4 or IPv6): the socket's inode from
// /proc/net/tcp{,6}, then the process whose /proc/PID/fd holds "socket:[inode]".
std::optional<pid_t> find_listener_pid(std::uint16_t port);

// "nproc, CPU model" for the report.
std::string machine_summary();

} // namespace quarto::load
