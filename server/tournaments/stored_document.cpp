#include "tournaments/stored_document.hpp"

#include <nlohmann/json.hpp>

#include "quarto/protocol/stored_tournament.hpp"

namespace quarto::server::tournaments {

using nlohmann::json;

std::string write_stored_document(const model::tournament_record& record, const std::vector<play::player_record>& people)
{
    json listed = json::array();
    for (const auto& p : people) listed.push_back({{"id", p.info.id}, {"name", p.info.name}, {"token_hash", p.token_hash}});
    return json{{"tournament", protocol::stored_tournament(record)}, {"people", std::move(listed)}}.dump();
}

std::optional<stored_document> read_stored_document(std::string_view text)
{
    const auto document = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!document.is_object() || !document.contains("tournament")) return std::nullopt;
    auto record = protocol::read_stored_tournament(document["tournament"]);
    const auto people = document.find("people");
    if (!record || people == document.end() || !people->is_array()) return std::nullopt;
    const auto text_field = [](const json& person, const char* key) {
        const auto it = person.find(key);
        return it != person.end() && it->is_string() && !it->get_ref<const std::string&>().empty();
    };
    stored_document out{std::move(*record), {}};
    for (const auto& person : *people) {
        if (!person.is_object() || !text_field(person, "id") || !text_field(person, "name") || !text_field(person, "token_hash"))
            return std::nullopt;
        out.people.push_back({{person["id"].get<std::string>(), person["name"].get<std::string>()},
                              person["token_hash"].get<std::string>()});
    }
    return out;
}

} // namespace quarto::server::tournaments
