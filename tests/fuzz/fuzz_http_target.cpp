// An HTTP request as http_session::serve reads it from outside: the target, routed to the
// paging of /api/rooms and /api/tournaments (page_of), to /api/games (route_games_api), to
// /api/analysis (route_analysis_api: whatever it accepts is a position the solver may be given)
// and to the web root's files (static_path, static_cache::find); and the same bytes as the
// Accept-Encoding and If-None-Match values a static file's answer depends on.
// The files are served from a small web root made in /tmp at start, beside a file that must
// never be served; a file found is checked by its bytes, so the check does not repeat the
// resolver's logic. (The /api/tournaments/{id} route hands the rest of the path to a lookup
// inside the session, and /metrics and /healthz are fixed strings: not reachable from here.)
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "check.hpp"
#include "http/analysis_api.hpp"
#include "http/content_negotiation.hpp"
#include "http/games_api.hpp"
#include "http/query_string.hpp"
#include "http/static_cache.hpp"
#include "http/static_files.hpp"
#include "quarto/archive/store.hpp"

using namespace quarto::server;
namespace fs = std::filesystem;

namespace {

std::string web_root; // canonical, without a trailing '/'
std::map<std::string, bool> servable; // file contents -> may be served
http::static_cache* cache = nullptr;  // one for the run, as the server keeps one

// Removes the directory made at start when a run ends normally (libFuzzer calls exit()).
struct temporary_directory {
    fs::path path;
    ~temporary_directory()
    {
        std::error_code ignored;
        if (!path.empty()) fs::remove_all(path, ignored);
    }
} made;

void write_file(const fs::path& path, const std::string& text, bool under_root)
{
    std::ofstream{path} << text;
    servable[text] = under_root;
}

void check_games_request(const http::games_request& request)
{
    if (const auto* g = std::get_if<http::game_lookup>(&request))
        FUZZ_CHECK(!g->id.empty() && g->id.size() <= 64 && g->id.find('/') == std::string::npos);
    if (const auto* a = std::get_if<http::game_analysis_lookup>(&request))
        FUZZ_CHECK(!a->id.empty() && a->id.size() <= 64 && a->id.find('/') == std::string::npos);
    if (const auto* p = std::get_if<http::player_games>(&request)) {
        FUZZ_CHECK(!p->player.empty() && p->player.size() <= 32 && p->player.front() != ' ' && p->player.back() != ' ');
        FUZZ_CHECK(p->limit >= 1 && p->limit <= quarto::archive::max_games_per_query);
        (void)nlohmann::json(p->player).dump(); // throws (and so fails) on invalid UTF-8
    }
    if (const auto* refusal = std::get_if<http::api_refusal>(&request))
        FUZZ_CHECK(nlohmann::json::accept(http::api_error_body(refusal->code, refusal->message)));
}

// The solver's precondition holds for every position let through, and a refusal is JSON.
void check_analysis_request(const http::analysis_request& request)
{
    if (const auto* p = std::get_if<http::position_analysis_request>(&request)) {
        FUZZ_CHECK(quarto::solver::check(p->at) == quarto::solver::position_problem::none);
        FUZZ_CHECK(!p->game_rules.attributes.empty() && !p->at.callable);
        return;
    }
    const auto& refusal = std::get<http::api_refusal>(request);
    FUZZ_CHECK(refusal.code == "bad_request" && !refusal.message.empty());
    FUZZ_CHECK(nlohmann::json::accept(http::api_error_body(refusal.code, refusal.message)));
}

void check_static(std::string_view target)
{
    if (const auto path = http::static_path(web_root, target)) {
        FUZZ_CHECK(path->starts_with(web_root + "/") && path->find('\0') == std::string::npos);
        for (const auto& part : fs::path{path->substr(web_root.size())}) FUZZ_CHECK(part != "..");
    }
    const auto file = cache->find(target);
    if (!file) return;
    const auto known = servable.find(file->identity);
    FUZZ_CHECK(known != servable.end() && known->second); // a file of the web root, never the one beside it
    FUZZ_CHECK(file->etag.size() == 34 && http::etag_matches(file->etag, file->etag));
    FUZZ_CHECK(file->gzipped.empty() || file->gzipped.size() < file->identity.size());
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    char dir_template[] = "/tmp/quarto-fuzz-http-XXXXXX";
    const char* dir = mkdtemp(dir_template);
    FUZZ_CHECK(dir != nullptr);
    const fs::path top = fs::canonical(dir);
    made.path = top;
    fs::create_directories(top / "web" / "js");
    fs::create_directories(top / "web" / "empty");
    write_file(top / "web" / "index.html", "<!doctype html><title>Quarto</title>" + std::string(200, ' '), true);
    write_file(top / "web" / "js" / "app.js", "export {};", true);
    write_file(top / "web" / "style.css", "body{}", true);
    write_file(top / "secret.txt", "outside the web root", false);
    web_root = (top / "web").string();
    cache = new http::static_cache{web_root}; // lives as long as the process
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view target{reinterpret_cast<const char*>(data), size};
    // Split as http_session::serve does.
    const auto q = target.find('?');
    const std::string_view path = target.substr(0, q);
    const std::string_view query = q == std::string_view::npos ? std::string_view{} : target.substr(q + 1);

    const auto page = http::page_of(query);
    if (const auto* p = std::get_if<quarto::protocol::page_request>(&page))
        FUZZ_CHECK(p->offset >= 0 && p->limit >= 1 && p->limit <= quarto::protocol::max_page_size);
    else
        FUZZ_CHECK(nlohmann::json::accept(http::api_error_body("bad_request", std::get<std::string>(page))));
    if (const auto games = http::route_games_api(path, query)) check_games_request(*games);
    if (const auto analysis = http::route_analysis_api(path, query)) check_analysis_request(*analysis);
    // Any query at /api/analysis, whatever the path said.
    const auto at_analysis = http::route_analysis_api("/api/analysis", query);
    FUZZ_CHECK(at_analysis.has_value());
    check_analysis_request(*at_analysis);
    check_static(target);

    // The same bytes as header values; a list that ends with the tag matches it, whatever
    // comes before.
    (void)http::accepts_gzip(target);
    const std::string etag = "\"0123456789abcdef0123456789abcdef\"";
    (void)http::etag_matches(target, etag);
    FUZZ_CHECK(http::etag_matches(std::string{target} + ", W/" + etag, etag));
    return 0;
}
