// The Go baseline's own Quarto rules (PROTOCOL.md sections 6-8): whose turn, phase, pieces, squares,
// Quarto calls judged on the last placement, the claim window, the per-move clock, draws.
package main

import "time"

type refusal struct{ code, message string }

var (
	errTurn     = &refusal{"not_your_turn", "It is not your turn."}
	errPhase    = &refusal{"wrong_phase", "That move does not fit this moment of the game."}
	errOver     = &refusal{"wrong_phase", "The game is over."}
	errTaken    = &refusal{"square_taken", "That square is already taken."}
	errPiece    = &refusal{"piece_unavailable", "That piece has already been played."}
	errLate     = &refusal{"invalid_claim", "Too late: the chance to call that Quarto has passed."}
	errNotLine  = &refusal{"invalid_claim", "Those 4 squares do not form a line."}
	errEmpty    = &refusal{"invalid_claim", "Some of those squares are empty."}
	errNoShared = &refusal{"invalid_claim", "Those 4 pieces share no attribute."}
	errMisses   = &refusal{"invalid_claim", "That line does not include the last piece placed."}
)

var lines, squares []uint16 // the 10 lines; the nine 2x2 squares (advanced rules)

func init() {
	for i := uint16(0); i < 4; i++ {
		lines = append(lines, 0xf<<(4*i), 0x1111<<i)
	}
	lines = append(lines, 1|1<<5|1<<10|1<<15, 1<<3|1<<6|1<<9|1<<12)
	for _, s := range []uint16{0, 1, 2, 4, 5, 6, 8, 9, 10} {
		squares = append(squares, 1<<s|1<<(s+1)|1<<(s+4)|1<<(s+5))
	}
}

var attrNames = []string{"color", "height", "shape", "fill"} // bits 1, 2, 4, 8

type rulesJSON struct {
	Squares    bool     `json:"squares"`
	Attributes []string `json:"attributes"`
	FalseClaim string   `json:"false_claim"`
}
type clockRules struct {
	MoveMS  *int64 `json:"move_ms"`
	ClaimMS int64  `json:"claim_ms"`
}
type move struct {
	Type   string `json:"type"`
	Seat   int    `json:"seat"`
	Piece  *int   `json:"piece,omitempty"`
	Square *int   `json:"square,omitempty"`
	Line   []int  `json:"line,omitempty"`
	TMS    int64  `json:"t_ms"`
}
type result struct {
	Result string `json:"result"`
	Winner *int   `json:"winner"`
	Reason string `json:"reason"`
	Line   []int  `json:"line,omitempty"`
}
type claimWindow struct{ seat, deadline int64 }
type placement struct{ sq, by int }

type game struct {
	rules                    rulesJSON
	attrMask                 int
	clock                    clockRules
	first, turn              int
	phase                    string // give, place, final_claim, finished
	board                    [16]int
	available                uint16
	inHand                   int
	last                     *placement
	claim                    *claimWindow
	mover                    int
	moveStart, frozen, start int64
	running                  bool
	moves                    []move
	result                   *result
}

func newGame(r rulesJSON, mask int, c clockRules, first int, t int64) *game {
	g := &game{rules: r, attrMask: mask, clock: c, first: first, turn: first, phase: "give", available: 0xffff,
		inHand: -1, mover: first, moveStart: t, running: true, start: t}
	for i := range g.board {
		g.board[i] = -1
	}
	return g
}

func (g *game) moveDeadline() (int64, bool) {
	if g.clock.MoveMS == nil || !g.running {
		return 0, false
	}
	return g.moveStart + *g.clock.MoveMS, true
}
func (g *game) nextDeadline() (int64, bool) {
	if g.phase == "finished" {
		return 0, false
	}
	d, ok := g.moveDeadline()
	if g.claim != nil && (!ok || g.claim.deadline < d) {
		return g.claim.deadline, true
	}
	return d, ok
}
func (g *game) stopClock(t int64) {
	if g.running {
		g.frozen, g.running = max64(0, t-g.moveStart), false
	}
}
func (g *game) remaining(s int, t int64) *int64 {
	if g.clock.MoveMS == nil {
		return nil
	}
	left := *g.clock.MoveMS
	if s == g.mover {
		used := g.frozen
		if g.running {
			used = max64(0, t-g.moveStart)
		}
		left = max64(0, left-used)
	}
	return &left
}

type clockJSON struct {
	RemainingMS [2]*int64 `json:"remaining_ms"`
	Running     *int      `json:"running"`
}
type claimJSON struct {
	Seat        int64 `json:"seat"`
	RemainingMS int64 `json:"remaining_ms"`
}

func (g *game) clockJSON(t int64) clockJSON {
	c := clockJSON{RemainingMS: [2]*int64{g.remaining(0, t), g.remaining(1, t)}}
	if g.running {
		m := g.mover
		c.Running = &m
	}
	return c
}
func (g *game) claimJSON(t int64) *claimJSON {
	if g.claim == nil || t >= g.claim.deadline {
		return nil
	}
	return &claimJSON{g.claim.seat, g.claim.deadline - t}
}
func (g *game) record(m move, t int64) { m.TMS = max64(0, t-g.start); g.moves = append(g.moves, m) }
func (g *game) finish(winner int, reason string, line []int, t int64) { // winner -1: a draw
	g.stopClock(t)
	g.claim, g.inHand, g.phase = nil, -1, "finished"
	g.result = &result{Result: "draw", Reason: reason, Line: line}
	if winner >= 0 {
		g.result.Result, g.result.Winner = "win", &winner
	}
}

