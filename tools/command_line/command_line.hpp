// The command line of the tools that talk to a server (quarto-load, quarto-chaos): options as
// `--name VALUE` or `--name=VALUE`, flags without a value, `--help`, numbers within bounds and
// the server's ws:// URL. A bad one ends the program with status 2 after its reason and the
// usage; --help prints the usage and ends it with status 0.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

#include <boost/asio/ip/tcp.hpp>

namespace quarto::tools {

// Where a tool connects: ws://HOST:PORT/PATH, HOST an IP address.
struct ws_target {
    boost::asio::ip::tcp::endpoint endpoint;
    std::string host_header; // HOST:PORT as the URL writes it
    std::string path;        // "/" when the URL has none
};

class command_line {
public:
    // `program` names the tool in its messages.
    command_line(std::string program, std::string usage) : program_{std::move(program)}, usage_{std::move(usage)} {}

    // Reads every argument. `--help` or `-h` prints the usage and exits 0. An argument that is
    // `--` and one of `flags` is a flag: `option` gets its name and an empty value. Any other
    // takes the text after its `=`, or else the next argument, as its value, and `option` gets
    // its name without the leading `--`; `option` returns false for a name it does not know.
    void parse(int argc, char** argv, std::initializer_list<std::string_view> flags,
               const std::function<bool(const std::string& name, const std::string& value)>& option) const;

    // "PROGRAM: what", a blank line and the usage on stderr, then exit status 2.
    [[noreturn]] void bad(const std::string& what) const;

    // `value` as a number in low..high, or bad() naming the option `--name`.
    double number(const std::string& name, const std::string& value, double low, double high) const;

    // The --url option's value, or bad(). IPv6 addresses in brackets: ws://[::1]:8080/ws.
    ws_target url(const std::string& value) const;

private:
    std::string program_;
    std::string usage_;
};

} // namespace quarto::tools
