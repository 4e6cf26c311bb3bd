#include "http/gzip.hpp"

#include <zlib.h>

namespace quarto::server::http {

std::optional<std::string> gzip(std::string_view bytes)
{
    z_stream z{};
    // 15 + 16: the largest window, with a gzip header and trailer instead of zlib's.
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return std::nullopt;
    std::string out(deflateBound(&z, static_cast<uLong>(bytes.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data())); // zlib's API is not const
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int result = deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    if (result != Z_STREAM_END) return std::nullopt;
    return out;
}

} // namespace quarto::server::http
