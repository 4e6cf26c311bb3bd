#include "command_line.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace quarto::tools {

void command_line::parse(int argc, char** argv, std::initializer_list<std::string_view> flags,
                         const std::function<bool(const std::string& name, const std::string& value)>& option) const
{
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            std::cout << usage_;
            std::exit(0);
        }
        const bool flag = arg.rfind("--", 0) == 0 &&
                          std::find(flags.begin(), flags.end(), std::string_view{arg}.substr(2)) != flags.end();
        if (flag) {
            if (!option(arg.substr(2), {})) bad("unknown option " + arg);
            continue;
        }
        std::string value;
        if (const auto eq = arg.find('='); eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg.resize(eq);
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            bad(arg + " needs a value");
        }
        const std::string name = arg.rfind("--", 0) == 0 ? arg.substr(2) : arg;
        // A flag's name with a value is no option either.
        if (std::find(flags.begin(), flags.end(), name) != flags.end() || !option(name, value))
            bad("unknown option " + arg);
    }
}

void command_line::bad(const std::string& what) const
{
    std::cerr << program_ << ": " << what << "\n\n" << usage_;
    std::exit(2);
}

double command_line::number(const std::string& name, const std::string& value, double low, double high) const
{
    try {
        std::size_t used = 0;
        const double v = std::stod(value, &used);
        if (used != value.size() || !(v >= low && v <= high)) throw std::invalid_argument{name};
        return v;
    } catch (const std::exception&) {
        bad("--" + name + " " + value + ": expected a number in " + std::to_string(low) + ".." + std::to_string(high));
    }
}

ws_target command_line::url(const std::string& value) const
{
    const std::string scheme = "ws://";
    if (value.rfind(scheme, 0) != 0) bad("--url must start with ws://");
    const auto rest = value.substr(scheme.size());
    const auto slash = rest.find('/');
    const auto authority = rest.substr(0, slash);
    const std::string path = slash == std::string::npos ? "/" : rest.substr(slash);
    const auto colon = authority.rfind(':');
    if (colon == std::string::npos) bad("--url needs a port");
    std::string host = authority.substr(0, colon);
    if (host.size() > 1 && host.front() == '[') host = host.substr(1, host.size() - 2);
    boost::system::error_code ec;
    const auto ip = boost::asio::ip::make_address(host, ec);
    if (ec) bad("--url: the host must be an IP address");
    const auto port = static_cast<unsigned short>(number("url port", authority.substr(colon + 1), 1, 65535));
    return {boost::asio::ip::tcp::endpoint{ip, port}, authority, path};
}

} // namespace quarto::tools
