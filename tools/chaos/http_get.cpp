#include "http_get.hpp"

#include <memory>

namespace quarto::chaos {

namespace {

struct request_state {
    request_state(net::io_context& io, std::function<void(bool, std::string)> f)
        : socket{io},
          timer{io},
          done{std::move(f)}
    {
    }
    tcp::socket socket;
    net::steady_timer timer;
    std::string request;
    std::string response;
    std::array<char, 16384> chunk{};
    std::function<void(bool, std::string)> done;

    void finish(bool ok)
    {
        if (!done) return;
        timer.cancel();
        error_code ignored;
        socket.close(ignored);
        std::string body;
        const auto head_end = response.find("\r\n\r\n");
        ok = ok && head_end != std::string::npos && response.rfind("HTTP/1.1 200", 0) == 0;
        if (ok) body = response.substr(head_end + 4);
        std::exchange(done, nullptr)(ok, std::move(body));
    }
};

void read_all(const std::shared_ptr<request_state>& s)
{
    s->socket.async_read_some(net::buffer(s->chunk), [s](const error_code& ec, std::size_t n) {
        s->response.append(s->chunk.data(), n);
        if (ec == net::error::eof) return s->finish(true);
        if (ec) return s->finish(false);
        read_all(s);
    });
}

} // namespace

void http_get(net::io_context& io, const endpoint_settings& where, const std::string& path,
              std::function<void(bool, std::string)> done)
{
    auto s = std::make_shared<request_state>(io, std::move(done));
    s->request = "GET " + path + " HTTP/1.1\r\nHost: " + where.host_header + "\r\nConnection: close\r\n\r\n";
    s->timer.expires_after(std::chrono::seconds{5});
    s->timer.async_wait([s](const error_code& ec) {
        if (!ec) s->finish(false);
    });
    s->socket.async_connect(where.server, [s](const error_code& ec) {
        if (ec) return s->finish(false);
        net::async_write(s->socket, net::buffer(s->request), [s](const error_code& e, std::size_t) {
            if (e) return s->finish(false);
            read_all(s);
        });
    });
}

} // namespace quarto::chaos
