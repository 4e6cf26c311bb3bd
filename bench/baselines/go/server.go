// Baseline for bench/: the part of Quarto protocol v1 that quarto-load's bots use, on Go's net/http
// with gorilla/websocket and encoding/json, no framework. Each event is serialized once and the same
// bytes go to every recipient. Build and run: bench/baselines/README.md.
package main

import (
	"bufio"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

var (
	rateLimit = flag.Float64("rate-limit", 20, "messages per second per connection")
	rateBurst = flag.Float64("rate-burst", 40, "token bucket size")
	rooms     = struct {
		sync.RWMutex
		m map[string]*room
	}{m: map[string]*room{}}
	archive = make(chan []byte, 4096) // finished games, one JSON line each
)

type player struct{ id, name string }
type who struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// A connection: its reader goroutine handles its messages; its writer goroutine sends what `out` holds.
type client struct {
	ws     *websocket.Conn
	out    chan []byte
	player *player
	rooms  map[string]*room // only the reader goroutine touches it
	tokens float64
	refill time.Time
}

// push queues bytes that may be shared with other recipients (never modified after).
func (c *client) push(b []byte) {
	select {
	case c.out <- b:
	default: // 1024 unsent messages: a client that is not reading
		c.ws.Close()
	}
}

type room struct {
	mu         sync.Mutex // everything below
	id, name   string
	rules      rulesJSON
	attrMask   int
	clock      clockRules
	seats      [2]*player
	spectators map[*player]bool
	conns      []*client // every connection that receives the room's events
	seq        int64
	status     string // waiting, playing, finished
	g          *game
	gameID     string
	startedMS  int64
	rematch    [2]bool
	timer      *time.Timer // the game's next deadline: move clock or claim window
}

type stamp struct {
	Type string `json:"type"`
	Room string `json:"room"`
	Seq  int64  `json:"seq"`
}

func (r *room) stamp(t string) stamp { r.seq++; return stamp{t, r.id, r.seq} }

// publish serializes the event once; every recipient gets the same bytes.
func (r *room) publish(ev any, except *client) {
	b, _ := json.Marshal(ev)
	for _, c := range r.conns {
		if c != except {
			c.push(b)
		}
	}
}

func (r *room) armTimer() {
	d, ok := r.g.nextDeadline()
	if !ok {
		if r.timer != nil {
			r.timer.Stop()
		}
		return
	}
	wait := time.Duration(d-now()) * time.Millisecond
	if r.timer == nil {
		r.timer = time.AfterFunc(wait, r.onDeadline)
	} else {
		r.timer.Reset(wait)
	}
}

func (r *room) onDeadline() { // trust the game, not the timer
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status != "playing" {
		return
	}
	if r.g.expire(now()) {
		r.gameOver()
	} else {
		r.armTimer()
	}
}

func (r *room) startGame() {
	t, first := now(), rand.Intn(2)
	r.g = newGame(r.rules, r.attrMask, r.clock, first, t)
	r.gameID, r.startedMS, r.status, r.rematch = newID(12), time.Now().UnixMilli(), "playing", [2]bool{}
	r.publish(struct {
		stamp
		First   int       `json:"first"`
		Players [2]who    `json:"players"`
		Clock   clockJSON `json:"clock"`
	}{r.stamp("game_started"), first, [2]who{{r.seats[0].id, r.seats[0].name}, {r.seats[1].id, r.seats[1].name}}, r.g.clockJSON(t)}, nil)
	r.armTimer()
}

func (r *room) gameOver() {
	g, t := r.g, now()
	if r.timer != nil {
		r.timer.Stop()
	}
	r.status = "finished"
	record, _ := json.Marshal(map[string]any{"id": r.gameID, "room": r.id, "room_name": r.name,
		"players": []map[string]any{{"seat": 0, "id": r.seats[0].id, "name": r.seats[0].name}, {"seat": 1, "id": r.seats[1].id, "name": r.seats[1].name}},
		"rules":   r.rules, "clock": r.clock, "first": g.first, "result": g.result, "started_ms": r.startedMS,
		"ended_ms": time.Now().UnixMilli(), "moves": g.moves})
	archive <- append(record, '\n')
	r.publish(struct {
		stamp
		Game string `json:"game"`
		result
		Clock clockJSON `json:"clock"`
	}{r.stamp("game_over"), r.gameID, *g.result, g.clockJSON(t)}, nil)
}

func (r *room) snapshot(c *client, seat *int, req json.RawMessage) []byte {
	t := now()
	players := [2]any{}
	for s, p := range r.seats {
		if p != nil {
			players[s] = map[string]any{"seat": s, "id": p.id, "name": p.name, "connected": true}
		}
	}
	game := map[string]any{"board": make([]any, 16), "available": []int{}, "phase": "waiting", "turn": nil, "in_hand": nil,
		"clock": clockJSON{RemainingMS: [2]*int64{r.clock.MoveMS, r.clock.MoveMS}}, "claim": nil, "moves": []move{},
		"result": nil, "first": nil, "id": nil}
	if g := r.g; g != nil {
		board := game["board"].([]any)
		for s, p := range g.board {
			if p >= 0 {
				board[s] = p
			}
		}
		phase := map[string]string{"final_claim": "give"}[g.phase]
		if phase == "" {
			phase = g.phase
		}
		game["phase"], game["clock"], game["claim"], game["moves"], game["result"], game["first"] = phase, g.clockJSON(t), g.claimJSON(t), g.moves, g.result, g.first
		if g.phase != "finished" {
			game["turn"] = g.turn
		} else {
			game["id"] = r.gameID
		}
		if g.inHand >= 0 {
			game["in_hand"] = g.inHand
		}
	}
	avail := []int{}
	for p := 0; p < 16; p++ {
		if r.g == nil || r.g.available&(1<<p) != 0 {
			avail = append(avail, p)
		}
	}
	game["available"] = avail
	m := map[string]any{"type": "room", "room": r.id, "seq": r.seq, "name": r.name, "rules": r.rules, "clock_rules": r.clock,
		"status": r.status, "players": players, "spectators": len(r.spectators), "tournament": nil, "you": map[string]*int{"seat": seat}, "game": game}
	if req != nil {
		m["req"] = req
	}
	b, _ := json.Marshal(m)
	return b
}

// ---- messages ----

type inMsg struct {
	Type                  *string
	Req, Name             json.RawMessage
	Token, Room, As       *string
	Piece, Square         *int
	Line                  []int
	Rules, Clock, Private json.RawMessage
}

func (c *client) reply(m map[string]any, req json.RawMessage) {
	if req != nil {
		m["req"] = req
	}
	b, _ := json.Marshal(m)
	c.push(b)
}
func (c *client) fail(e *refusal, req json.RawMessage) {
	c.reply(map[string]any{"type": "error", "code": e.code, "message": e.message}, req)
}

var (
	errBadMessage = &refusal{"bad_message", "The message has a missing or invalid field."}
	errNoRoom     = &refusal{"no_such_room", "There is no such room."}
)

func cleanName(raw json.RawMessage, allowEmpty bool) (string, bool) { // trimmed, 1..32 bytes, no control characters
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	s = strings.Trim(s, " ")
	if (s == "" && !allowEmpty) || len(s) > 32 || strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || (r >= 0x7f && r <= 0x9f) }) >= 0 {
		return "", false
	}
	return s, true
}

