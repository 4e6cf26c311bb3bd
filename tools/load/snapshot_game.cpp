#include "snapshot_game.hpp"

#include <nlohmann/json.hpp>

namespace quarto::load {

std::optional<snapshot_game> read_snapshot_game(std::string_view game_json)
{
    const auto g = nlohmann::json::parse(game_json, nullptr, /*allow_exceptions=*/false);
    if (!g.is_object() || !g.contains("moves") || !g["moves"].is_array()) return std::nullopt;
    snapshot_game out;
    if (const auto& first = g.value("first", nlohmann::json{}); first.is_number_integer()) {
        const auto f = first.get<int>();
        if (f != 0 && f != 1) return std::nullopt;
        out.first = static_cast<seat>(f);
    }
    for (const auto& m : g["moves"]) {
        if (!m.is_object() || !m.contains("seat") || !m["seat"].is_number_integer()) return std::nullopt;
        const int by = m["seat"].get<int>();
        if (by != 0 && by != 1) return std::nullopt;
        const std::string type = m.value("type", "");
        snapshot_move move{.by = static_cast<seat>(by)};
        if (type == "give" || type == "place") {
            const char* field = type == "give" ? "piece" : "square";
            if (!m.contains(field) || !m[field].is_number_integer()) return std::nullopt;
            const int value = m[field].get<int>();
            if (value < 0 || value > 15) return std::nullopt;
            move.type = type == "give" ? snapshot_move::kind::give : snapshot_move::kind::place;
            move.value = static_cast<std::uint8_t>(value);
        } else if (type == "pass") {
            move.type = snapshot_move::kind::pass;
        } else if (type == "quarto" || type == "resign") {
            move.type = snapshot_move::kind::end;
        } else {
            return std::nullopt;
        }
        out.moves.push_back(move);
    }
    if (!out.moves.empty() && !out.first) return std::nullopt;
    return out;
}

} // namespace quarto::load
