// The browser client's files, kept in memory with their gzip form and a strong ETag, so that a
// repeat visit costs a 304 per file and a first one the compressed bytes. A file is read again
// when its size or modification time changes on disk (a deploy, a developer's edit); the cache
// holds at most what the web root holds. Any thread may ask (one mutex; files are few).
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace quarto::server::http {

struct static_file {
    std::string content_type;
    std::string etag;     // "\"" + 32 hex digits of the content's SHA-256 + "\""
    std::string identity; // the bytes as on disk
    std::string gzipped;  // empty when compressing would not pay (or the type is compressed already)
};

class static_cache {
public:
    explicit static_cache(std::string web_root) : root_{std::move(web_root)} {}

    // The file the request target names (its query and fragment ignored; "/" and "dir/" name
    // index.html), or null when there is none to serve: missing, not a regular file, or a path
    // that could leave the web root.
    std::shared_ptr<const static_file> find(std::string_view target);

private:
    struct entry {
        std::filesystem::file_time_type modified;
        std::uintmax_t size = 0;
        std::shared_ptr<const static_file> file;
    };
    std::shared_ptr<const static_file> load(const std::string& path);

    const std::string root_;
    std::mutex mutex_;
    std::unordered_map<std::string, entry> files_;
};

} // namespace quarto::server::http
