// Builds HTTP responses for files under the web root, refusing any path that leaves it.
#pragma once

#include <string>

#include "net/asio.hpp"

namespace quarto::server::http {

// Response for GET/HEAD `target` (e.g. "/js/app.js"); "/" serves index.html.
beast::http::response<beast::http::file_body> serve_file(const std::string& web_root, std::string_view target, unsigned version,
                                           bool keep_alive, beast::error_code& not_found);

} // namespace quarto::server::http
