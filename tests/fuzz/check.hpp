// The harnesses' assertion: on a broken property it names the check and aborts, and libFuzzer
// saves the input that broke it (as it does for a sanitizer's report).
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition) ((condition) ? void(0) : ::fuzz_check_failed(#condition, __FILE__, __LINE__))

[[noreturn]] inline void fuzz_check_failed(const char* condition, const char* file, int line)
{
    std::fprintf(stderr, "%s:%d: check failed: %s\n", file, line, condition);
    std::abort();
}
