#include "quarto/protocol/request_id.hpp"

#include <optional>

namespace quarto::protocol {
namespace {

using json = nlohmann::json;

// Reads a message once more, as SAX events, for the text of its top-level "req" number (the
// last one, as the object nlohmann built keeps the last of repeated keys).
class req_number_finder : public nlohmann::json_sax<json> {
public:
    std::optional<std::string> text;

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t& s) override
    {
        if (at_req()) text = s;
        return true;
    }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return open(); }
    bool key(string_t& k) override
    {
        if (depth_ == 1) req_key_ = k == "req";
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    bool at_req() const { return depth_ == 1 && req_key_; }
    bool value()
    {
        if (at_req()) text.reset();
        return true;
    }
    bool open()
    {
        ++depth_;
        return true;
    }
    bool close()
    {
        --depth_;
        return true;
    }

    int depth_ = 0;
    bool req_key_ = false;
};

} // namespace

json exact_req(const json& parsed, std::string_view message)
{
    if (!parsed.is_number_float()) return parsed;
    req_number_finder finder;
    json::sax_parse(message.begin(), message.end(), &finder);
    if (!finder.text) return parsed;
    return json::binary(json::binary_t::container_type(finder.text->begin(), finder.text->end()));
}

std::string req_text(const json& req)
{
    if (req.is_binary()) return {req.get_binary().begin(), req.get_binary().end()};
    return req.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string with_req(std::string document, const json& req)
{
    if (req.is_null() || document.empty() || document.back() != '}') return document;
    document.pop_back();
    if (document.size() > 1) document += ',';
    document += "\"req\":";
    document += req_text(req);
    document += '}';
    return document;
}

} // namespace quarto::protocol
