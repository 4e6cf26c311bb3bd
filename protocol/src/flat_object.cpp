#include "flat_object.hpp"

namespace quarto::protocol::detail {
namespace {

constexpr int max_digits = 18; // fits std::uint64_t (and int64) with room to spare

class scanner {
public:
    explicit scanner(std::string_view text) : p_{text.data()}, end_{text.data() + text.size()} {}

    void skip_space()
    {
        while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
    }
    bool eat(char c)
    {
        skip_space();
        if (p_ == end_ || *p_ != c) return false;
        ++p_;
        return true;
    }
    bool at_end()
    {
        skip_space();
        return p_ == end_;
    }

    // Printable ASCII without escapes only.
    bool string(std::string_view& out)
    {
        if (!eat('"')) return false;
        const char* start = p_;
        while (p_ != end_ && *p_ != '"') {
            const auto c = static_cast<unsigned char>(*p_);
            if (c < 0x20 || c >= 0x7f || c == '\\') return false;
            ++p_;
        }
        if (p_ == end_) return false;
        out = {start, static_cast<std::size_t>(p_ - start)};
        ++p_;
        return true;
    }

    bool value(flat_value& out)
    {
        skip_space();
        if (p_ == end_) return false;
        if (*p_ == '"') {
            out.type = flat_value::kind::string;
            return string(out.text);
        }
        if (*p_ >= '0' && *p_ <= '9') return integer(out);
        if (literal("true")) return out = {flat_value::kind::boolean, {}, 0, true}, true;
        if (literal("false")) return out = {flat_value::kind::boolean, {}, 0, false}, true;
        if (literal("null")) return out = {flat_value::kind::null, {}, 0, false}, true;
        return false; // an object, an array, a negative number, or not JSON
    }

private:
    bool integer(flat_value& out)
    {
        std::uint64_t n = 0;
        int digits = 0;
        const bool leading_zero = *p_ == '0';
        while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
            if (++digits > max_digits) return false;
            n = n * 10 + static_cast<std::uint64_t>(*p_ - '0');
            ++p_;
        }
        if (leading_zero && digits > 1) return false;
        if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;
        out = {flat_value::kind::integer, {}, n, false};
        return true;
    }

    bool literal(std::string_view word)
    {
        if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view{p_, word.size()} != word) return false;
        p_ += word.size();
        return true;
    }

    const char* p_;
    const char* end_;
};

} // namespace

std::optional<flat_object> flat_object::scan(std::string_view text)
{
    scanner in{text};
    flat_object object;
    if (!in.eat('{')) return std::nullopt;
    if (in.eat('}')) return in.at_end() ? std::optional{object} : std::nullopt;
    do {
        if (object.size_ == max_members) return std::nullopt;
        member& m = object.members_[object.size_];
        if (!in.string(m.key) || !in.eat(':') || !in.value(m.value)) return std::nullopt;
        if (object.find(m.key)) return std::nullopt; // repeated: the full parser decides
        ++object.size_;
    } while (in.eat(','));
    if (!in.eat('}') || !in.at_end()) return std::nullopt;
    return object;
}

const flat_value* flat_object::find(std::string_view key) const
{
    for (std::size_t i = 0; i < size_; ++i)
        if (members_[i].key == key) return &members_[i].value;
    return nullptr;
}

} // namespace quarto::protocol::detail
