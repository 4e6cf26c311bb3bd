# The two commands of the README. Both install what is missing first (deploy/deps.sh).
#   make run    Release build, serves http://localhost:8080
#   make test   Debug build with ASan+UBSan and -Werror, runs every test through ctest (TEST_JOBS at a time)
#   make test-deploy  the container image, nginx and systemd files, end to end (minutes; root)
#   make test-tsan    ThreadSanitizer build: the server tests and a short load on 4 shards
#   make test-cluster the cluster's tests alone (Redis, PostgreSQL, HAProxy and nodes on
#                     loopback; also part of make test), then bench/cluster.sh's cost comparison
#   make fuzz         the libFuzzer targets (clang-14), FUZZ_SECONDS each (tests/fuzz/README.md)
JOBS ?= $(shell nproc)
TEST_JOBS ?= $(shell expr $$(nproc) + 1)
RUN_ARGS ?=
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=

.PHONY: run test test-deploy test-cluster-deploy test-tsan test-cluster fuzz build-release build-debug deps deps-test deps-fuzz clean

deps:
	deploy/deps.sh

deps-test:
	deploy/deps.sh --tests --browser

deps-fuzz:
	deploy/deps.sh --fuzz

build-release: deps
	cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DQUARTO_BUILD_TESTS=OFF
	cmake --build build/release -j $(JOBS) --target quarto-server

run: build-release
	build/release/bin/quarto-server --web-root web $(RUN_ARGS)

build-debug: deps-test
	cmake -S . -B build/debug -DCMAKE_BUILD_TYPE=Debug -DQUARTO_SANITIZE=ON -DQUARTO_WERROR=ON
	cmake --build build/debug -j $(JOBS)

# One test more at once than there are cores (TEST_JOBS): at one a core the tests kept the cores
# busy only 69 % of the time (they wait on sockets, clocks and timeouts), and one more took the
# tests from 512 s to 428 s on 2 cores (bench/RESULTS.md, "The build and the tests"). Each test
# must hold up on a loaded machine anyway.
test: build-debug
	cd build/debug && ctest --output-on-failure --timeout 300 -j $(TEST_JOBS)

test-deploy:
	deploy/test.sh

test-cluster-deploy:
	deploy/cluster/test.sh

test-cluster: build-debug
	cd build/debug && ctest --output-on-failure --timeout 300 -R 'cluster'
	deploy/deps.sh --bench
	bench/cluster.sh --repeat 1 --out build/cluster-bench.md
	bench/rolling.sh --out build/rolling-bench.md

test-tsan: deps
	deploy/deps.sh --tests
	cmake -S . -B build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUARTO_TSAN=ON -DQUARTO_WERROR=ON -DQUARTO_BROWSER_TESTS=OFF
	cmake --build build/tsan -j $(JOBS) --target quarto-server quarto-load archive_tests server_tests server_unit_tests server_net_tests cluster_tests
	tests/tsan.sh build/tsan

# Only the libraries the targets link are built, at -O1 without NDEBUG: assertions stay on and the
# build stays short enough for CI.
fuzz: deps-fuzz
	CC=clang-14 CXX=clang++-14 cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
	  -DQUARTO_FUZZ=ON -DQUARTO_BUILD_TESTS=OFF -DQUARTO_BUILD_BENCH=OFF
	cmake --build build/fuzz -j $(JOBS) --target fuzz_targets
	tests/fuzz/run.sh build/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf build
