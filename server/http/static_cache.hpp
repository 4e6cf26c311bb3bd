// The browser client's files, kept in memory with their gzip form and a strong ETag, so that a
// first visit costs the compressed bytes and a repeat one only the page's revalidation: pages
// name the other files under a version of the whole web root (static_versions.hpp), and those
// addresses may be kept for a year. A file is read again when its size or modification time
// changes on disk (a deploy, a developer's edit), and the version with it; the cache holds at
// most what the web root holds. Any thread may ask (a mutex or two; files are few).
//
// Targets under /javascript/ are served from a second root, Debian's libraries for browsers
// (/usr/share/javascript, as its javascript-common serves them): their files are not the
// client's, so they are no part of its version and are revalidated rather than kept a year.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace quarto::server::http {

struct static_file {
    std::string content_type;
    std::string etag;     // "\"" + 32 hex digits of the content's SHA-256 + "\""
    std::string identity; // the bytes as on disk
    std::string gzipped;  // empty when compressing would not pay (or the type is compressed already)
};

// What a request for a file gets: the file (null: 404), and whether it may be kept for a year.
struct static_answer {
    std::shared_ptr<const static_file> file;
    bool immutable = false; // named under the web root's current version
};

class static_cache {
public:
    // An empty `javascript_root`: nothing is served under /javascript/.
    explicit static_cache(std::string web_root, std::string javascript_root = {})
        : root_{std::move(web_root)}, javascript_root_{std::move(javascript_root)}
    {
    }

    // The file the request target names (its query and fragment ignored; "/" and "dir/" name
    // index.html), or null when there is none to serve: missing, not a regular file, or a path
    // that could leave the web root.
    std::shared_ptr<const static_file> find(std::string_view target);

    // What to answer to a GET of `target`: a file under /v/<version>/ is the file itself,
    // immutable while that version is the current one (an older page's request gets today's
    // file, to revalidate); a page (HTML) comes with its files' addresses versioned; any other
    // file as find() has it.
    static_answer serve(std::string_view target);

    // 16 hex digits of a hash over every file's path and content but the pages': the same
    // until a file is added, removed or changed. The web root is looked at (its files' sizes
    // and times) on every call.
    std::string version();

private:
    struct entry {
        std::filesystem::file_time_type modified;
        std::uintmax_t size = 0;
        std::shared_ptr<const static_file> file;
    };
    struct stamp {
        std::string target;
        std::filesystem::file_time_type modified;
        std::uintmax_t size = 0;
        bool operator==(const stamp&) const = default;
    };
    struct page {
        std::string version;
        std::shared_ptr<const static_file> source; // the file as find() had it
        std::shared_ptr<const static_file> file;   // with versioned addresses
    };
    std::optional<std::string> path_of(std::string_view target) const;
    std::shared_ptr<const static_file> load(const std::string& path);
    std::shared_ptr<const static_file> versioned_page(std::string_view target, std::shared_ptr<const static_file> source);

    const std::string root_;
    const std::string javascript_root_;
    std::mutex mutex_;
    std::unordered_map<std::string, entry> files_;

    std::mutex version_mutex_; // taken before mutex_, never after
    std::vector<stamp> stamps_; // the web root when version_ was computed
    std::string version_;
    std::unordered_map<std::string, page> pages_; // by target
};

} // namespace quarto::server::http
