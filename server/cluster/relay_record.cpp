#include "cluster/relay_record.hpp"

#include <charconv>

namespace quarto::server::cluster {

namespace {

template <class Int>
bool take_number(std::string_view& in, Int& value)
{
    const auto [end, ec] = std::from_chars(in.data(), in.data() + in.size(), value);
    if (ec != std::errc{}) return false;
    in.remove_prefix(static_cast<std::size_t>(end - in.data()));
    return true;
}

bool take_char(std::string_view& in, char c)
{
    if (in.empty() || in.front() != c) return false;
    in.remove_prefix(1);
    return true;
}

bool take_word(std::string_view& in, std::string& word)
{
    const auto space = in.find(' ');
    if (space == std::string_view::npos) return false;
    word.assign(in.substr(0, space));
    in.remove_prefix(space + 1);
    return true;
}

bool known_kind(char c)
{
    return c == 'M' || c == 'D' || c == 'F' || c == 'S' || c == 'U' || c == 'R' || c == 'X' || c == 'G' || c == 'B' || c == 'N';
}

} // namespace

void append(std::string& out, const relay_record& r)
{
    // Header: from_node shard slot generation r|t place player_length text_length
    std::string header;
    header += r.from_node.empty() ? "-" : r.from_node;
    header += ' ';
    header += std::to_string(r.client.shard) + ' ' + std::to_string(r.client.slot) + ' ' + std::to_string(r.client.generation);
    header += r.tournament ? " t " : " r ";
    header += r.place.empty() ? "-" : r.place;
    header += ' ' + std::to_string(r.player.size()) + ' ' + std::to_string(r.text.size()) + '\n';
    const std::size_t body = header.size() + r.player.size() + r.text.size();
    out += static_cast<char>(r.type);
    out += ' ';
    out += std::to_string(body);
    out += '\n';
    out += header;
    out += r.player;
    out += r.text;
}

bool parse_records(std::string_view payload, std::vector<relay_record>& out)
{
    while (!payload.empty()) {
        relay_record r;
        if (!known_kind(payload.front())) return false;
        r.type = static_cast<relay_record::kind>(payload.front());
        payload.remove_prefix(1);
        std::size_t body_size = 0;
        if (!take_char(payload, ' ') || !take_number(payload, body_size) || !take_char(payload, '\n') ||
            body_size > payload.size())
            return false;
        std::string_view body = payload.substr(0, body_size);
        payload.remove_prefix(body_size);

        std::string tournament_flag;
        std::size_t player_size = 0, text_size = 0;
        if (!take_word(body, r.from_node) || !take_number(body, r.client.shard) || !take_char(body, ' ') ||
            !take_number(body, r.client.slot) || !take_char(body, ' ') || !take_number(body, r.client.generation) ||
            !take_char(body, ' ') || !take_word(body, tournament_flag) || !take_word(body, r.place) ||
            !take_number(body, player_size) || !take_char(body, ' ') || !take_number(body, text_size) ||
            !take_char(body, '\n') || player_size + text_size != body.size())
            return false;
        if (tournament_flag != "r" && tournament_flag != "t") return false;
        r.tournament = tournament_flag == "t";
        if (r.from_node == "-") r.from_node.clear();
        if (r.place == "-") r.place.clear();
        r.player.assign(body.substr(0, player_size));
        r.text.assign(body.substr(player_size));
        out.push_back(std::move(r));
    }
    return true;
}

} // namespace quarto::server::cluster
