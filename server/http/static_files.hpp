// Where a request target's file is under the web root, refusing any path that could leave it;
// and the Content-Type of a file by its extension.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace quarto::server::http {

// The file path `target` names (e.g. "/js/app.js"; its query and fragment ignored; a path
// ending in '/' names its index.html), or nullopt for a target with "..", '\\' or NUL, or not
// starting with '/'. Whether the file exists is not checked.
std::optional<std::string> static_path(const std::string& web_root, std::string_view target);
std::string_view mime_type(std::string_view path);

} // namespace quarto::server::http
