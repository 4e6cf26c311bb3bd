#include "http/static_cache.hpp"

#include <array>
#include <fstream>
#include <iterator>

#include <openssl/evp.h>

#include "http/gzip.hpp"
#include "http/static_files.hpp"

namespace quarto::server::http {
namespace {

bool compressible(std::string_view content_type)
{
    return content_type.starts_with("text/") || content_type.starts_with("application/json") ||
           content_type.starts_with("image/svg+xml");
}

std::string etag_of(std::string_view bytes)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_sha256(), nullptr);
    static constexpr char hex[] = "0123456789abcdef";
    std::string tag = "\"";
    for (unsigned int i = 0; i < 16 && i < length; ++i) { // 128 bits: no two versions collide
        tag += hex[digest[i] >> 4];
        tag += hex[digest[i] & 15];
    }
    return tag + "\"";
}

} // namespace

std::shared_ptr<const static_file> static_cache::find(std::string_view target)
{
    const auto path = static_path(root_, target);
    if (!path) return nullptr;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(*path, ec)) return nullptr;
    const auto modified = std::filesystem::last_write_time(*path, ec);
    const auto size = ec ? 0 : std::filesystem::file_size(*path, ec);
    if (ec) return nullptr;
    std::lock_guard lock{mutex_};
    if (const auto it = files_.find(*path); it != files_.end() && it->second.modified == modified && it->second.size == size)
        return it->second.file;
    auto file = load(*path);
    if (file) files_.insert_or_assign(*path, entry{modified, size, file});
    else files_.erase(*path);
    return file;
}

std::shared_ptr<const static_file> static_cache::load(const std::string& path)
{
    std::ifstream in{path, std::ios::binary};
    if (!in) return nullptr;
    auto file = std::make_shared<static_file>();
    file->identity.assign(std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{});
    if (in.bad()) return nullptr;
    file->content_type = std::string{mime_type(path)};
    file->etag = etag_of(file->identity);
    if (compressible(file->content_type)) {
        auto packed = gzip(file->identity);
        if (packed && packed->size() < file->identity.size()) file->gzipped = std::move(*packed);
    }
    return file;
}

} // namespace quarto::server::http
