#include "quarto/protocol/analysis.hpp"

#include <algorithm>
#include <tuple>

namespace quarto::protocol {
namespace {

using nlohmann::json;

json optional_number(const auto& value)
{
    return value ? json(static_cast<int>(*value)) : json(nullptr);
}

json piece_or_null(const std::optional<piece>& p)
{
    return p ? json(static_cast<int>(p->code())) : json(nullptr);
}

// Squares first, then pieces, then calls: a total order for moves of equal value.
auto order_key(const solver::move& m)
{
    return std::tuple{m.place ? int{*m.place} : -1, m.give ? int{m.give->code()} : -1, m.call};
}

} // namespace

std::string_view value_name(solver::game_value v)
{
    switch (v) {
    case solver::game_value::win: return "win";
    case solver::game_value::draw: return "draw";
    case solver::game_value::loss: return "loss";
    }
    return "draw";
}

json evaluation_json(const solver::evaluation& e, bool exact)
{
    return {{"value", value_name(e.value)}, {"distance", int{e.distance}}, {"exact", exact}};
}

json move_json(const solver::move& m)
{
    return {{"square", optional_number(m.place)}, {"give", piece_or_null(m.give)}, {"quarto", m.call}};
}

json analysis_rules_json(const rules& r)
{
    static constexpr std::pair<attribute, const char*> names[] = {
        {attribute::color, "color"}, {attribute::height, "height"}, {attribute::shape, "shape"}, {attribute::fill, "fill"}};
    json attributes = json::array();
    for (const auto& [a, name] : names)
        if (r.attributes.contains(a)) attributes.push_back(name);
    return {{"squares", r.squares}, {"attributes", std::move(attributes)}};
}

void sort_best_first(std::vector<solver::move_value>& moves)
{
    std::sort(moves.begin(), moves.end(), [](const solver::move_value& a, const solver::move_value& b) {
        if (solver::better(a.value, b.value)) return true;
        if (solver::better(b.value, a.value)) return false;
        if (a.exact != b.exact) return a.exact;
        return order_key(a.m) < order_key(b.m);
    });
}

solver::move_value value_of(std::span<const solver::move_value> moves)
{
    solver::move_value best = moves.front();
    const bool all_exact = std::all_of(moves.begin(), moves.end(), [](const auto& m) { return m.exact; });
    best.exact = all_exact || (best.exact && best.value.value == solver::game_value::win);
    return best;
}

json position_analysis_json(const rules& r, const solver::position& p, std::span<const solver::move_value> moves)
{
    const solver::move_value best = value_of(moves);
    json out = evaluation_json(best.value, best.exact);
    out["rules"] = analysis_rules_json(r);
    out["board"] = solver::board_text(p.placed);
    out["hand"] = piece_or_null(p.hand);
    out["callable"] = p.callable ? json(int{*p.callable}) : json(nullptr);
    json list = json::array();
    for (const auto& m : moves) {
        json entry = move_json(m.m);
        entry.update(evaluation_json(m.value, m.exact));
        list.push_back(std::move(entry));
    }
    out["moves"] = std::move(list);
    return out;
}

bool game_analysis::exact() const
{
    return std::all_of(positions.begin(), positions.end(), [](const analysed_position& p) {
        return p.before_exact && (!p.after || p.after_exact);
    });
}

json game_analysis_json(const game_analysis& a)
{
    json positions = json::array();
    for (const analysed_position& p : a.positions) {
        json best = json::array();
        for (const auto& m : p.best) best.push_back(move_json(m));
        positions.push_back({
            {"step", p.step},
            {"seat", int{p.mover}},
            {"board", solver::board_text(p.at.placed)},
            {"hand", piece_or_null(p.at.hand)},
            {"callable", p.at.callable ? json(int{*p.at.callable}) : json(nullptr)},
            {"before", evaluation_json(p.before, p.before_exact)},
            {"played", p.played ? move_json(*p.played) : json(nullptr)},
            {"ended_by", p.ended_by ? json(to_string(*p.ended_by)) : json(nullptr)},
            {"after", p.after ? evaluation_json(*p.after, p.after_exact) : json(nullptr)},
            {"changed", p.changed},
            {"best", std::move(best)},
        });
    }
    return {{"game", a.game}, {"exact", a.exact()}, {"ms", a.ms}, {"positions", std::move(positions)}};
}

} // namespace quarto::protocol
