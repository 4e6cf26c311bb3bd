// The archive's moves column (archive/move_text.hpp), both ways:
//  - read: what moves_from_text accepts is JSON, in range, and is the writer's own text up to
//    whitespace (the reader refuses anything the writer would not have produced);
//  - write: any list of in-range moves, taken from the same bytes, reads back equal.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "check.hpp"
#include "quarto/archive/move_text.hpp"

using namespace quarto;

namespace {

std::string without_whitespace(std::string_view text)
{
    std::string out;
    for (const char c : text)
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') out += c;
    return out;
}

void read_side(std::string_view text)
{
    const auto moves = archive::moves_from_text(text);
    if (!moves) return;
    FUZZ_CHECK(nlohmann::json::accept(text));
    for (const move_record& m : *moves) FUZZ_CHECK(m.by <= 1 && m.value <= 15 && m.kind <= move_kind::resign);
    // No kind has whitespace in its name, so removing it everywhere only undoes the spacing.
    FUZZ_CHECK(archive::moves_to_text(*moves) == without_whitespace(text));
}

// 9 bytes a move: kind, seat, value, line (2), at_ms (4), each folded into its range.
void write_side(const std::uint8_t* data, std::size_t size)
{
    const auto bytes = [](const std::uint8_t* p, int n) {
        std::uint32_t v = 0;
        for (int i = n - 1; i >= 0; --i) v = v << 8 | p[i];
        return v;
    };
    std::vector<move_record> moves;
    for (; size >= 9; data += 9, size -= 9) {
        const auto kind = static_cast<move_kind>(data[0] % (static_cast<unsigned>(move_kind::resign) + 1));
        moves.push_back({kind, static_cast<seat>(data[1] & 1), static_cast<std::uint8_t>(data[2] & 15),
                         static_cast<square_mask>(bytes(data + 3, 2)), bytes(data + 5, 4)});
    }
    const std::string text = archive::moves_to_text(moves);
    FUZZ_CHECK(archive::moves_from_text(text) == std::optional{moves});
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    read_side({reinterpret_cast<const char*>(data), size});
    write_side(data, size);
    return 0;
}
