#include "game_row.hpp"

#include <array>

#include <spdlog/spdlog.h>

#include "quarto/archive/move_text.hpp"
#include "account_rows.hpp"

namespace quarto::archive::detail {
namespace {

constexpr std::array all_end_reasons{end_reason::quarto,      end_reason::missed_quarto, end_reason::timeout,
                                     end_reason::resign,      end_reason::false_claim,   end_reason::board_full,
                                     end_reason::abandoned};

std::optional<end_reason> reason_named(std::string_view name)
{
    for (end_reason e : all_end_reasons)
        if (to_string(e) == name) return e;
    return std::nullopt;
}

} // namespace

game_row row_of(const game_record& r)
{
    game_row row;
    row.id = r.id;
    row.room = r.room;
    row.room_name = r.room_name;
    row.player0_id = r.players[0].id;
    row.player0_name = r.players[0].name;
    row.player1_id = r.players[1].id;
    row.player1_name = r.players[1].name;
    row.squares = r.game_rules.squares;
    row.attributes = r.game_rules.attributes.bits();
    row.false_claim = r.game_rules.false_claim == false_claim_policy::lose ? "lose" : "reject";
    if (r.clock.move) row.move_ms = r.clock.move->count();
    row.claim_ms = r.clock.claim.count();
    row.first_seat = r.first;
    if (r.result.winner) row.winner = *r.result.winner;
    row.reason = std::string{to_string(r.result.reason)};
    row.line = r.result.line;
    row.started_ms = r.started_ms;
    row.ended_ms = r.ended_ms;
    row.moves = moves_to_text(r.moves);
    return row;
}

std::optional<game_record> record_of(game_row row, std::string_view where)
{
    game_record r;
    r.id = std::move(row.id);
    r.room = std::move(row.room);
    r.room_name = std::move(row.room_name);
    r.players[0] = {std::move(row.player0_id), std::move(row.player0_name)};
    r.players[1] = {std::move(row.player1_id), std::move(row.player1_name)};
    r.game_rules.squares = row.squares;
    const auto attributes = attribute_set::from_bits(static_cast<unsigned>(row.attributes));
    r.game_rules.attributes = attributes.value_or(attribute_set::all());
    r.game_rules.false_claim = row.false_claim == "lose" ? false_claim_policy::lose : false_claim_policy::reject;
    r.clock.move = row.move_ms ? std::optional<milliseconds>{milliseconds{*row.move_ms}} : std::nullopt; // untimed
    r.clock.claim = milliseconds{row.claim_ms};
    r.first = static_cast<seat>(row.first_seat);
    r.result.winner = row.winner ? std::optional<seat>{static_cast<seat>(*row.winner)} : std::nullopt;
    const auto reason = reason_named(row.reason);
    r.result.reason = reason.value_or(end_reason::board_full);
    r.result.line = static_cast<square_mask>(row.line);
    r.started_ms = row.started_ms;
    r.ended_ms = row.ended_ms;
    if (!attributes || attributes->empty() || !reason) {
        spdlog::error("archive {}: game {} has values this server does not know", where, r.id);
        return std::nullopt;
    }
    auto moves = moves_from_text(row.moves);
    if (!moves) {
        constexpr std::size_t shown = 120;
        spdlog::error("archive {}: game {} has moves this server cannot read: '{}{}'", where, r.id,
                      row.moves.substr(0, shown), row.moves.size() > shown ? "..." : "");
        return std::nullopt;
    }
    r.moves = std::move(*moves);
    if (row.rating_pool) {
        const auto pool = pool_named(*row.rating_pool);
        if (!pool) {
            spdlog::error("archive {}: game {} is rated in a pool this server does not know: '{}'", where, r.id,
                          *row.rating_pool);
            return std::nullopt;
        }
        r.ratings = game_ratings{*pool, row.rating_seats};
        for (seat_rating_change& seat : r.ratings->seats) seat.before.pool = seat.after.pool = *pool;
    }
    return r;
}

} // namespace quarto::archive::detail
