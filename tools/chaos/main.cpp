// quarto-chaos: the chaos soak. Thousands of misbehaving connections against a
// running quarto-server for a bounded time while a few honest rooms play; at the end the honest
// games must have gone right, the server must be alive, and its RSS back near its post-warm-up
// level. bench/chaos.sh starts a server and runs this against it.
#include <sys/resource.h>

#include <fstream>
#include <iostream>

#include "proc_stats.hpp"
#include "report.hpp"

namespace chaos = quarto::chaos;

namespace {

// Thousands of sockets: take every file descriptor the hard limit allows.
void raise_open_file_limit()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &limit);
    }
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) std::cerr << "quarto-chaos: open files limit " << limit.rlim_cur << "\n";
}

} // namespace

int main(int argc, char** argv)
{
    const chaos::options opts = chaos::parse_options(argc, argv);
    const quarto::tools::ws_target& where = opts.server;
    raise_open_file_limit();

    pid_t pid = opts.server_pid;
    if (pid == 0) {
        if (const auto found = quarto::load::find_listener_pid(where.endpoint.port())) pid = *found;
        else
            std::cerr << "quarto-chaos: no process found listening on port " << where.endpoint.port()
                      << "; use --server-pid\n";
    }

    chaos::soak run{opts, where.endpoint, where.host_header, where.path, pid};
    run.run();

    const auto v = chaos::judge(opts, run);
    chaos::print_report(std::cout, opts, run, v);
    if (!opts.json_path.empty()) {
        std::ofstream out{opts.json_path};
        out << chaos::json_report(opts, run, v).dump(2) << "\n";
        if (!out) std::cerr << "quarto-chaos: cannot write " << opts.json_path << "\n";
    }
    return v.pass ? 0 : 1;
}
