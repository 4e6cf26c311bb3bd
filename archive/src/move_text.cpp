// The moves column's text (see move_text.hpp): written by hand rather than through a JSON
// library because it is on the path of every archived game, and read by a strict little parser
// that refuses anything the writer would not have produced (apart from whitespace).
#include "quarto/archive/move_text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <limits>

namespace quarto::archive {
namespace {

constexpr std::array all_move_kinds{move_kind::give, move_kind::place, move_kind::call, move_kind::pass,
                                    move_kind::resign};

class reader {
public:
    explicit reader(std::string_view text) : text_{text} {}

    // Skips whitespace, then takes `c` if it is next.
    bool take(char c)
    {
        skip_space();
        if (pos_ == text_.size() || text_[pos_] != c) return false;
        ++pos_;
        return true;
    }

    std::optional<move_kind> kind()
    {
        if (!take('"')) return std::nullopt;
        const std::size_t close = text_.find('"', pos_);
        if (close == std::string_view::npos) return std::nullopt;
        const std::string_view name = text_.substr(pos_, close - pos_);
        pos_ = close + 1;
        for (move_kind k : all_move_kinds)
            if (to_string(k) == name) return k;
        return std::nullopt;
    }

    // A JSON integer without sign, fraction or exponent, at most `max`.
    std::optional<std::uint32_t> number(std::uint32_t max)
    {
        skip_space();
        const char* first = text_.data() + pos_;
        const char* last = text_.data() + text_.size();
        if (first == last || *first < '0' || *first > '9') return std::nullopt;
        if (*first == '0' && first + 1 != last && first[1] >= '0' && first[1] <= '9') return std::nullopt;
        std::uint64_t n = 0;
        const auto [end, error] = std::from_chars(first, last, n);
        if (error != std::errc{} || n > max) return std::nullopt;
        if (end != last && (*end == '.' || *end == 'e' || *end == 'E')) return std::nullopt;
        pos_ += static_cast<std::size_t>(end - first);
        return static_cast<std::uint32_t>(n);
    }

    bool at_end()
    {
        skip_space();
        return pos_ == text_.size();
    }

private:
    void skip_space()
    {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

std::optional<move_record> read_move(reader& in)
{
    if (!in.take('[')) return std::nullopt;
    const auto kind = in.kind();
    if (!kind || !in.take(',')) return std::nullopt;
    const auto by = in.number(1);
    if (!by || !in.take(',')) return std::nullopt;
    const auto value = in.number(15);
    if (!value || !in.take(',')) return std::nullopt;
    const auto line = in.number(std::numeric_limits<square_mask>::max());
    if (!line || !in.take(',')) return std::nullopt;
    const auto at_ms = in.number(std::numeric_limits<std::uint32_t>::max());
    if (!at_ms || !in.take(']')) return std::nullopt;
    return move_record{*kind, static_cast<seat>(*by), static_cast<std::uint8_t>(*value),
                       static_cast<square_mask>(*line), *at_ms};
}

} // namespace

std::string moves_to_text(std::span<const move_record> moves)
{
    // Written into a buffer sized for the longest move, ["resign",1,15,65535,4294967295] and a
    // comma, then cut to length: this runs for every archived game.
    constexpr std::size_t longest_move = 33;
    std::string out(2 + moves.size() * longest_move, '\0');
    char* p = out.data();
    char* const end = p + out.size();
    const auto number = [&](unsigned n) { p = std::to_chars(p, end, n).ptr; };
    *p++ = '[';
    for (const move_record& m : moves) {
        if (p != out.data() + 1) *p++ = ',';
        *p++ = '[';
        *p++ = '"';
        const std::string_view kind = to_string(m.kind);
        p = std::copy(kind.begin(), kind.end(), p);
        *p++ = '"';
        *p++ = ',';
        number(m.by);
        *p++ = ',';
        number(m.value);
        *p++ = ',';
        number(m.line);
        *p++ = ',';
        number(m.at_ms);
        *p++ = ']';
    }
    *p++ = ']';
    out.resize(static_cast<std::size_t>(p - out.data()));
    return out;
}

std::optional<std::vector<move_record>> moves_from_text(std::string_view text)
{
    reader in{text};
    std::vector<move_record> moves;
    if (!in.take('[')) return std::nullopt;
    if (!in.take(']')) {
        do {
            const auto m = read_move(in);
            if (!m) return std::nullopt;
            moves.push_back(*m);
        } while (in.take(','));
        if (!in.take(']')) return std::nullopt;
    }
    if (!in.at_end()) return std::nullopt;
    return moves;
}

} // namespace quarto::archive
