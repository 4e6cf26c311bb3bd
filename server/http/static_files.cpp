#include "http/static_files.hpp"


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
    if (web_root.empty() || path.empty() || path[0] != '/' || path.find("..") != std::string_view::npos ||
        path.find('\\') != std::string_view::npos || path.find('\0') != std::string_view::npos)
        return std::nullopt;
    std::string file = web_root + std::string{path};
    if (path.back() == '/') file += "index.html";
    return file;
}

} // namespace quarto::server::http
