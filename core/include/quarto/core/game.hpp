// One game of Quarto as a state machine. Every action takes the caller's `now`, is checked
// against the rules, and either changes the game or returns a distinct error and changes
// nothing. No I/O, no clock reads, no allocation: a game is a value of a few hundred bytes
// (the position itself is a few dozen; the rest is the move log).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string_view>

#include "quarto/core/board.hpp"
#include "quarto/core/clock.hpp"
#include "quarto/core/rules.hpp"

namespace quarto {

enum class phase : std::uint8_t {
    give,        // `turn` gives a piece; or, with no pieces left, calls Quarto or passes
    place,       // `turn` places the piece in hand (and may claim during the claim window)
    final_claim, // all 16 placed and passed: `turn` may claim the last placement, or pass
    finished,
};

enum class end_reason : std::uint8_t {
    quarto,        // the placer called their own Quarto
    missed_quarto, // the opponent claimed a Quarto the placer did not call
    timeout,       // the mover ran out of time
    resign,
    false_claim,   // a wrong call under false_claim_policy::lose
    board_full,    // all 16 placed, nobody called: a draw
    abandoned,     // a player left a game in progress, and the opponent claimed the win
};

struct game_result {
    std::optional<seat> winner; // nullopt: draw
    end_reason reason;
    square_mask line = 0; // the called pattern for quarto, missed_quarto and false_claim
    friend constexpr bool operator==(const game_result&, const game_result&) = default;
};

enum class action_error : std::uint8_t {
    game_over,         // the game has finished
    not_your_turn,     // the other seat is to act
    wrong_phase,       // this action does not fit the phase (e.g. place while a piece is to be given)
    square_taken,      // place on an occupied square
    piece_unavailable, // give a piece already given (or none is left)
    invalid_claim,     // a Quarto call that is not valid now (see claim_problem)
    out_of_range,      // a seat other than 0 or 1, a square or piece outside 0..15
};

// Why a Quarto call was judged invalid.
enum class claim_problem : std::uint8_t {
    none,
    not_a_pattern,       // not 4 squares forming a line (or a 2x2 square when those count)
    not_full,            // some of the 4 squares are empty
    no_shared_attribute, // the 4 pieces share no counted attribute value
    misses_placement,    // the pattern does not contain the placement being judged
    too_late,            // the claim window has closed: the alignment has lost its value
};

// The result of an action: success, or the error and (for calls) why.
class [[nodiscard]] outcome {
public:
    static constexpr outcome success() { return outcome{}; }
    static constexpr outcome failure(action_error e, claim_problem p = claim_problem::none)
    {
        return outcome{e, p};
    }
    constexpr bool ok() const { return !error_; }
    constexpr explicit operator bool() const { return ok(); }
    // Precondition: !ok().
    constexpr action_error error() const { return *error_; }
    constexpr claim_problem problem() const { return problem_; }

private:
    constexpr outcome() = default;
    constexpr outcome(action_error e, claim_problem p) : error_{e}, problem_{p} {}
    std::optional<action_error> error_;
    claim_problem problem_ = claim_problem::none;
};

enum class move_kind : std::uint8_t { give, place, call, pass, resign };

// One accepted action. Rejected actions are not recorded.
struct move_record {
    move_kind kind;
    seat by;
    std::uint8_t value;  // the piece (give) or the square (place); 0 otherwise
    square_mask line;    // the called pattern (call)
    std::uint32_t at_ms; // since the game started
    friend constexpr bool operator==(const move_record&, const move_record&) = default;
};

// A game has at most 16 gives, 16 placements, 2 passes and one call or resignation.
inline constexpr int max_moves = 40;

// An action as a value, for bots, search and tests.
struct action {
    move_kind kind;
    seat by;
    std::uint8_t value = 0; // piece or square
    square_mask line = 0;
    friend constexpr bool operator==(const action&, const action&) = default;
};

// Enough for the largest set of legal actions: 16 gives or placements plus 7 patterns
// through one square.
class action_list {
public:
    constexpr void push(action a) { items_[size_++] = a; }
    constexpr void clear() { size_ = 0; }
    constexpr std::span<const action> view() const { return {items_.data(), size_}; }
    constexpr std::size_t size() const { return size_; }
    constexpr const action& operator[](std::size_t i) const { return items_[i]; }
    constexpr auto begin() const { return items_.begin(); }
    constexpr auto end() const { return items_.begin() + static_cast<std::ptrdiff_t>(size_); }

private:
    std::array<action, 32> items_{};
    std::size_t size_ = 0;
};

// What the passage of time did (see game::expire).
enum class time_event : std::uint8_t {
    none,
    claim_window_closed, // the missed-Quarto window ran out; the game goes on
    game_over,           // a mover lost on time, or the final window closed in a draw
};

struct placement {
    square where;
    seat by;
    friend constexpr bool operator==(const placement&, const placement&) = default;
};

class game {
public:
    // `first` won the coin flip and gives first; their move clock starts at `start`.
    game(const rules& r, const clock_settings& c, seat first, instant start);

