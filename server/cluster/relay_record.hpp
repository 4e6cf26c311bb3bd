// What nodes send each other through Redis, on each node's channel (quarto:node:{id}): records,
// several to a PUBLISH, each `<kind> <length>\n<body>`. The body is one header line (the sending
// node, the client on its own node, the place) then the player (JSON) and the text, whose
// lengths the header gives, so that no byte of a client's message or of an event is escaped.
//
//   message       a client's message for a room held by the receiving node (client's node -> owner)
//   detach        that client has closed: it leaves the room                 (client's node -> owner)
//   frame         an event or reply for that client                          (owner -> client's node)
//   subscribed    the room sends that client its events from now on          (owner -> client's node)
//   unsubscribed  it no longer does                                          (owner -> client's node)
//   resume        that client (a player of the room) is back: the snapshot  (client's node -> owner)
//   moved         the room or tournament is on `from_node` now (it took it over); the player field
//                 lists its people's ids (JSON)                             (new owner -> every node)
//   gone          `from_node` has stopped: its rooms are to be taken over    (that node -> every node)
//   back          that client's player said hello with their token: each node gives it the
//                 rooms and tournaments of the player's that it holds      (client's node -> every node)
//   renamed       the player has a new name: each node's rooms and tournaments of theirs show it
//                                                                           (client's node -> every node)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace quarto::server::cluster {

// A client as its own node names it (its shard, slot and the slot's generation).
struct client_address {
    std::uint16_t shard = 0;
    std::uint32_t slot = 0;
    std::uint32_t generation = 0;
    friend bool operator==(const client_address&, const client_address&) = default;
};

struct relay_record {
    enum class kind : char {
        message = 'M',
        detach = 'D',
        frame = 'F',
        subscribed = 'S',
        unsubscribed = 'U',
        resume = 'R',
        moved = 'X',
        gone = 'G',
        back = 'B',
        renamed = 'N',
    };

    kind type = kind::frame;
    std::string from_node;    // message, detach: the client's node
    client_address client;
    bool tournament = false;  // the place is a tournament (else a room)
    std::string place;        // the room's id; empty for a frame
    std::string player;       // message, resume, back: the player (shards/player_json.hpp); moved: ids
    std::string text;         // message: the client's JSON; frame: the event's

    friend bool operator==(const relay_record&, const relay_record&) = default;
};

void append(std::string& out, const relay_record& r);

// Every record of `payload`; false (with the records read so far) when it is malformed.
bool parse_records(std::string_view payload, std::vector<relay_record>& out);

} // namespace quarto::server::cluster
