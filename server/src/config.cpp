#include "config.hpp"

#include <charconv>
#include <optional>
#include <thread>

namespace quarto::server {
namespace {

template <class Number>
std::optional<Number> number(const std::string& text)
{
    Number value{};
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end) return std::nullopt;
    return value;
}

} // namespace

std::string usage_text()
{
    return R"(Usage: quarto-server [options]
  --host ADDR                  address to listen on (default 0.0.0.0)
  --port N                     port; 0 picks a free one (default 8080)
  --threads N                  I/O threads (default: number of cores)
  --web-root DIR               the browser client's files (default: the source tree's web/)
  --log-level LEVEL            trace, debug, info, warn, error, critical, off (default info)
  --max-message-bytes N        largest WebSocket message accepted (default 4096)
  --rate-limit N               messages per second per connection (default 20)
  --rate-burst N               messages a connection may send at once (default 40)
  --room-idle-seconds N        reclaim finished or deserted rooms idle this long (default 600)
  --max-connections-per-address N   cap per client address; 0 = off (default 0)
  --db PATH                    the SQLite file that archives finished games; it and its
                               directory are created if missing (default data/quarto.db)
  --help                       this text
)";
}

std::variant<config, usage_request, config_error> parse_command_line(const std::vector<std::string>& args)
{
    config c;
#ifdef QUARTO_DEFAULT_WEB_ROOT
    c.web_root = QUARTO_DEFAULT_WEB_ROOT;
#endif
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string flag = args[i];
        std::optional<std::string> value;
        if (const auto eq = flag.find('='); eq != std::string::npos) {
            value = flag.substr(eq + 1);
            flag.resize(eq);
        }
        if (flag == "--help" || flag == "-h") return usage_request{};
        if (!value) {
            if (i + 1 >= args.size()) return config_error{flag + " needs a value"};
            value = args[++i];
        }
        const auto bad = [&](std::string_view what) { return config_error{flag + ": " + std::string{what} + ", got '" + *value + "'"}; };

        if (flag == "--host") {
            if (value->empty()) return bad("an address is required");
            c.host = *value;
        } else if (flag == "--port") {
            const auto n = number<unsigned>(*value);
            if (!n || *n > 65535) return bad("a port number 0..65535 is required");
            c.port = static_cast<std::uint16_t>(*n);
        } else if (flag == "--threads") {
            const auto n = number<unsigned>(*value);
            if (!n || *n > 256) return bad("a thread count 0..256 is required");
            c.threads = *n;
        } else if (flag == "--web-root") {
            c.web_root = *value;
        } else if (flag == "--log-level") {
            const auto level = spdlog::level::from_str(*value);
            if (level == spdlog::level::off && *value != "off") return bad("a log level is required");
            c.log_level = level;
        } else if (flag == "--max-message-bytes") {
            const auto n = number<std::size_t>(*value);
            if (!n || *n < 64 || *n > (16u << 20)) return bad("a size 64..16777216 is required");
            c.max_message_bytes = *n;
        } else if (flag == "--rate-limit" || flag == "--rate-burst") {
            const auto n = number<double>(*value);
            if (!n || !(*n > 0) || *n > 1e9) return bad("a positive number is required");
            (flag == "--rate-limit" ? c.rate_limit : c.rate_burst) = *n;
        } else if (flag == "--room-idle-seconds") {
            const auto n = number<unsigned>(*value);
            if (!n || *n < 1) return bad("a number of seconds >= 1 is required");
            c.room_idle = std::chrono::seconds{*n};
        } else if (flag == "--max-connections-per-address") {
            const auto n = number<std::size_t>(*value);
            if (!n) return bad("a count is required");
            c.max_connections_per_address = *n;
        } else if (flag == "--db") {
            if (value->empty()) return bad("a file path is required");
            c.db_path = *value;
        } else {
            return config_error{"unknown option " + flag};
        }
    }
    if (c.threads == 0) c.threads = std::max(1u, std::thread::hardware_concurrency());
    return c;
}

} // namespace quarto::server
