// An HTTP request target, as http_session routes it: /api/games (route_games_api) and then the
// static files (serve_file). The static files are served from a small web root made at start,
// beside a file that must never be served; whatever serve_file opens is checked through the
// kernel's own name for the open file, so the check does not repeat the resolver's logic.
// (The other routes of http_session compare the path with fixed strings or read no more of
// it than an id handed to a lookup; they are not reachable without a session.)
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "check.hpp"
#include "http/games_api.hpp"
#include "http/static_files.hpp"
#include "quarto/archive/archive_store.hpp"

using namespace quarto::server;
namespace fs = std::filesystem;

namespace {

std::string web_root; // canonical, without a trailing '/'

void write_file(const fs::path& path, std::string_view text) { std::ofstream{path} << text; }

void check_games_request(const http::games_request& request)
{
    if (const auto* g = std::get_if<http::game_lookup>(&request))
        FUZZ_CHECK(!g->id.empty() && g->id.size() <= 64 && g->id.find('/') == std::string::npos);
    if (const auto* p = std::get_if<http::player_games>(&request)) {
        FUZZ_CHECK(!p->player.empty() && p->player.size() <= 32 && p->player.front() != ' ' && p->player.back() != ' ');
        FUZZ_CHECK(p->limit >= 1 && p->limit <= quarto::archive::max_games_per_query);
        (void)nlohmann::json(p->player).dump(); // throws (and so fails) on invalid UTF-8
    }
    if (const auto* refusal = std::get_if<http::api_refusal>(&request))
        FUZZ_CHECK(nlohmann::json::accept(http::api_error_body(refusal->code, refusal->message)));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    char dir_template[] = "/tmp/quarto-fuzz-http-XXXXXX";
    const char* dir = mkdtemp(dir_template);
    FUZZ_CHECK(dir != nullptr);
    const fs::path top = fs::canonical(dir);
    fs::create_directories(top / "web" / "js");
    fs::create_directories(top / "web" / "empty");
    write_file(top / "web" / "index.html", "<!doctype html>");
    write_file(top / "web" / "js" / "app.js", "export {};");
    write_file(top / "web" / "style.css", "body{}");
    write_file(top / "secret.txt", "outside the web root");
    web_root = (top / "web").string();
    // Left behind on purpose: libFuzzer ends with _exit(); the files are a few bytes in /tmp.
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view target{reinterpret_cast<const char*>(data), size};
    // Split as http_session::on_read does.
    const auto q = target.find('?');
    const std::string_view path = target.substr(0, q);
    const std::string_view query = q == std::string_view::npos ? std::string_view{} : target.substr(q + 1);
    if (const auto games = http::route_games_api(path, query)) check_games_request(*games);

    beast::error_code not_found;
    auto response = http::serve_file(web_root, target, 11, true, not_found);
    if (not_found) return 0;
    const int fd = response.body().file().native_handle();
    const fs::path opened = fs::read_symlink("/proc/self/fd/" + std::to_string(fd));
    FUZZ_CHECK(opened.string().starts_with(web_root + "/") && fs::is_regular_file(opened));
    return 0;
}