func isNull(raw json.RawMessage) bool { return raw == nil || string(raw) == "null" }

// roomOptions reads create_room's fields into r; false when one is bad.
func roomOptions(m *inMsg, creator string, r *room) bool {
	var rules struct {
		Squares    *bool
		Attributes *[]string
		FalseClaim *string `json:"false_claim"`
	}
	var clock struct {
		MoveMS  json.RawMessage `json:"move_ms"`
		ClaimMS *int64          `json:"claim_ms"`
	}
	if (!isNull(m.Rules) && (m.Rules[0] != '{' || json.Unmarshal(m.Rules, &rules) != nil)) ||
		(!isNull(m.Clock) && (m.Clock[0] != '{' || json.Unmarshal(m.Clock, &clock) != nil)) ||
		!(isNull(m.Private) || string(m.Private) == "true" || string(m.Private) == "false") {
		return false
	}
	r.name = creator + "'s room"
	if !isNull(m.Name) {
		name, ok := cleanName(m.Name, true)
		if !ok {
			return false
		}
		if name != "" {
			r.name = name
		}
	}
	r.rules = rulesJSON{Attributes: attrNames, FalseClaim: "reject"}
	if rules.Squares != nil {
		r.rules.Squares = *rules.Squares
	}
	if rules.FalseClaim != nil {
		if r.rules.FalseClaim = *rules.FalseClaim; r.rules.FalseClaim != "reject" && r.rules.FalseClaim != "lose" {
			return false
		}
	}
	wanted := attrNames
	if rules.Attributes != nil {
		wanted = *rules.Attributes
	}
	seen := 0
	for _, a := range wanted {
		i := 0
		for i < 4 && attrNames[i] != a {
			i++
		}
		if i == 4 || seen&(1<<i) != 0 {
			return false
		}
		seen |= 1 << i
	}
	if seen == 0 {
		return false
	}
	r.rules.Attributes, r.attrMask = nil, seen
	for i, a := range attrNames {
		if seen&(1<<i) != 0 {
			r.rules.Attributes = append(r.rules.Attributes, a)
		}
	}
	move := int64(60000)
	r.clock = clockRules{MoveMS: &move, ClaimMS: 10000}
	if string(clock.MoveMS) == "null" {
		r.clock.MoveMS = nil
	} else if clock.MoveMS != nil {
		if v, err := strconv.ParseInt(string(clock.MoveMS), 10, 64); err != nil || v < 100 || v > 3600000 {
			return false
		} else {
			move = v
		}
	}
	if clock.ClaimMS != nil {
		if r.clock.ClaimMS = *clock.ClaimMS; r.clock.ClaimMS < 100 || r.clock.ClaimMS > 600000 {
			return false
		}
	}
	return true
}

