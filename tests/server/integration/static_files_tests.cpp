// The browser client's files over HTTP: gzip when the client takes it, a strong ETag, 304 for a
// file the client has, a new ETag when the file changes; and what a visit weighs on the wire.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <zlib.h>

#include "helpers.hpp"

using namespace quarto_test;
namespace fs = std::filesystem;

namespace {

std::string gunzip(const std::string& packed)
{
    z_stream z{};
    REQUIRE(inflateInit2(&z, 15 + 16) == Z_OK);
    std::string out(packed.size() * 20 + 1024, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
    z.avail_in = static_cast<uInt>(packed.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int result = inflate(&z, Z_FINISH);
    out.resize(z.total_out);
    inflateEnd(&z);
    CHECK(result == Z_STREAM_END);
    return out;
}

struct web_root {
    fs::path dir;
    web_root()
    {
        std::string pattern = (fs::temp_directory_path() / "quarto-web-XXXXXX").string();
        REQUIRE(::mkdtemp(pattern.data()));
        dir = pattern;
        fs::create_directories(dir / "js");
    }
    ~web_root() { fs::remove_all(dir); }
    void write(const std::string& name, const std::string& text) const { std::ofstream{dir / name, std::ios::binary} << text; }
};

std::string script(int variant)
{
    std::string text;
    for (int i = 0; i < 200; ++i) text += "export const line" + std::to_string(i) + " = 'v" + std::to_string(variant) + "';\n";
    return text;
}

std::string read_text(const fs::path& file)
{
    std::ifstream in{file, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

// Every `PREFIX...` value up to its closing quote: the files named by tags written one way.
std::vector<std::string> attribute_values(const std::string& text, const std::string& prefix)
{
    std::vector<std::string> values;
    for (auto at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
        const auto begin = at + prefix.size();
        values.push_back(text.substr(begin, text.find('"', begin) - begin));
    }
    return values;
}

// `entry` and every module it imports, directly or not, with a static `import ... from './x.js'`
// (or `export ... from`, or `import './x.js'`) at the start of a line; import() is not followed.
std::vector<std::string> static_imports(const fs::path& dir, const std::string& entry)
{
    std::vector<std::string> found{entry};
    for (std::size_t i = 0; i < found.size(); ++i) {
        std::istringstream lines{read_text(dir / found[i])};
        std::string statement, line;
        bool open = false; // inside a statement that began with import/export and has not ended
        while (std::getline(lines, line)) {
            if (!open && line.rfind("import ", 0) != 0 && line.rfind("export ", 0) != 0) continue;
            statement = open ? statement + line : line;
            open = statement.find(';') == std::string::npos;
            if (open) continue;
            const auto quote = statement.find("'./");
            if (quote == std::string::npos || statement.find("import(") != std::string::npos) continue;
            const std::string file = statement.substr(quote + 3, statement.find('\'', quote + 3) - quote - 3);
            if (std::find(found.begin(), found.end(), file) == found.end()) found.push_back(file);
        }
    }
    return found;
}

} // namespace

TEST_CASE("static files: gzip when accepted, a strong ETag, and 304 for the version the client has")
{
    web_root root;
    root.write("index.html", "<!doctype html><title>t</title>");
    root.write("js/app.js", script(1));
    root.write("pixel.png", std::string(300, 'a'));
    server_process server{{"--web-root", root.dir.string()}};

    const auto plain = http_get(server.port(), "/js/app.js");
    CHECK(plain.status == 200);
    CHECK(plain.body == script(1));
    CHECK(plain.header("Content-Encoding").empty());
    const std::string etag = plain.header("ETag");
    REQUIRE(etag.size() == 34);
    CHECK(etag.front() == '"');
    CHECK(plain.header("Cache-Control") == "no-cache");
    CHECK(plain.header("Vary") == "Accept-Encoding");

    const auto packed = http_get(server.port(), "/js/app.js", {{"Accept-Encoding", "br, gzip;q=0.8"}});
    CHECK(packed.status == 200);
    CHECK(packed.header("Content-Encoding") == "gzip");
    CHECK(packed.header("ETag") == etag); // one representation's tag: the content is the same
    CHECK(packed.body.size() < plain.body.size() / 4);
    CHECK(gunzip(packed.body) == script(1));
    CHECK(http_get(server.port(), "/js/app.js", {{"Accept-Encoding", "gzip;q=0, identity"}}).header("Content-Encoding").empty());

    for (const std::string& tag : {etag, "W/" + etag, "\"other\", " + etag, std::string{"*"}}) {
        CAPTURE(tag);
        const auto again = http_get(server.port(), "/js/app.js", {{"If-None-Match", tag}, {"Accept-Encoding", "gzip"}});
        CHECK(again.status == 304);
        CHECK(again.body.empty());
        CHECK(again.header("ETag") == etag);
    }
    CHECK(http_get(server.port(), "/js/app.js", {{"If-None-Match", "\"stale\""}}).status == 200);

    // A changed file gets a new tag, and the old one no longer answers 304.
    root.write("js/app.js", script(2) + "// longer\n");
    const auto changed = http_get(server.port(), "/js/app.js", {{"If-None-Match", etag}});
    CHECK(changed.status == 200);
    CHECK(changed.body == script(2) + "// longer\n");
    CHECK(changed.header("ETag") != etag);

    // A PNG is not compressed again; a missing file is still 404.
    CHECK(http_get(server.port(), "/pixel.png", {{"Accept-Encoding", "gzip"}}).header("Content-Encoding").empty());
    CHECK(http_get(server.port(), "/js/gone.js").status == 404);
    CHECK(http_get(server.port(), "/js").status == 404);
}

TEST_CASE("static files: the lobby's first visit and a repeat visit, in bytes on the wire")
{
    server_process server; // the real web root
    const fs::path web = fs::path{QUARTO_WEB_ROOT};
    // What the lobby loads: the page, its style sheet, main.js and every module it imports
    // statically (the views imported with import() load when first shown).
    const std::string page = read_text(web / "index.html");
    const std::vector<std::string> graph = static_imports(web / "js", "main.js");
    REQUIRE(graph.size() > 5);
    std::vector<std::string> preloaded = attribute_values(page, "<link rel=\"modulepreload\" href=\"js/");
    std::vector<std::string> imported(graph.begin() + 1, graph.end()); // main.js has the script tag
    std::sort(preloaded.begin(), preloaded.end());
    std::sort(imported.begin(), imported.end());
    CHECK(preloaded == imported); // fetched at once, not as the imports are found
    for (const std::string lazy : {"game.js", "tournament.js", "replay.js", "rules.js", "qr.js"})
        CHECK(std::find(graph.begin(), graph.end(), lazy) == graph.end());

    std::vector<std::string> targets{"/", "/style.css"};
    for (const auto& f : graph) targets.push_back("/js/" + f);
    std::size_t first = 0, repeat = 0;
    http_connection browser{server.port()};
    for (const auto& target : targets) {
        CAPTURE(target);
        const auto r = browser.get(target, {{"Accept-Encoding", "gzip, deflate, br"}});
        REQUIRE(r.status == 200);
        first += r.wire_bytes;
        const auto again = browser.get(target, {{"Accept-Encoding", "gzip, deflate, br"}, {"If-None-Match", r.header("ETag")}});
        CHECK(again.status == 304);
        repeat += again.wire_bytes;
    }
    MESSAGE(targets.size() << " files: first visit " << first << " bytes, repeat visit " << repeat << " bytes");
    CHECK(first < 80 * 1024);
    CHECK(repeat < 5 * 1024);

    // Every other module is served the same way when a view asks for it.
    for (const auto& f : fs::directory_iterator(web / "js")) {
        if (f.path().extension() != ".js") continue;
        CAPTURE(f.path().filename().string());
        const auto r = browser.get("/js/" + f.path().filename().string(), {{"Accept-Encoding", "gzip"}});
        CHECK(r.status == 200);
        CHECK(r.header("Content-Encoding") == "gzip");
        CHECK_FALSE(r.header("ETag").empty());
    }
}

TEST_CASE("static files: a --web-root that is not a directory stops the server at start, with exit code 1")
{
    const auto [status, output] =
        run_to_exit({"--host", "127.0.0.1", "--port", "0", "--web-root", "/nonexistent/quarto-web"});
    REQUIRE(status);
    CHECK(WEXITSTATUS(*status) == 1);
    CHECK_MESSAGE(output.find("cannot serve --web-root /nonexistent/quarto-web") != std::string::npos, output);
    CHECK_MESSAGE(output.find("listening on") == std::string::npos, output);
}

TEST_CASE("http: a request whose headers or target are too large gets 431, not a reset")
{
    server_process server;
    const http_response big_header = http_get(server.port(), "/", header_list{{"X-Big", std::string(20000, 'a')}});
    CHECK(big_header.status == 431);
    CHECK(big_header.body == "The request's headers are too large.\n");
    const http_response big_target = http_get(server.port(), "/?" + std::string(20000, 'q'));
    CHECK(big_target.status == 431);
    CHECK(http_get(server.port(), "/healthz").status == 200); // and the server goes on
}

namespace {

// The version in the first "/v/<version>/" of `page`; empty when there is none.
std::string version_in(const std::string& page)
{
    const auto at = page.find("\"/v/");
    if (at == std::string::npos) return {};
    return page.substr(at + 4, page.find('/', at + 4) - at - 4);
}

} // namespace

TEST_CASE("static files: a page names its files under the web root's version, and those are kept for a year")
{
    web_root root;
    root.write("index.html", "<!doctype html><link rel=\"stylesheet\" href=\"style.css\">\n"
                             "<link rel=\"icon\" href=\"favicon.svg\" type=\"image/svg+xml\">\n"
                             "<script type=\"module\" src=\"js/main.js\"></script>\n"
                             "<link rel=\"modulepreload\" href=\"js/app.js\"><link rel=\"modulepreload\" href=\"js/gone.js\">\n"
                             "<a href=\"#/rules\">rules</a> <a href=\"/api/rooms\">rooms</a> <img src=\"data:,\" alt=\"\">"
                             " <a href=\"https://example.org/style.css\">x</a> <p data-href=\"style.css\">");
    root.write("style.css", "body { color: red }");
    root.write("favicon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
    root.write("js/main.js", "import './app.js';\n");
    root.write("js/app.js", script(1));
    server_process server{{"--web-root", root.dir.string()}};

    const auto page = http_get(server.port(), "/");
    REQUIRE(page.status == 200);
    CHECK(page.header("Cache-Control") == "no-cache"); // the page itself is revalidated
    const std::string v = version_in(page.body);
    REQUIRE(v.size() == 16);
    CHECK(v.find_first_not_of("0123456789abcdef") == std::string::npos);
    const std::string prefix = "/v/" + v + "/";
    for (const std::string& named : {"href=\"" + prefix + "style.css\"", "href=\"" + prefix + "favicon.svg\"",
                                     "src=\"" + prefix + "js/main.js\"", "href=\"" + prefix + "js/app.js\""})
        CHECK_MESSAGE(page.body.find(named) != std::string::npos, named << " in " << page.body);
    // What is not a file of the web root stays as it was.
    for (const std::string kept : {"href=\"js/gone.js\"", "href=\"#/rules\"", "href=\"/api/rooms\"", "src=\"data:,\"",
                                   "href=\"https://example.org/style.css\"", "data-href=\"style.css\""})
        CHECK_MESSAGE(page.body.find(kept) != std::string::npos, kept << " in " << page.body);
    CHECK(http_get(server.port(), "/index.html").body == page.body);
    CHECK(http_get(server.port(), "/", {{"If-None-Match", page.header("ETag")}}).status == 304);

    // Files under the current version: kept for a year; the same bytes as without the prefix.
    for (const std::string file : {"style.css", "favicon.svg", "js/main.js", "js/app.js"}) {
        CAPTURE(file);
        const auto r = http_get(server.port(), prefix + file, {{"Accept-Encoding", "gzip"}});
        CHECK(r.status == 200);
        CHECK(r.header("Cache-Control") == "public, max-age=31536000, immutable");
        const auto plain = http_get(server.port(), "/" + file);
        CHECK(plain.header("Cache-Control") == "no-cache");
        CHECK(r.header("ETag") == plain.header("ETag"));
    }
    CHECK(http_get(server.port(), prefix + "favicon.svg").header("Content-Type") == "image/svg+xml");
    CHECK(http_get(server.port(), prefix + "js/gone.js").status == 404);
    CHECK(http_get(server.port(), "/v/").status == 404);
    CHECK(http_get(server.port(), "/v/" + v).status == 404);
    CHECK(http_get(server.port(), prefix + "../index.html").status == 404);

    // An edit while the server runs reaches the next page load: new addresses for every file,
    // and an older page asking under its old version gets today's file, not to be kept.
    root.write("js/app.js", script(2) + "// edited\n");
    const auto edited = http_get(server.port(), "/", {{"If-None-Match", page.header("ETag")}});
    CHECK(edited.status == 200);
    const std::string v2 = version_in(edited.body);
    REQUIRE(v2.size() == 16);
    CHECK(v2 != v);
    CHECK(edited.header("ETag") != page.header("ETag"));
    const auto fresh = http_get(server.port(), "/v/" + v2 + "/js/app.js");
    CHECK(fresh.body == script(2) + "// edited\n");
    CHECK(fresh.header("Cache-Control") == "public, max-age=31536000, immutable");
    const auto old = http_get(server.port(), prefix + "js/app.js");
    CHECK(old.status == 200);
    CHECK(old.body == script(2) + "// edited\n");
    CHECK(old.header("Cache-Control") == "no-cache");
    // A new file changes the version too; the page's own edits do not.
    root.write("js/new.js", "export const x = 1;\n");
    const std::string v3 = version_in(http_get(server.port(), "/").body);
    CHECK(v3 != v2);
    root.write("index.html", "<!doctype html><script type=\"module\" src=\"js/main.js\"></script><!-- edited -->");
    const auto page3 = http_get(server.port(), "/");
    CHECK(version_in(page3.body) == v3);
    CHECK(page3.body.find("<!-- edited -->") != std::string::npos);
}

TEST_CASE("static files: the client's page names every file under one version, its favicon included")
{
    server_process server; // the real web root
    const auto page = http_get(server.port(), "/", {{"Accept-Encoding", "gzip"}});
    REQUIRE(page.status == 200);
    const std::string body = page.header("Content-Encoding") == "gzip" ? gunzip(page.body) : page.body;
    const std::string v = version_in(body);
    REQUIRE(v.size() == 16);
    // Nothing the page loads is left unversioned (each would cost a request on every visit).
    for (const std::string& attr : {std::string{"src=\""}, std::string{"href=\""}})
        for (const auto& value : attribute_values(body, " " + attr)) {
            CAPTURE(value);
            CHECK((value.starts_with("/v/" + v + "/") || value.starts_with("#")));
        }
    const auto icon = http_get(server.port(), "/v/" + v + "/favicon.svg");
    CHECK(icon.status == 200);
    CHECK(icon.header("Content-Type") == "image/svg+xml");
    CHECK(icon.header("Cache-Control") == "public, max-age=31536000, immutable");
    CHECK(icon.body.find("<svg") != std::string::npos);
    CHECK(body.find("data:") == std::string::npos);
}

TEST_CASE("static files: Debian's browser libraries under /javascript/, from --javascript-root, apart from the client's version")
{
    web_root root;
    root.write("index.html", "<!doctype html><script type=\"module\" src=\"js/main.js\"></script>");
    root.write("js/main.js", script(1));
    web_root libraries; // stands for /usr/share/javascript
    fs::create_directories(libraries.dir / "qrcode-generator");
    libraries.write("qrcode-generator/qrcode.js", "var qrcode = function () {};\n" + script(3));
    libraries.write("page.html", "<!doctype html><script src=\"js/main.js\"></script>");
    server_process server{{"--web-root", root.dir.string(), "--javascript-root", libraries.dir.string()}};

    const std::string v = version_in(http_get(server.port(), "/").body);
    const auto library = http_get(server.port(), "/javascript/qrcode-generator/qrcode.js", {{"Accept-Encoding", "gzip"}});
    REQUIRE(library.status == 200);
    CHECK(library.header("Content-Type").starts_with("text/javascript"));
    CHECK(library.header("Cache-Control") == "no-cache"); // Debian's file: revalidated, not kept a year
    CHECK(library.header("Content-Encoding") == "gzip");
    CHECK(gunzip(library.body) == "var qrcode = function () {};\n" + script(3));
    CHECK(http_get(server.port(), "/javascript/qrcode-generator/qrcode.js", {{"If-None-Match", library.header("ETag")}}).status ==
          304);
    // A page there is served as it is, its addresses not rewritten under the client's version.
    CHECK(http_get(server.port(), "/javascript/page.html").body == "<!doctype html><script src=\"js/main.js\"></script>");
    // Nothing leaves that root, and it is no part of the web root's version.
    CHECK(http_get(server.port(), "/javascript/../index.html").status == 404);
    CHECK(http_get(server.port(), "/javascript/qrcode-generator/missing.js").status == 404);
    libraries.write("qrcode-generator/qrcode.js", "var qrcode = null;\n");
    CHECK(http_get(server.port(), "/javascript/qrcode-generator/qrcode.js").body == "var qrcode = null;\n");
    CHECK(version_in(http_get(server.port(), "/").body) == v);
}

TEST_CASE("static files: without the QR library under --javascript-root the server says so at start, and serves on")
{
    web_root libraries;
    server_process server{{"--javascript-root", libraries.dir.string()}};
    CHECK(http_get(server.port(), "/").status == 200);
    CHECK(http_get(server.port(), "/javascript/qrcode-generator/qrcode.js").status == 404);
    CHECK_MESSAGE(server.log().find("no qrcode-generator/qrcode.js under --javascript-root " + libraries.dir.string()) !=
                      std::string::npos,
                  server.log());
}