// expire applies deadlines already past (as core's game::expire); true when that ended the game.
func (g *game) expire(t int64) bool {
	if g.phase == "finished" {
		return false
	}
	d, timed := g.moveDeadline()
	flagged := timed && t >= d
	if flagged && (g.claim == nil || d <= g.claim.deadline) {
		g.finish(1-g.turn, "timeout", nil, d)
		return true
	}
	if g.claim != nil && t >= g.claim.deadline {
		closed := g.claim.deadline
		g.claim = nil
		if g.phase == "final_claim" {
			g.finish(-1, "board_full", nil, closed)
			return true
		}
		if flagged {
			g.finish(1-g.turn, "timeout", nil, d)
			return true
		}
	}
	return false
}

func (g *game) give(by, p int, t int64) *refusal {
	if by != g.turn {
		return errTurn
	}
	if g.phase != "give" {
		return errPhase
	}
	if g.available&(1<<p) == 0 {
		return errPiece
	}
	g.available &^= 1 << p
	g.inHand = p
	g.record(move{Type: "give", Seat: by, Piece: &p}, t)
	g.turn, g.phase = 1-by, "place"
	g.mover, g.moveStart, g.running = g.turn, t, true
	// A window after every give that follows the giver's own placement: never reveal whether a Quarto exists.
	if g.last != nil && g.last.by == by {
		g.claim = &claimWindow{int64(g.turn), t + g.clock.ClaimMS}
	}
	return nil
}
func (g *game) place(by, sq int, t int64) *refusal {
	if by != g.turn {
		return errTurn
	}
	if g.phase != "place" {
		return errPhase
	}
	if g.board[sq] >= 0 {
		return errTaken
	}
	g.board[sq], g.inHand, g.claim, g.last, g.phase = g.inHand, -1, nil, &placement{sq, by}, "give"
	g.record(move{Type: "place", Seat: by, Square: &sq}, t)
	return nil
}
func (g *game) quarto(by int, line []int, t int64) *refusal {
	if by != g.turn {
		return errTurn
	}
	var judged *placement
	if g.claim != nil && g.claim.seat == int64(by) && t < g.claim.deadline {
		judged = g.last
	} else if g.phase == "give" && g.last != nil && g.last.by == by {
		judged = g.last
	} else if g.last == nil {
		return errPhase
	}
	var m uint16
	for _, s := range line {
		m |= 1 << s
	}
	verdict := errLate
	if judged != nil {
		verdict = nil
		all, none := 15, 15
		for _, s := range line {
			all &= g.board[s]
			none &^= g.board[s]
		}
		if !contains(lines, m) && !(g.rules.Squares && contains(squares, m)) {
			verdict = errNotLine
		} else if g.board[line[0]] < 0 || g.board[line[1]] < 0 || g.board[line[2]] < 0 || g.board[line[3]] < 0 {
			verdict = errEmpty
		} else if (all|none)&g.attrMask == 0 {
			verdict = errNoShared
		} else if m&(1<<judged.sq) == 0 {
			verdict = errMisses
		}
	}
	sorted := make([]int, 0, 4)
	for s := 0; s < 16; s++ {
		if m&(1<<s) != 0 {
			sorted = append(sorted, s)
		}
	}
	if verdict == nil {
		g.record(move{Type: "quarto", Seat: by, Line: sorted}, t)
		reason := "missed_quarto"
		if judged.by == by {
			reason = "quarto"
		}
		g.finish(by, reason, sorted, t)
		return nil
	}
	if g.rules.FalseClaim != "lose" {
		return verdict
	}
	g.record(move{Type: "quarto", Seat: by, Line: sorted}, t)
	g.finish(1-by, "false_claim", sorted, t)
	return nil
}
func (g *game) pass(by int, t int64) *refusal {
	if by != g.turn {
		return errTurn
	}
	if g.phase == "final_claim" {
		g.record(move{Type: "pass", Seat: by}, t)
		g.finish(-1, "board_full", nil, t)
		return nil
	}
	if g.phase != "give" || g.available != 0 || g.inHand >= 0 {
		return errPhase
	}
	g.record(move{Type: "pass", Seat: by}, t)
	g.stopClock(t)
	g.turn, g.phase = 1-by, "final_claim"
	g.claim = &claimWindow{int64(g.turn), t + g.clock.ClaimMS}
	return nil
}
func (g *game) resign(by int, t int64) *refusal {
	g.record(move{Type: "resign", Seat: by}, t)
	g.finish(1-by, "resign", nil, t)
	return nil
}

func contains(set []uint16, m uint16) bool {
	for _, x := range set {
		if x == m {
			return true
		}
	}
	return false
}
func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

var epoch = time.Now()

func now() int64 { return int64(time.Since(epoch) / time.Millisecond) }
