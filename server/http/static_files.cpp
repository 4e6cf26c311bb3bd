#include "http/static_files.hpp"

#include <filesystem>

namespace quarto::server::http {

std::string_view mime_type(std::string_view path)
{
    const auto dot = path.rfind('.');
    const std::string_view ext = dot == std::string_view::npos ? std::string_view{} : path.substr(dot);
    if (ext == ".html") return "text/html; charset=utf-8";
    if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
    if (ext == ".css") return "text/css; charset=utf-8";
    if (ext == ".svg") return "image/svg+xml";
    if (ext == ".png") return "image/png";
    if (ext == ".ico") return "image/x-icon";
    if (ext == ".json") return "application/json";
    if (ext == ".txt") return "text/plain; charset=utf-8";
    return "application/octet-stream";
}

std::optional<std::string> static_path(const std::string& web_root, std::string_view target)
{
    std::string_view path = target.substr(0, target.find_first_of("?#"));
    if (path.empty() || path[0] != '/' || path.find("..") != std::string_view::npos ||
        path.find('\\') != std::string_view::npos || path.find('\0') != std::string_view::npos)
        return std::nullopt;
    std::string file = web_root + std::string{path};
    if (path.back() == '/') file += "index.html";
    return file;
}

beast::http::response<beast::http::file_body> serve_file(const std::string& web_root, std::string_view target, unsigned version,
                                           bool keep_alive, beast::error_code& not_found)
{
    const auto resolved = static_path(web_root, target);
    if (!resolved) { // anything that could climb out of the web root
        not_found = beast::errc::make_error_code(beast::errc::invalid_argument);
        return {};
    }
    const std::string& file = *resolved;
    // A directory opens as a file too, and then cannot be read.
    std::error_code kind_unknown;
    if (!std::filesystem::is_regular_file(file, kind_unknown)) {
        not_found = beast::errc::make_error_code(beast::errc::no_such_file_or_directory);
        return {};
    }

    beast::http::file_body::value_type body;
    body.open(file.c_str(), beast::file_mode::scan, not_found);
    if (not_found) return {};

    beast::http::response<beast::http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                        std::make_tuple(beast::http::status::ok, version)};
    res.set(beast::http::field::server, "quarto-server");
    res.set(beast::http::field::content_type, mime_type(file));
    res.set(beast::http::field::cache_control, "no-cache");
    res.keep_alive(keep_alive);
    res.prepare_payload();
    return res;
}

} // namespace quarto::server::http
