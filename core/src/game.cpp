// The rules of Quarto as the rule sheet gives them, with the claim window and per-move clock.
#include "quarto/core/game.hpp"

#include <algorithm>

namespace quarto {

game::game(const struct rules& r, const clock_settings& c, seat first, instant start)
    : rules_{r}, clock_settings_{c}, clock_{c.move}, turn_{first}, first_{first}, started_at_{start}
{
    clock_.start(first, start);
}

time_event game::expire(instant now)
{
    if (phase_ == phase::finished) return time_event::none;
    // The mover's clock and the claim window start together (at a give), so whichever
    // deadline is earlier decides; at equal deadlines the mover is out of time first.
    if (clock_.flagged(now) && (!claim_ || *clock_.deadline() <= claim_->deadline)) {
        finish(opponent(turn_), end_reason::timeout, 0, *clock_.deadline());
        return time_event::game_over;
    }
    if (claim_ && !claim_->open_at(now)) {
        const instant closed_at = claim_->deadline;
        claim_.reset();
        if (phase_ == phase::final_claim) {
            finish(std::nullopt, end_reason::board_full, 0, closed_at);
            return time_event::game_over;
        }
        if (clock_.flagged(now)) {
            finish(opponent(turn_), end_reason::timeout, 0, *clock_.deadline());
            return time_event::game_over;
        }
        return time_event::claim_window_closed;
    }
    return time_event::none;
}

std::optional<instant> game::next_deadline() const
{
    if (phase_ == phase::finished) return std::nullopt;
    std::optional<instant> next = clock_.deadline();
    if (claim_ && (!next || claim_->deadline < *next)) next = claim_->deadline;
    return next;
}

outcome game::give(seat by, piece p, instant now)
{
    if (by > 1) return outcome::failure(action_error::out_of_range);
    expire(now);
    if (phase_ == phase::finished) return outcome::failure(action_error::game_over);
    if (by != turn_) return outcome::failure(action_error::not_your_turn);
    if (phase_ != phase::give) return outcome::failure(action_error::wrong_phase);
    if (!(available_ & bit(p))) return outcome::failure(action_error::piece_unavailable);

    available_ = static_cast<piece_set>(available_ & ~bit(p));
    in_hand_ = p;
    record(move_kind::give, by, p.code(), 0, now);
    turn_ = opponent(by);
    phase_ = phase::place;
    clock_.start(turn_, now);
    // The window opens after every give that follows the giver's own placement, whether or
    // not an alignment exists: the server must not reveal which.
    if (last_placement_ && last_placement_->by == by)
        claim_ = claim_window{turn_, now + clock_settings_.claim};
    return outcome::success();
}

outcome game::place(seat by, square s, instant now)
{
    if (by > 1) return outcome::failure(action_error::out_of_range);
    if (s >= board_squares) return outcome::failure(action_error::out_of_range);
    expire(now);
    if (phase_ == phase::finished) return outcome::failure(action_error::game_over);
    if (by != turn_) return outcome::failure(action_error::not_your_turn);
    if (phase_ != phase::place) return outcome::failure(action_error::wrong_phase);
    if (board_.occupied(s)) return outcome::failure(action_error::square_taken);

    board_.put(s, *in_hand_);
    in_hand_.reset();
    claim_.reset(); // placing ends the opponent's right to claim
    last_placement_ = placement{s, by};
    record(move_kind::place, by, s, 0, now);
    phase_ = phase::give; // the same move goes on: call, give, or (board full) pass
    return outcome::success();
}

// The placement a call by `by` at `now` would be judged on, or the reason there is none.
std::optional<placement> game::judged_placement(seat by, instant now, outcome& refusal) const
{
    if (by != turn_) {
        refusal = outcome::failure(action_error::not_your_turn);
        return std::nullopt;
    }
    if (claim_ && claim_->claimant == by && claim_->open_at(now)) return last_placement_;
    if (phase_ == phase::give && last_placement_ && last_placement_->by == by) return last_placement_;
    if (!last_placement_) {
        refusal = outcome::failure(action_error::wrong_phase);
        return std::nullopt;
    }
    refusal = outcome::failure(action_error::invalid_claim, claim_problem::too_late);
    return std::nullopt;
}

outcome game::call_quarto(seat by, square_mask line, instant now)
{
    if (by > 1) return outcome::failure(action_error::out_of_range);
    expire(now);
    if (phase_ == phase::finished) return outcome::failure(action_error::game_over);

    outcome verdict = outcome::success();
    const std::optional<placement> judged = judged_placement(by, now, verdict);
    if (judged) {
        if (!rules_.is_pattern(line))
            verdict = outcome::failure(action_error::invalid_claim, claim_problem::not_a_pattern);
        else if ((board_.occupied() & line) != line)
            verdict = outcome::failure(action_error::invalid_claim, claim_problem::not_full);
        else if (!board_.aligned(line, rules_.attributes))
            verdict = outcome::failure(action_error::invalid_claim, claim_problem::no_shared_attribute);
        else if (!(line & bit(judged->where)))
            verdict = outcome::failure(action_error::invalid_claim, claim_problem::misses_placement);
    }

    if (verdict.ok()) {
        record(move_kind::call, by, 0, line, now);
        const end_reason reason = judged->by == by ? end_reason::quarto : end_reason::missed_quarto;
        finish(by, reason, line, now);
        return verdict;
    }
    if (verdict.error() == action_error::invalid_claim &&
        rules_.false_claim == false_claim_policy::lose) {
        record(move_kind::call, by, 0, line, now);
        finish(opponent(by), end_reason::false_claim, line, now);
        return outcome::success();
    }
    return verdict;
}

outcome game::pass(seat by, instant now)
{
    if (by > 1) return outcome::failure(action_error::out_of_range);
    expire(now);
    if (phase_ == phase::finished) return outcome::failure(action_error::game_over);
    if (by != turn_) return outcome::failure(action_error::not_your_turn);

    if (phase_ == phase::final_claim) { // the claimant declines: nothing is left to happen
        record(move_kind::pass, by, 0, 0, now);
        finish(std::nullopt, end_reason::board_full, 0, now);
        return outcome::success();
    }
    if (phase_ != phase::give || !board_.full()) return outcome::failure(action_error::wrong_phase);

    record(move_kind::pass, by, 0, 0, now);
    clock_.stop(now);
    turn_ = opponent(by);
    phase_ = phase::final_claim;
    claim_ = claim_window{turn_, now + clock_settings_.claim};
    return outcome::success();
}

outcome game::resign(seat by, instant now)
{
    if (by > 1) return outcome::failure(action_error::out_of_range);
    expire(now);
    if (phase_ == phase::finished) return outcome::failure(action_error::game_over);
    record(move_kind::resign, by, 0, 0, now);
    finish(opponent(by), end_reason::resign, 0, now);
    return outcome::success();
}

outcome game::abandon(seat absent, instant now)
{
    if (absent > 1) return outcome::failure(action_error::out_of_range);
    expire(now);
    if (phase_ == phase::finished) return outcome::failure(action_error::game_over);
    finish(opponent(absent), end_reason::abandoned, 0, now);
    return outcome::success();
}

outcome game::apply(const action& a, instant now)
{
    switch (a.kind) {
    case move_kind::give:
        if (a.value >= piece::count) return outcome::failure(action_error::out_of_range);
        return give(a.by, piece{a.value}, now);
    case move_kind::place: return place(a.by, a.value, now);
    case move_kind::call: return call_quarto(a.by, a.line, now);
    case move_kind::pass: return pass(a.by, now);
    case move_kind::resign: return resign(a.by, now);
    }
    return outcome::failure(action_error::wrong_phase);
}

void game::legal_actions(action_list& out) const
{
    out.clear();
    if (phase_ == phase::finished) return;
    const seat by = turn_;
    if (phase_ == phase::give) {
        for (std::uint8_t p = 0; p < piece::count; ++p)
            if (available_ & bit(piece{p})) out.push({move_kind::give, by, p, 0});
        if (board_.full()) out.push({move_kind::pass, by, 0, 0});
    } else if (phase_ == phase::place) {
        for (std::uint8_t s = 0; s < board_squares; ++s)
            if (!board_.occupied(s)) out.push({move_kind::place, by, s, 0});
    } else {
        out.push({move_kind::pass, by, 0, 0});
    }
    // Calls: in the claim window (place, final_claim) or on one's own placement (give).
    const bool may_call = claim_ ? claim_->claimant == by
                                 : phase_ == phase::give && last_placement_ && last_placement_->by == by;
    if (!may_call || !last_placement_) return;
    for (square_mask p : patterns_through[last_placement_->where].get(rules_.squares))
        if (board_.aligned(p, rules_.attributes)) out.push({move_kind::call, by, 0, p});
}

void game::record(move_kind kind, seat by, std::uint8_t value, square_mask line, instant now)
{
    const auto since_start = std::max<std::int64_t>(0, (now - started_at_).count());
    log_[log_size_++] = move_record{kind, by, value, line,
                                    static_cast<std::uint32_t>(std::min<std::int64_t>(since_start, UINT32_MAX))};
}

void game::finish(std::optional<seat> winner, end_reason reason, square_mask line, instant now)
{
    clock_.stop(now);
    claim_.reset();
    in_hand_.reset();
    phase_ = phase::finished;
    result_ = game_result{winner, reason, line};
}

} // namespace quarto