    // Actions. Each first applies expire(now); callers that broadcast time events should call
    // expire(now) themselves first so they learn of them.
    outcome give(seat by, piece p, instant now);
    outcome place(seat by, square s, instant now);
    // `line`: the 4 squares pointed at.
    outcome call_quarto(seat by, square_mask line, instant now);
    // After the 16th placement, by the placer (no call); during the final window, by the
    // claimant (no claim: the game is drawn at once).
    outcome pass(seat by, instant now);
    outcome resign(seat by, instant now);
    // `absent` left the game (the server decides when that is so); the opponent wins. Not a
    // move of the game: nothing is recorded, as for a timeout.
    outcome abandon(seat absent, instant now);
    outcome apply(const action& a, instant now);

    // Applies every deadline at or before `now`: a mover out of time loses; an expired claim
    // window closes; an expired final window draws the game.
    time_event expire(instant now);
    // The next instant at which expire() would change something; nullopt when nothing is due.
    std::optional<instant> next_deadline() const;

    // Replaces `out` with the legal actions of the seat to act (resignation excluded),
    // ignoring time.
    void legal_actions(action_list& out) const;

    enum phase phase() const { return phase_; }
    seat turn() const { return turn_; }
    seat first() const { return first_; }
    std::optional<piece> in_hand() const { return in_hand_; }
    piece_set available() const { return available_; }
    const class board& board() const { return board_; }
    const struct rules& rules() const { return rules_; }
    const clock_settings& clock() const { return clock_settings_; }
    const move_clock& moves_clock() const { return clock_; }
    std::optional<claim_window> claim() const { return claim_; }
    std::optional<placement> last_placement() const { return last_placement_; }
    std::optional<game_result> result() const { return result_; }
    bool finished() const { return phase_ == phase::finished; }
    instant started_at() const { return started_at_; }
    std::span<const move_record> moves() const { return {log_.data(), log_size_}; }

private:
    std::optional<placement> judged_placement(seat by, instant now, outcome& refusal) const;
    void record(move_kind kind, seat by, std::uint8_t value, square_mask line, instant now);
    void finish(std::optional<seat> winner, end_reason reason, square_mask line, instant now);

    struct rules rules_;
    clock_settings clock_settings_;
    move_clock clock_;
    class board board_;
    piece_set available_ = all_pieces;
    std::optional<piece> in_hand_;
    std::optional<placement> last_placement_;
    std::optional<claim_window> claim_;
    std::optional<game_result> result_;
    enum phase phase_ = phase::give;
    seat turn_;
    seat first_;
    instant started_at_;
    std::uint8_t log_size_ = 0;
    std::array<move_record, max_moves> log_{};
};

// The coin flip, from a random source the caller injects.
template <class Generator>
seat flip_coin(Generator& random)
{
    return static_cast<seat>(std::uniform_int_distribution<int>{0, 1}(random));
}

std::string_view to_string(enum phase p);
std::string_view to_string(end_reason r);
std::string_view to_string(action_error e);
std::string_view to_string(claim_problem p);
std::string_view to_string(move_kind k);

} // namespace quarto