func (c *client) handle(kind int, data []byte) {
	t := time.Now() // the token bucket
	c.tokens += t.Sub(c.refill).Seconds() * *rateLimit
	if c.tokens > *rateBurst {
		c.tokens = *rateBurst
	}
	c.refill = t
	if c.tokens < 1 {
		c.fail(&refusal{"rate_limited", "Too many messages; slow down."}, nil)
		return
	}
	c.tokens--
	if kind != websocket.TextMessage {
		c.fail(&refusal{"bad_message", "Send text messages."}, nil)
		return
	}
	var m inMsg
	err := json.Unmarshal(data, &m)
	var typeErr *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &typeErr) {
		c.fail(&refusal{"bad_json", "The message is not valid JSON."}, nil)
		return
	}
	req := m.Req
	if string(req) == "null" {
		req = nil
	}
	first := 0
	for first < len(data) && strings.IndexByte(" \t\r\n", data[first]) >= 0 {
		first++
	}
	if data[first] != '{' || (req != nil && !strings.ContainsRune("\"-0123456789", rune(req[0]))) {
		c.fail(errBadMessage, nil)
		return
	}
	if m.Type == nil {
		c.fail(errBadMessage, req)
		return
	}
	typ := *m.Type
	if c.player == nil && typ != "hello" {
		c.fail(&refusal{"hello_required", "Say hello first."}, req)
		return
	}
	switch typ {
	case "hello", "ping", "create_room", "join", "give", "place", "quarto", "pass", "resign", "rematch":
	default:
		c.fail(&refusal{"unknown_type", "Unknown message type."}, req)
		return
	}
	if typeErr != nil || (m.Room != nil && (*m.Room == "" || len(*m.Room) > 64)) {
		c.fail(errBadMessage, req)
		return
	}
	switch typ {
	case "hello":
		if c.player != nil {
			c.fail(&refusal{"bad_message", "This connection has already said hello."}, req)
			return
		}
		name, ok := cleanName(m.Name, false)
		if (m.Name != nil && !ok) || (m.Token != nil && (*m.Token == "" || len(*m.Token) > 128)) || (m.Name == nil && m.Token == nil) {
			c.fail(errBadMessage, req)
			return
		}
		if m.Token != nil { // resuming by token is not part of what the bots use: any token is unknown here
			c.fail(&refusal{"unknown_token", "That player token is not known here; say hello with a name."}, req)
			return
		}
		token := make([]byte, 16)
		crand.Read(token)
		c.player = &player{"p" + newID(8), name}
		c.reply(map[string]any{"type": "welcome", "player": c.player.id, "name": name, "token": hex.EncodeToString(token), "protocol": 1}, req)
	case "ping":
		c.reply(map[string]any{"type": "pong", "time_ms": time.Now().UnixMilli()}, req)
	case "create_room":
		r := &room{id: newID(8), spectators: map[*player]bool{}, conns: []*client{c}, seq: 1, status: "waiting"}
		if !roomOptions(&m, c.player.name, r) {
			c.fail(errBadMessage, req)
			return
		}
		r.seats[0] = c.player
		rooms.Lock()
		rooms.m[r.id] = r
		rooms.Unlock()
		c.rooms[r.id] = r
		c.reply(map[string]any{"type": "room_created", "room": r.id}, req)
		seat := 0
		r.mu.Lock()
		c.push(r.snapshot(c, &seat, nil))
		r.mu.Unlock()
	case "join":
		as := "player"
		if m.As != nil {
			as = *m.As
		}
		if m.Room == nil || (as != "player" && as != "spectator") {
			c.fail(errBadMessage, req)
			return
		}
		rooms.RLock()
		r := rooms.m[*m.Room]
		rooms.RUnlock()
		if r == nil {
			c.fail(errNoRoom, req)
			return
		}
		r.join(c, as, req)
	default: // the game's messages
		if m.Room == nil || (typ == "give" && (m.Piece == nil || *m.Piece < 0 || *m.Piece > 15)) ||
			(typ == "place" && (m.Square == nil || *m.Square < 0 || *m.Square > 15)) || (typ == "quarto" && !validLine(m.Line)) {
			c.fail(errBadMessage, req)
			return
		}
		r := c.rooms[*m.Room]
		if r == nil {
			rooms.RLock()
			r = rooms.m[*m.Room]
			rooms.RUnlock()
			if r == nil {
				c.fail(errNoRoom, req)
			} else {
				c.fail(&refusal{"not_in_room", "You are not in this room."}, req)
			}
			return
		}
		r.mu.Lock()
		r.act(c, typ, &m, req)
		r.mu.Unlock()
	}
}

