// quarto-server: parses the command line, sets up logging, runs the server.
#include <csignal>
#include <filesystem>
#include <iostream>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "app/app.hpp"
#include "app/heap_trimmer.hpp"
#include "config/config.hpp"

extern char** environ;

int main(int argc, char** argv)
{
    using namespace quarto::server;
    std::vector<std::string> ignored_environment;
    const auto parsed = parse_command_line({argv + 1, argv + argc}, quarto_environment(environ), &ignored_environment);
    if (std::holds_alternative<usage_request>(parsed)) {
        std::cout << usage_text();
        return 0;
    }
    if (const auto* error = std::get_if<config_error>(&parsed)) {
        std::cerr << "quarto-server: " << error->message << "\n\n" << usage_text();
        return 2;
    }
    config settings = std::get<config>(parsed);

    keep_freed_memory();
    // A peer gone while a library writes to it (hiredis writes with write(2)) must not end the
    // process: the write fails with EPIPE instead, and the caller sees it.
    std::signal(SIGPIPE, SIG_IGN);

    auto logger = spdlog::stderr_color_mt("quarto");
    spdlog::set_default_logger(logger);
    spdlog::set_level(settings.log_level);
    spdlog::flush_on(spdlog::level::info);
    for (const auto& note : ignored_environment) spdlog::debug("environment: {}", note);

    // Files are served from the web root's real path, checked once: a missing directory is a
    // mistake to say at start, not a 404 on every page.
    std::error_code fs_error;
    const auto web_root = std::filesystem::canonical(settings.web_root, fs_error);
    if (fs_error || !std::filesystem::is_directory(web_root)) {
        spdlog::critical("cannot serve --web-root {}: {}", settings.web_root,
                         fs_error ? fs_error.message() : std::string{"not a directory"});
        return 1;
    }
    settings.web_root = web_root.string();
    // The invitation's QR code is drawn by Debian's node-qrcode-generator, served from
    // --javascript-root. Without it the client still shows the link: a warning, not a stop.
    if (!std::filesystem::is_regular_file(settings.javascript_root + "/qrcode-generator/qrcode.js", fs_error))
        spdlog::warn("no qrcode-generator/qrcode.js under --javascript-root {} (Debian's node-qrcode-generator): "
                     "invitations show their link without a QR code",
                     settings.javascript_root);

    try {
        return app{settings}.run();
    } catch (const std::exception& e) {
        spdlog::critical("fatal: {}", e.what());
        return 1;
    }
}
