#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <spdlog/spdlog.h>

int main(int argc, char** argv)
{
    // spdlog's default logger is made on first use; made here, before the nodes' threads log at
    // once (ThreadSanitizer cannot see the guard inside the uninstrumented libspdlog, and would
    // report its construction racing with the first read).
    spdlog::default_logger();
    return doctest::Context{argc, argv}.run();
}
