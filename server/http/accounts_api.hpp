// The accounts' routes: POST /api/accounts (sign up, or a guest claiming an account), POST
// /api/sessions (log in), DELETE /api/sessions/current and /api/sessions (log out here, or
// everywhere), and the account's own: GET /api/me, POST /api/me/password, DELETE /api/me,
// GET /api/me/export. Every step that waits runs elsewhere (the archive's thread, the password
// pool's), and the answer is handed to `answer` on whichever thread has it: the caller takes it
// back to its connection. No password, hash or session id reaches a log line or an answer's
// body.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/site.hpp"
#include "net/asio.hpp"

namespace quarto::server::http {

struct api_reply {
    beast::http::status status = beast::http::status::ok;
    std::string body; // JSON; empty for 204
    std::vector<std::pair<beast::http::field, std::string>> headers; // Set-Cookie, Retry-After, Allow
};
using api_answer = std::function<void(api_reply)>;

struct account_call {
    beast::http::verb method;
    std::string_view path;
    std::string body;
    std::string session; // from the Cookie header; empty when none
    std::string address; // the client's, as the login limits count it
    bool secure = false; // reached over TLS: the cookie is Secure
};

// Whether `path` is one of the accounts' routes.
bool is_accounts_route(std::string_view path);
// Serves it: `answer` is called once.
void serve_accounts_api(site& server, account_call call, api_answer answer);

} // namespace quarto::server::http
