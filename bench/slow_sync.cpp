// A slow disk on a machine with a fast one: preloaded into a server (LD_PRELOAD), it makes every
// fsync and fdatasync take SLOW_SYNC_US microseconds (default 5000) longer than the real call,
// as a disk without a write cache would (bench/journal.sh --slow-sync-us).
#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace {

using sync_call = int (*)(int);

std::chrono::microseconds extra()
{
    static const std::chrono::microseconds us{[] {
        const char* text = std::getenv("SLOW_SYNC_US");
        return text ? std::atol(text) : 5000L;
    }()};
    return us;
}

int slowed(const char* name, int fd)
{
    const auto real = reinterpret_cast<sync_call>(dlsym(RTLD_NEXT, name));
    const int result = real ? real(fd) : -1;
    std::this_thread::sleep_for(extra());
    return result;
}

} // namespace

extern "C" int fsync(int fd) { return slowed("fsync", fd); }
extern "C" int fdatasync(int fd) { return slowed("fdatasync", fd); }
