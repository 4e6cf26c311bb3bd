#include "cluster/redis_reply.hpp"

#include <hiredis/hiredis.h>

namespace quarto::server::cluster {

redis_reply redis_reply::copy_of(const redisReply& r)
{
    redis_reply out;
    switch (r.type) {
    case REDIS_REPLY_INTEGER:
        out.type = kind::integer;
        out.integer = r.integer;
        break;
    case REDIS_REPLY_STRING: out.type = kind::text; break;
    case REDIS_REPLY_STATUS: out.type = kind::status; break;
    case REDIS_REPLY_ERROR: out.type = kind::error; break;
    case REDIS_REPLY_ARRAY:
        out.type = kind::array;
        out.elements.reserve(r.elements);
        for (std::size_t i = 0; i < r.elements; ++i) out.elements.push_back(copy_of(*r.element[i]));
        break;
    default: out.type = kind::nil; break;
    }
    if (r.str && out.type != kind::array) out.text.assign(r.str, r.len);
    return out;
}

} // namespace quarto::server::cluster
