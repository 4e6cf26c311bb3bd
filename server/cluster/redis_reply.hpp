// A Redis reply as a value: hiredis frees its own as soon as the callback returns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct redisReply;

namespace quarto::server::cluster {

struct redis_reply {
    enum class kind { nil, integer, text, status, error, array };

    kind type = kind::nil;
    std::int64_t integer = 0;
    std::string text; // a bulk string, a status or an error's message
    std::vector<redis_reply> elements;

    bool is_error() const { return type == kind::error; }
    // What a command gets when its connection goes before the reply comes.
    static redis_reply failure(std::string why) { return {kind::error, 0, std::move(why), {}}; }
    static redis_reply copy_of(const redisReply& r);
};

} // namespace quarto::server::cluster
