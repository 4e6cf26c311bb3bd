#include "pressure.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "proc_stats.hpp"

namespace quarto::chaos {

namespace {

// "some avg10=0.72 avg60=16.54 avg300=37.49 total=11678536164": the total, in seconds.
std::optional<double> pressure_total(const char* file, const char* line_kind)
{
    std::ifstream in{file};
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(line_kind, 0) != 0) continue;
        const auto at = line.find("total=");
        if (at == std::string::npos) return std::nullopt;
        return std::stod(line.substr(at + 6)) / 1e6;
    }
    return std::nullopt;
}

double steal_seconds()
{
    std::ifstream in{"/proc/stat"};
    std::string cpu;
    unsigned long long user, nice, system, idle, iowait, irq, softirq, steal = 0;
    if (!(in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal)) return 0;
    return static_cast<double>(steal) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

} // namespace

std::optional<pressure_totals> read_pressure(pid_t server)
{
    const auto cpu = pressure_total("/proc/pressure/cpu", "some");
    const auto io_some = pressure_total("/proc/pressure/io", "some");
    const auto io_full = pressure_total("/proc/pressure/io", "full");
    if (!cpu || !io_some || !io_full) return std::nullopt;
    pressure_totals p;
    p.cpu_some_s = *cpu;
    p.io_some_s = *io_some;
    p.io_full_s = *io_full;
    p.steal_s = steal_seconds();
    p.server_wait_s = server > 0 ? load::read_run_delay(server).value_or(0) : 0;
    p.self_wait_s = load::read_run_delay(0).value_or(0);
    return p;
}

} // namespace quarto::chaos
