#include "bot_player.hpp"

namespace quarto::load {

namespace {
const rules default_rules{};
const clock_settings untimed{.move = std::nullopt, .claim = default_claim_window};
} // namespace

bot_player::bot_player(seat me, std::uint64_t seed) : me_{me}, random_{seed} {}

void bot_player::on_game_started(seat first) { game_.emplace(default_rules, untimed, first, model_time); }

bool bot_player::on_given(seat by, std::uint8_t piece_code)
{
    return game_ && piece_code < piece::count && game_->give(by, piece{piece_code}, model_time).ok();
}

bool bot_player::on_placed(seat by, std::uint8_t square_index)
{
    return game_ && square_index < board_squares && game_->place(by, square_index, model_time).ok();
}

bool bot_player::on_passed(seat by) { return game_ && game_->pass(by, model_time).ok(); }

void bot_player::on_game_over()
{
    // The server decides how it ended; the bot only stops playing.
    if (game_ && !game_->finished()) (void)game_->resign(me_, model_time);
}

bool bot_player::restore(const snapshot_game& g)
{
    game_.reset();
    if (!g.first) return true; // no game yet: game_started will come
    on_game_started(*g.first);
    for (const auto& m : g.moves) {
        bool fits = false;
        switch (m.type) {
        case snapshot_move::kind::give: fits = on_given(m.by, m.value); break;
        case snapshot_move::kind::place: fits = on_placed(m.by, m.value); break;
        case snapshot_move::kind::pass: fits = on_passed(m.by); break;
        case snapshot_move::kind::end: on_game_over(); return true;
        }
        if (!fits) {
            game_.reset();
            return false;
        }
    }
    return true;
}

std::optional<action> bot_player::next_action()
{
    if (!playing() || game_->turn() != me_) return std::nullopt;
    // Call every Quarto of our own: right after placing, before giving.
    if (game_->phase() == phase::give) {
        if (const auto last = game_->last_placement(); last && last->by == me_)
            if (const auto line = game_->rules().quarto_through(game_->board(), last->where))
                return action{.kind = move_kind::call, .by = me_, .line = *line};
    }
    game_->legal_actions(legal_);
    if (legal_.size() == 0) return std::nullopt;
    for (const action& a : legal_)
        if (a.kind == move_kind::call) return a;
    std::uniform_int_distribution<std::size_t> pick{0, legal_.size() - 1};
    return legal_[pick(random_)];
}

} // namespace quarto::load
