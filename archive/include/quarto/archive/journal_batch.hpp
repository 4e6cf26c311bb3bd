// One write to the journal of live rooms (journal.hpp), already in the bytes the journal stores:
// its producer (a shard's turn) appends each entry straight into them, the change's text
// included, so an entry costs no object and no copy of its own, and the journal thread stores
// the bytes as they are, as one row.
//
// An entry is its room, n, change and event, one after the other: each string preceded by its
// length (4 bytes, little-endian), n in 8 bytes, little-endian.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace quarto::archive {

struct journal_entry {
    std::string room;
    std::int64_t n = 0;  // the entry's place in its room's journal: increasing, from 1
    std::string change;  // the server's encoding (never empty)
    std::string event;   // the event text sent for it; empty: none
    friend bool operator==(const journal_entry&, const journal_entry&) = default;
};

class journal_batch {
public:
    // A cut of every entry: the room has closed.
    static constexpr std::int64_t all_entries = std::numeric_limits<std::int64_t>::max();

    // A cut: the room's entries below `below_n` are dropped, after the first `after_entries`
    // entries of the batch (and before the rest).
    struct cut_step {
        std::string room;
        std::int64_t below_n;
        std::size_t after_entries;
    };

    // Appends an entry whose change is what `write_change(std::string&)` appends.
    template <class WriteChange>
    void append(std::string_view room, std::int64_t n, WriteChange&& write_change, std::string_view event)
    {
        put_string(room);
        put_i64(n);
        const std::size_t length_at = bytes_.size();
        put_u32(0);
        write_change(bytes_);
        patch_u32(length_at, static_cast<std::uint32_t>(bytes_.size() - length_at - 4));
        put_string(event);
        ++entries_;
    }
    void append(const journal_entry& e);
    // Drops the room's entries below `below_n` (a fresh summary starts at it), in order with
    // the appends.
    void cut(std::string_view room, std::int64_t below_n);

    bool empty() const { return entries_ == 0 && cuts_.empty(); }
    std::size_t entry_count() const { return entries_; }
    const std::string& bytes() const { return bytes_; }
    const std::vector<cut_step>& cuts() const { return cuts_; }
    // Room for this many bytes of entries, so that the next batch grows without copies.
    void reserve(std::size_t bytes) { bytes_.reserve(bytes); }

private:
    void put_u32(std::uint32_t v);
    void patch_u32(std::size_t at, std::uint32_t v);
    void put_i64(std::int64_t v);
    void put_string(std::string_view s);

    std::string bytes_;
    std::size_t entries_ = 0;
    std::vector<cut_step> cuts_;
};

// Reads the entries of a batch's bytes (as stored) one by one, as views into them.
class journal_entry_reader {
public:
    struct view {
        std::string_view room;
        std::int64_t n = 0;
        std::string_view change, event;
    };
    explicit journal_entry_reader(std::string_view bytes) : rest_{bytes} {}
    bool done() const { return rest_.empty(); }
    // False when the bytes end early.
    bool next(view& e);

private:
    bool take(std::size_t n, std::string_view& out);
    bool string(std::string_view& s);
    std::string_view rest_;
};

} // namespace quarto::archive
