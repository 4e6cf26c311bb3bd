// One plain HTTP/1.1 GET on the soak's io_context (for /metrics), with a deadline: a server
// too busy to answer in 5 s is itself a finding.
#pragma once

#include <functional>
#include <string>

#include "ws_client.hpp"

namespace quarto::chaos {

// `done(ok, body)`: ok is false on any failure or a status other than 200.
void http_get(net::io_context& io, const endpoint_settings& where, const std::string& path,
              std::function<void(bool, std::string)> done);

} // namespace quarto::chaos