func validLine(l []int) bool {
	seen := 0
	for _, s := range l {
		if s < 0 || s > 15 || seen&(1<<s) != 0 {
			return false
		}
		seen |= 1 << s
	}
	return len(l) == 4
}

func (r *room) join(c *client, as string, req json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := c.player
	seat := -1
	for s := range r.seats {
		if r.seats[s] == p {
			seat = s
		}
	}
	if seat < 0 && as == "player" {
		if r.seats[0] == nil {
			seat = 0
		} else if r.seats[1] == nil {
			seat = 1
		} else {
			c.fail(&refusal{"room_full", "Both seats of this room are taken."}, req)
			return
		}
		r.seats[seat] = p
		if !r.spectators[p] {
			r.conns, c.rooms[r.id] = append(r.conns, c), r
		}
		delete(r.spectators, p)
		s := seat
		r.publish(struct {
			stamp
			Player who    `json:"player"`
			As     string `json:"as"`
			Seat   *int   `json:"seat"`
		}{r.stamp("joined"), who{p.id, p.name}, "player", &s}, c)
	} else if seat < 0 && !r.spectators[p] {
		r.spectators[p] = true
		r.conns, c.rooms[r.id] = append(r.conns, c), r
		r.publish(struct {
			stamp
			Player who    `json:"player"`
			As     string `json:"as"`
		}{r.stamp("joined"), who{p.id, p.name}, "spectator"}, c)
	}
	var you *int
	if seat >= 0 {
		you = &seat
	}
	c.push(r.snapshot(c, you, req))
	if r.status == "waiting" && r.seats[0] != nil && r.seats[1] != nil {
		r.startGame()
	}
}

// act: a game message from a member of the room, under r.mu.
func (r *room) act(c *client, typ string, m *inMsg, req json.RawMessage) {
	seat := -1
	for s := range r.seats {
		if r.seats[s] == c.player {
			seat = s
		}
	}
	if seat < 0 {
		c.fail(&refusal{"not_a_player", "Spectators cannot play."}, req)
		return
	}
	if typ == "rematch" {
		if r.status != "finished" {
			c.fail(&refusal{"wrong_phase", "A rematch can be asked for once the game is over."}, req)
			return
		}
		if !r.rematch[seat] {
			r.rematch[seat] = true
			r.publish(struct {
				stamp
				Seat int `json:"seat"`
			}{r.stamp("rematch_requested"), seat}, nil)
		}
		if r.rematch[0] && r.rematch[1] {
			r.startGame()
		}
		return
	}
	if r.status != "playing" {
		msg := "The game is over."
		if r.status == "waiting" {
			msg = "The game has not started yet."
		}
		c.fail(&refusal{"wrong_phase", msg}, req)
		return
	}
	g, t := r.g, now()
	if g.expire(t) { // a deadline passed before the timer fired
		r.gameOver()
		c.fail(errOver, req)
		return
	}
	var refused *refusal
	switch typ {
	case "give":
		if refused = g.give(seat, *m.Piece, t); refused == nil {
			r.publish(struct {
				stamp
				Seat  int        `json:"seat"`
				Piece int        `json:"piece"`
				Clock clockJSON  `json:"clock"`
				Claim *claimJSON `json:"claim"`
			}{r.stamp("given"), seat, *m.Piece, g.clockJSON(t), g.claimJSON(t)}, nil)
		}
	case "place":
		if refused = g.place(seat, *m.Square, t); refused == nil {
			r.publish(struct {
				stamp
				Seat   int       `json:"seat"`
				Square int       `json:"square"`
				Piece  int       `json:"piece"`
				Clock  clockJSON `json:"clock"`
			}{r.stamp("placed"), seat, *m.Square, g.board[*m.Square], g.clockJSON(t)}, nil)
		}
	case "pass":
		if refused = g.pass(seat, t); refused == nil {
			r.publish(struct {
				stamp
				Seat  int        `json:"seat"`
				Clock clockJSON  `json:"clock"`
				Claim *claimJSON `json:"claim"`
			}{r.stamp("passed"), seat, g.clockJSON(t), g.claimJSON(t)}, nil)
		}
	case "quarto":
		refused = g.quarto(seat, m.Line, t)
	case "resign":
		refused = g.resign(seat, t)
	}
	if refused != nil {
		c.fail(refused, req)
	} else if g.phase == "finished" {
		r.gameOver()
	} else {
		r.armTimer()
	}
}

