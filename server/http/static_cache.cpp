#include "http/static_cache.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>

#include <openssl/evp.h>

#include "http/gzip.hpp"
#include "http/static_files.hpp"
#include "http/static_versions.hpp"

namespace quarto::server::http {
namespace {

bool compressible(std::string_view content_type)
{
    return content_type.starts_with("text/") || content_type.starts_with("application/json") ||
           content_type.starts_with("image/svg+xml");
}

// The first `bytes_wanted` bytes of the SHA-256 of `bytes`, in hex.
std::string sha256_hex(std::string_view bytes, unsigned int bytes_wanted)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_sha256(), nullptr);
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < bytes_wanted && i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 15];
    }
    return out;
}

std::string etag_of(std::string_view bytes)
{
    return "\"" + sha256_hex(bytes, 16) + "\""; // 128 bits: no two versions collide
}

bool is_page(std::string_view content_type) { return content_type.starts_with("text/html"); }

constexpr std::string_view javascript_prefix = "/javascript/";

std::shared_ptr<static_file> make_file(std::string content_type, std::string bytes)
{
    auto file = std::make_shared<static_file>();
    file->content_type = std::move(content_type);
    file->identity = std::move(bytes);
    file->etag = etag_of(file->identity);
    if (compressible(file->content_type)) {
        auto packed = gzip(file->identity);
        if (packed && packed->size() < file->identity.size()) file->gzipped = std::move(*packed);
    }
    return file;
}

} // namespace

std::optional<std::string> static_cache::path_of(std::string_view target) const
{
    if (target.starts_with(javascript_prefix)) {
        if (javascript_root_.empty()) return std::nullopt;
        return static_path(javascript_root_, target.substr(javascript_prefix.size() - 1));
    }
    return static_path(root_, target);
}

std::shared_ptr<const static_file> static_cache::find(std::string_view target)
{
    const auto path = path_of(target);
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
    std::string bytes{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
    if (in.bad()) return nullptr;
    return make_file(std::string{mime_type(path)}, std::move(bytes));
}

static_answer static_cache::serve(std::string_view target)
{
    if (const auto versioned = split_versioned(target)) {
        auto file = find(versioned->target);
        if (!file) return {};
        return {std::move(file), versioned->version == version()};
    }
    auto file = find(target);
    if (!file || !is_page(file->content_type) || target.starts_with(javascript_prefix)) return {std::move(file), false};
    return {versioned_page(target, std::move(file)), false};
}

std::string static_cache::version()
{
    namespace fs = std::filesystem;
    const fs::path root{root_};
    std::vector<stamp> now;
    std::error_code ec;
    for (fs::recursive_directory_iterator it{root, fs::directory_options::skip_permission_denied, ec}, end;
         !ec && it != end; it.increment(ec)) {
        std::error_code file_error;
        if (!it->is_regular_file(file_error) || is_page(mime_type(it->path().native()))) continue;
        const auto modified = fs::last_write_time(it->path(), file_error);
        const auto size = file_error ? 0 : fs::file_size(it->path(), file_error);
        if (file_error) continue; // gone meanwhile
        now.push_back({"/" + it->path().lexically_relative(root).generic_string(), modified, size});
    }
    std::sort(now.begin(), now.end(), [](const stamp& a, const stamp& b) { return a.target < b.target; });

    std::lock_guard lock{version_mutex_};
    if (!version_.empty() && now == stamps_) return version_;
    std::string listing;
    for (const auto& s : now) {
        const auto file = find(s.target);
        listing.append(s.target).append(1, '\0').append(file ? file->etag : "-").append(1, '\n');
    }
    stamps_ = std::move(now);
    version_ = sha256_hex(listing, 8);
    return version_;
}

std::shared_ptr<const static_file> static_cache::versioned_page(std::string_view target,
                                                                std::shared_ptr<const static_file> source)
{
    namespace fs = std::filesystem;
    const std::string v = version();
    // Keyed by the file, not the target: "/", "//" and "/index.html" are one page.
    const auto path = static_path(root_, target);
    const fs::path file = fs::path{*path}.lexically_normal();
    const std::string dir = file.parent_path().lexically_relative(fs::path{root_}.lexically_normal()).generic_string();
    const std::string folder = dir.empty() || dir == "." ? std::string{} : dir + "/";

    std::lock_guard lock{version_mutex_};
    page& p = pages_[file.string()];
    if (p.version != v || p.source != source) {
        const auto exists = [&](std::string_view own) {
            const auto named = static_path(root_, own);
            std::error_code ec;
            return named && fs::is_regular_file(*named, ec);
        };
        p = page{v, source, make_file(source->content_type, with_versioned_urls(source->identity, v, folder, exists))};
    }
    return p.file;
}

} // namespace quarto::server::http
