#include "quarto/archive/journal_batch.hpp"

namespace quarto::archive {

namespace {
std::uint64_t little_endian(std::string_view b)
{
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < b.size(); ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(b[i])) << (8 * i);
    return v;
}
} // namespace

void journal_batch::append(const journal_entry& e)
{
    append(e.room, e.n, [&](std::string& out) { out.append(e.change); }, e.event);
}

void journal_batch::cut(std::string_view room, std::int64_t below_n)
{
    cuts_.push_back({std::string{room}, below_n, entries_});
}

void journal_batch::put_u32(std::uint32_t v)
{
    for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void journal_batch::patch_u32(std::size_t at, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i) bytes_[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

void journal_batch::put_i64(std::int64_t v)
{
    const auto u = static_cast<std::uint64_t>(v);
    for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<char>((u >> (8 * i)) & 0xFF));
}

void journal_batch::put_string(std::string_view s)
{
    put_u32(static_cast<std::uint32_t>(s.size()));
    bytes_.append(s);
}

bool journal_entry_reader::next(view& e)
{
    std::string_view n;
    if (!string(e.room) || !take(8, n)) return false;
    e.n = static_cast<std::int64_t>(little_endian(n));
    return string(e.change) && string(e.event);
}

bool journal_entry_reader::take(std::size_t n, std::string_view& out)
{
    if (rest_.size() < n) return false;
    out = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return true;
}

bool journal_entry_reader::string(std::string_view& s)
{
    std::string_view length;
    return take(4, length) && take(static_cast<std::size_t>(little_endian(length)), s);
}

} // namespace quarto::archive
