#include "quarto/protocol/json_writer.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>

namespace quarto::protocol {

void json_writer::separate()
{
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (depth_ > 0) {
        if (has_items_[depth_ - 1]) out_.push_back(',');
        has_items_[depth_ - 1] = true;
    }
}

json_writer& json_writer::open(char bracket)
{
    separate();
    assert(depth_ < max_depth);
    out_.push_back(bracket);
    has_items_[depth_++] = false;
    return *this;
}

json_writer& json_writer::close(char bracket)
{
    assert(depth_ > 0 && !after_key_);
    --depth_;
    out_.push_back(bracket);
    return *this;
}

json_writer& json_writer::key(std::string_view name)
{
    separate();
    out_.push_back('"');
    out_.append(name);
    out_.append("\":");
    after_key_ = true;
    return *this;
}

json_writer& json_writer::value(std::string_view text)
{
    separate();
    static constexpr char hex[] = "0123456789abcdef";
    out_.push_back('"');
    const auto plain = [](char c) { return static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\'; };
    if (std::all_of(text.begin(), text.end(), plain)) { // ids, names, words: the usual case
        out_.append(text);
        out_.push_back('"');
        return *this;
    }
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        switch (c) {
        case '"': out_.append("\\\""); break;
        case '\\': out_.append("\\\\"); break;
        case '\n': out_.append("\\n"); break;
        case '\r': out_.append("\\r"); break;
        case '\t': out_.append("\\t"); break;
        case '\b': out_.append("\\b"); break;
        case '\f': out_.append("\\f"); break;
        default:
            if (byte < 0x20) {
                out_.append("\\u00");
                out_.push_back(hex[byte >> 4]);
                out_.push_back(hex[byte & 0xf]);
            } else {
                out_.push_back(c); // UTF-8 passes through: the server only writes valid UTF-8
            }
        }
    }
    out_.push_back('"');
    return *this;
}

namespace {

template <class Number>
void append_number(std::string& out, Number number)
{
    char digits[24]; // 20 digits and a sign at most
    const auto [end, error] = std::to_chars(std::begin(digits), std::end(digits), number);
    out.append(digits, end);
}

} // namespace

json_writer& json_writer::value(std::int64_t number)
{
    separate();
    append_number(out_, number);
    return *this;
}

json_writer& json_writer::value(std::uint64_t number)
{
    separate();
    append_number(out_, number);
    return *this;
}

json_writer& json_writer::value(bool flag)
{
    separate();
    out_.append(flag ? "true" : "false");
    return *this;
}

json_writer& json_writer::null()
{
    separate();
    out_.append("null");
    return *this;
}

json_writer& json_writer::raw(std::string_view json_text)
{
    separate();
    out_.append(json_text);
    return *this;
}

} // namespace quarto::protocol