// leave: the connection closed.
func (c *client) leave() {
	for _, r := range c.rooms {
		r.mu.Lock()
		for i, x := range r.conns {
			if x == c {
				r.conns[i] = r.conns[len(r.conns)-1]
				r.conns = r.conns[:len(r.conns)-1]
				break
			}
		}
		if len(r.conns) == 0 { // nobody left to play or watch
			if r.timer != nil {
				r.timer.Stop()
			}
			r.status = "closed"
			rooms.Lock()
			delete(rooms.m, r.id)
			rooms.Unlock()
		} else if r.seats[0] == c.player || r.seats[1] == c.player {
			r.publish(struct {
				stamp
				Player who `json:"player"`
			}{r.stamp("disconnected"), who{c.player.id, c.player.name}}, nil)
		} else {
			delete(r.spectators, c.player)
			r.publish(struct {
				stamp
				Player who    `json:"player"`
				As     string `json:"as"`
			}{r.stamp("left"), who{c.player.id, c.player.name}, "spectator"}, nil)
		}
		r.mu.Unlock()
	}
}

const alphabet = "abcdefghijkmnpqrstuvwxyz23456789"

func newID(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rand.Intn(len(alphabet))]
	}
	return string(b)
}

func serve(w http.ResponseWriter, req *http.Request) {
	up := websocket.Upgrader{} // refuses an Origin other than the Host, as quarto-server does by default
	ws, err := up.Upgrade(w, req, nil)
	if err != nil {
		return
	}
	ws.SetReadLimit(4096)
	c := &client{ws: ws, out: make(chan []byte, 1024), rooms: map[string]*room{}, tokens: *rateBurst, refill: time.Now()}
	go func() {
		failed := false
		for b := range c.out {
			if !failed && ws.WriteMessage(websocket.TextMessage, b) != nil {
				failed = true
				ws.Close()
			}
		}
		ws.Close()
	}()
	for {
		kind, data, err := ws.ReadMessage()
		if err != nil {
			break
		}
		c.handle(kind, data)
	}
	c.leave()
	close(c.out) // no room sends to c any more
}

func main() {
	port := flag.Int("port", 8080, "port on 127.0.0.1; 0 picks a free one")
	path := flag.String("archive", "games.jsonl", "file that each finished game is appended to, one JSON line")
	flag.Parse()
	file, err := os.OpenFile(*path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "listening on http://127.0.0.1:%d\n", ln.Addr().(*net.TCPAddr).Port)
	quit, done := make(chan os.Signal, 1), make(chan struct{})
	signal.Notify(quit, syscall.SIGINT, syscall.SIGTERM)
	go func() { // the archive: buffered, written once a second (quarto-server writes SQLite on its own thread)
		w, tick := bufio.NewWriterSize(file, 1<<16), time.NewTicker(time.Second)
		for {
			select {
			case line := <-archive:
				w.Write(line)
			case <-tick.C:
				w.Flush()
			case <-quit:
				for len(archive) > 0 {
					w.Write(<-archive)
				}
				w.Flush()
				file.Close()
				close(done)
				return
			}
		}
	}()
	http.HandleFunc("/ws", serve)
	go http.Serve(ln, nil)
	<-done
}
