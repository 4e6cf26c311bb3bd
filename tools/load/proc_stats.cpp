#include "proc_stats.hpp"

#include <dirent.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string_view>
#include <thread>
#include <vector>

namespace quarto::load {

namespace {

std::string proc_dir(pid_t pid) { return pid == 0 ? "/proc/self" : "/proc/" + std::to_string(pid); }

std::vector<unsigned long> listening_inodes(const char* table, std::uint16_t port)
{
    std::vector<unsigned long> inodes;
    std::ifstream in{table};
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
        std::istringstream fields{line};
        std::string sl, local, remote, state, queues, timer, retransmits, uid, timeout;
        unsigned long inode = 0;
        if (!(fields >> sl >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >> inode))
            continue;
        if (state != "0A") continue; // TCP_LISTEN
        const auto colon = local.rfind(':');
        if (colon == std::string::npos) continue;
        if (std::stoul(local.substr(colon + 1), nullptr, 16) == port) inodes.push_back(inode);
    }
    return inodes;
}

// utime and stime of a /proc stat line (a process's or a thread's), and its name.
std::optional<std::pair<std::string, cpu_times>> parse_stat(const std::string& text)
{
    // The command name is in parentheses and may hold spaces: fields resume after the last ')'.
    const auto open = text.find('(');
    const auto close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
    std::istringstream fields{text.substr(close + 2)};
    std::string field;
    // Fields 3..13 (state .. cmajflt), then 14 utime and 15 stime.
    for (int i = 3; i <= 13; ++i)
        if (!(fields >> field)) return std::nullopt;
    unsigned long long utime = 0, stime = 0;
    if (!(fields >> utime >> stime)) return std::nullopt;
    const auto ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
    return std::pair{text.substr(open + 1, close - open - 1),
                     cpu_times{static_cast<double>(utime) / ticks, static_cast<double>(stime) / ticks}};
}

} // namespace

std::optional<cpu_times> read_cpu(pid_t pid)
{
    std::ifstream in{proc_dir(pid) + "/stat"};
    std::string text;
    if (!std::getline(in, text)) return std::nullopt;
    const auto parsed = parse_stat(text);
    if (!parsed) return std::nullopt;
    return parsed->second;
}

std::map<std::string, cpu_times> read_thread_cpu(pid_t pid)
{
    std::map<std::string, cpu_times> by_name;
    const std::string tasks = proc_dir(pid) + "/task";
    DIR* dir = opendir(tasks.c_str());
    if (!dir) return by_name;
    while (const dirent* entry = readdir(dir)) {
        if (entry->d_name[0] == '.') continue;
        std::ifstream in{tasks + "/" + entry->d_name + "/stat"};
        std::string text;
        if (!std::getline(in, text)) continue; // the thread has gone
        if (const auto parsed = parse_stat(text)) {
            auto& sum = by_name[parsed->first];
            sum.user_s += parsed->second.user_s;
            sum.system_s += parsed->second.system_s;
        }
    }
    closedir(dir);
    return by_name;
}

std::optional<double> read_run_delay(pid_t pid)
{
    const std::string tasks = proc_dir(pid) + "/task";
    DIR* dir = opendir(tasks.c_str());
    if (!dir) return std::nullopt;
    double total_ns = 0;
    bool any = false;
    while (const dirent* entry = readdir(dir)) {
        if (entry->d_name[0] == '.') continue;
        std::ifstream in{tasks + "/" + entry->d_name + "/schedstat"};
        unsigned long long on_cpu = 0, waiting = 0;
        if (in >> on_cpu >> waiting) {
            total_ns += static_cast<double>(waiting);
            any = true;
        }
    }
    closedir(dir);
    if (!any) return std::nullopt;
    return total_ns / 1e9;
}

memory_status read_memory(pid_t pid)
{
    memory_status m;
    std::ifstream in{proc_dir(pid) + "/status"};
    if (!in) return m;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields{line};
        std::string key;
        std::uint64_t kib = 0;
        fields >> key >> kib;
        if (key == "VmRSS:") m.rss_kib = kib, m.valid = true;
        else if (key == "VmHWM:") m.hwm_kib = kib;
    }
    return m;
}

std::optional<pid_t> find_listener_pid(std::uint16_t port)
{
    auto inodes = listening_inodes("/proc/net/tcp", port);
    const auto v6 = listening_inodes("/proc/net/tcp6", port);
    inodes.insert(inodes.end(), v6.begin(), v6.end());
    if (inodes.empty()) return std::nullopt;
    std::vector<std::string> wanted;
    for (auto inode : inodes) wanted.push_back("socket:[" + std::to_string(inode) + "]");

    DIR* proc = opendir("/proc");
    if (!proc) return std::nullopt;
    std::optional<pid_t> found;
    while (const dirent* entry = readdir(proc)) {
        const std::string_view name{entry->d_name};
        if (name.empty() || name.find_first_not_of("0123456789") != std::string_view::npos) continue;
        const std::string fd_dir = "/proc/" + std::string{name} + "/fd";
        DIR* fds = opendir(fd_dir.c_str());
        if (!fds) continue; // another user's process, or gone
        while (const dirent* fd = readdir(fds)) {
            char target[64];
            const std::string path = fd_dir + "/" + fd->d_name;
            const auto n = readlink(path.c_str(), target, sizeof target - 1);
            if (n <= 0) continue;
            const std::string_view link{target, static_cast<std::size_t>(n)};
            for (const auto& w : wanted)
                if (link == w) found = static_cast<pid_t>(std::stol(std::string{name}));
            if (found) break;
        }
        closedir(fds);
        if (found) break;
    }
    closedir(proc);
    return found;
}

std::string machine_summary()
{
    std::ifstream in{"/proc/cpuinfo"};
    std::string line, model = "unknown CPU";
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            model = line.substr(line.find(':') + 2);
            break;
        }
    return std::to_string(std::thread::hardware_concurrency()) + " CPUs, " + model;
}

} // namespace quarto::load
