// journal_commits: what one commit of the journal of live rooms costs its thread, without a
// server, a network or a load generator around it (whose noise on a 2-core machine hides a
// change of a tenth). A fresh SQLite file in a scratch directory; batches of --entries entries
// (a 150-byte event each, to --rooms rooms, a cut every 20th entry of a room so that dead rows
// are deleted as in the server), each written, its window closed at once as an idle shard
// closes it, and its acknowledgement awaited. Reports, per commit, the journal thread's CPU
// (its run time from /proc/self/task/*/schedstat), the process's user and system CPU, and the
// wall time (bench/RESULTS.md, "The journal of live rooms").
//   build/release/bin/journal_commits                 --entries 5 --commits 20000 --rooms 1000
#include <sys/resource.h>
#include <sys/time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <spdlog/spdlog.h>

#include "quarto/archive/journal.hpp"
#include "quarto/archive/store.hpp"

namespace {

namespace fs = std::filesystem;
using namespace quarto::archive;

struct options {
    int entries = 5;
    int commits = 20000;
    int rooms = 1000;
};

bool parse(int argc, char** argv, options& o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        int* target = arg == "--entries" ? &o.entries : arg == "--commits" ? &o.commits : arg == "--rooms" ? &o.rooms : nullptr;
        if (!target || i + 1 == argc) return false;
        *target = std::atoi(argv[++i]);
        if (*target <= 0) return false;
    }
    return true;
}

// Nanoseconds on a core so far of the process's threads named `name`.
double thread_run_ns(const std::string& name)
{
    double total = 0;
    for (const auto& task : fs::directory_iterator{"/proc/self/task"}) {
        std::ifstream comm{task.path() / "comm"};
        std::string line;
        std::getline(comm, line);
        if (line != name) continue;
        std::ifstream stat{task.path() / "schedstat"};
        double run = 0;
        stat >> run;
        total += run;
    }
    return total;
}

double micros(const timeval& t) { return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_usec); }

} // namespace

int main(int argc, char** argv)
{
    options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr, "usage: journal_commits [--entries N] [--commits N] [--rooms N]\n");
        return 2;
    }
    spdlog::set_level(spdlog::level::warn);
    std::string dir_template = (fs::temp_directory_path() / "journal-commits-XXXXXX").string();
    if (!::mkdtemp(dir_template.data())) {
        std::perror("journal_commits: mkdtemp");
        return 1;
    }
    // The scratch directory goes however the run ends (after the journal has closed its file).
    struct scratch {
        fs::path dir;
        ~scratch() { fs::remove_all(dir); }
    } const scratch_dir{dir_template};
    const std::string path = (scratch_dir.dir / "quarto.db").string();
    const auto failed_to_open = [](const open_error& e) {
        std::fprintf(stderr, "journal_commits: %s\n", e.message.c_str());
        return 1;
    };
    int status = 0;
    {
        if (auto store = open_store(path); const auto* error = std::get_if<open_error>(&store)) return failed_to_open(*error);
        auto opened = journal::open(path);
        if (const auto* error = std::get_if<open_error>(&opened)) return failed_to_open(*error);
        journal& j = *std::get<std::unique_ptr<journal>>(opened);

        std::mt19937 random{7};
        std::vector<std::int64_t> next(static_cast<std::size_t>(o.rooms), 1);
        const std::string event(150, 'e'), change(60, 'c');
        std::size_t failed = 0;
        const auto write = [&](int commits) {
            for (int c = 0; c < commits; ++c) {
                journal_batch batch;
                for (int e = 0; e < o.entries; ++e) {
                    const auto r = random() % static_cast<unsigned>(o.rooms);
                    const std::string room = "room" + std::to_string(r);
                    const std::int64_t n = next[r]++;
                    batch.append(journal_entry{room, n, change, event});
                    if (n % 20 == 0) batch.cut(room, n - 2);
                }
                std::promise<bool> acked;
                auto committed = acked.get_future();
                j.write(std::move(batch), [&](bool ok) { acked.set_value(ok); }, 0);
                j.writer_idle(0);
                if (!committed.get()) ++failed;
            }
        };
        write(o.commits / 4); // the file and its log grow to their steady size first

        rusage before{}, after{};
        ::getrusage(RUSAGE_SELF, &before);
        const double thread_before = thread_run_ns("quarto-journal");
        const auto start = std::chrono::steady_clock::now();
        write(o.commits);
        const auto wall = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        const double thread_after = thread_run_ns("quarto-journal");
        ::getrusage(RUSAGE_SELF, &after);

        const double n = o.commits;
        std::printf("journal_commits: %d commits of %d entries (%d rooms)\n", o.commits, o.entries, o.rooms);
        std::printf("  journal thread CPU  %7.1f us a commit\n", (thread_after - thread_before) / 1e3 / n);
        std::printf("  process user        %7.1f us a commit\n", (micros(after.ru_utime) - micros(before.ru_utime)) / n);
        std::printf("  process system      %7.1f us a commit\n", (micros(after.ru_stime) - micros(before.ru_stime)) / n);
        std::printf("  wall                %7.1f us a commit\n", wall / n);
        if (failed) {
            std::fprintf(stderr, "journal_commits: %zu commits failed\n", failed);
            status = 1;
        }
    }
    return status;
}
