// The browser client's files over HTTP: gzip when the client takes it, a strong ETag, 304 for a
// file the client has, a new ETag when the file changes; and what a visit weighs on the wire.
#include <filesystem>
#include <fstream>

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
    std::vector<std::string> targets{"/", "/style.css"};
    for (const auto& f : fs::recursive_directory_iterator(web / "js"))
        if (f.path().extension() == ".js") targets.push_back("/js/" + fs::relative(f.path(), web / "js").string());
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
    // What every file costs once. 80 KB when the client weighed 62; 96 KB since the invitation
    // page, the QR encoder and the lobby's groups took it from 79 to 93 (the encoder 6 of them).
    CHECK(first < 96 * 1024);
    CHECK(repeat < 5 * 1024);
}
