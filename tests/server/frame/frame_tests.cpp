// frame and frame_ptr: headers sealed once, shared ownership, the per-thread pool.
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "frame/frame.hpp"
#include "net_support.hpp"

using namespace quarto::server::net;

namespace {

std::string bytes(std::initializer_list<unsigned> values)
{
    std::string s;
    for (unsigned v : values) s += static_cast<char>(v);
    return s;
}

} // namespace

TEST_CASE("frame: seal() writes the header for the payload's size")
{
    struct sealed_case {
        std::size_t size;
        std::string header;
    };
    const sealed_case cases[] = {
        {0, bytes({0x81, 0})},
        {125, bytes({0x81, 125})},
        {126, bytes({0x81, 126, 0x00, 0x7E})},
        {65535, bytes({0x81, 126, 0xFF, 0xFF})},
        {65536, bytes({0x81, 127, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00})},
    };
    for (const auto& c : cases) {
        CAPTURE(c.size);
        frame_ptr f = make_frame();
        f->text().assign(c.size, 'x');
        f->seal();
        CHECK(f->header() == c.header);
        CHECK(f->payload().size() == c.size);
        CHECK(f->wire_size() == c.header.size() + c.size);
    }
}

TEST_CASE("frame: seal() takes an opcode, and the helpers seal what they make")
{
    frame_ptr f = make_frame();
    f->text() = "abc";
    f->seal(opcode::binary);
    CHECK(f->header() == bytes({0x82, 3}));
    f->text() += "de"; // written further, sealed again: the header follows
    f->seal();
    CHECK(f->header() == bytes({0x81, 5}));

    const frame_ptr text = make_frame("hello");
    CHECK(text->header() == bytes({0x81, 5}));
    CHECK(text->payload() == "hello");
    const frame_ptr pong = make_control_frame(opcode::pong, "p1");
    CHECK(pong->header() == bytes({0x8A, 2}));
    CHECK(pong->payload() == "p1");
    const frame_ptr close = make_control_frame(opcode::close, quarto::server::net::test::close_payload(1000));
    CHECK(close->header() == bytes({0x88, 2}));
}

TEST_CASE("frame_ptr: copies share one frame, moves leave the source empty")
{
    frame_ptr a = make_frame("shared");
    frame* raw = a.get();
    {
        frame_ptr b = a;
        CHECK(b.get() == raw);
        frame_ptr c;
        CHECK_FALSE(c);
        c = b;
        CHECK(c.get() == raw);
        frame_ptr d = std::move(c);
        CHECK_FALSE(c);
        CHECK(d.get() == raw);
        d = d; // self-assignment keeps it
        CHECK(d.get() == raw);
        CHECK(d->payload() == "shared");
    }
    // Every copy gone but `a`: the frame is still whole.
    CHECK(a->payload() == "shared");
    CHECK(a->header() == bytes({0x81, 6}));
}

TEST_CASE("frame_ptr: the last owner gives the frame back to the pool, empty")
{
    frame_ptr a = make_frame("some text that was sent");
    frame* raw = a.get();
    frame_ptr b = a;
    a = frame_ptr{};
    // Still owned by b: not in the pool, so a new frame is another one.
    frame_ptr other = make_frame();
    CHECK(other.get() != raw);
    CHECK(b->payload() == "some text that was sent");
    b = frame_ptr{};
    // Now pooled: the next frame this thread makes is that one, emptied.
    frame_ptr again = make_frame();
    CHECK(again.get() == raw);
    CHECK(again->payload() == "");
    CHECK(again->header() == "");
    CHECK(again->wire_size() == 0);
}

TEST_CASE("frame_ptr: a frame with a large text is freed rather than pooled")
{
    frame_ptr big = make_frame(std::string(100'000, 'x'));
    big = frame_ptr{};
    // Had it been pooled, its 100 kB buffer would come back with the next frame.
    frame_ptr next = make_frame();
    CHECK(next->text().capacity() < 100'000);
}

TEST_CASE("frame_ptr: frames released on other threads, and counted from several at once")
{
    // Made here, last released there: the frame joins that thread's pool, freed when it ends.
    std::vector<frame_ptr> batch;
    for (int i = 0; i < 100; ++i) batch.push_back(make_frame("frame " + std::to_string(i)));
    std::thread releaser{[moved = std::move(batch)]() mutable {
        for (int i = 0; i < 100; ++i) CHECK(moved[static_cast<std::size_t>(i)]->payload() == "frame " + std::to_string(i));
        moved.clear();
        // This thread's pool serves it again.
        frame_ptr reused = make_frame("x");
        CHECK(reused->payload() == "x");
    }};
    releaser.join();

    // One frame copied and dropped by four threads at once: the count stays exact.
    frame_ptr shared = make_frame("broadcast");
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([shared] {
            for (int i = 0; i < 50'000; ++i) {
                frame_ptr copy = shared;
                frame_ptr another = copy;
            }
        });
    }
    for (auto& t : threads) t.join();
    CHECK(shared->payload() == "broadcast");
    frame* raw = shared.get();
    shared = frame_ptr{};
    CHECK(make_frame().get() == raw); // released exactly once, by its last owner here
}
