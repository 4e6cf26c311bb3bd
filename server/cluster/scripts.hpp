// What the nodes keep in Redis, and the scripts that read and change it (each runs atomically
// in Redis). The keys:
//
//   quarto:node:{id}            a node's lease: its fencing token, 3 s TTL, renewed each second
//   quarto:node:{id}:figures    what it says of itself (/api/nodes), same TTL
//   quarto:nodes                sorted set of node ids by lease expiry (Redis's clock)
//   quarto:node-epoch           the counter fencing tokens come from (only grows)
//   quarto:owners               hash: node id -> token, of every node that may hold rooms; one
//                               with no lease is dead, and its rooms are to be taken over
//   quarto:takeover:{id}:{token} the mark of the node taking a dead one over (30 s TTL), for
//                               that token: the same node id back and dead again is marked anew
//   quarto:room:{id}            the node that holds a room
//   quarto:tournament:{id}      the node that holds a tournament
//   quarto:lobby                hash: room id -> what the lobby shows of it (shards/shard_relay.cpp)
//   quarto:tournaments          hash: tournament id -> its line in the list of tournaments
//   quarto:tournament-views     hash: tournament id -> its snapshot (GET /api/tournaments/{id})
//   quarto:player:{token hash}  a player's id and name, for 30 days from their last hello
//
// and the channels quarto:node:{id} (records for one node) and quarto:all-nodes (for every
// node). Scripts read keys they are not given (node and room keys by name): a standalone Redis
// (or one shard of keys) is assumed, not Redis Cluster.
#pragma once

#include <string_view>

namespace quarto::server::cluster::scripts {

// KEYS: the lease, the figures, the set of nodes by expiry. ARGV: token, TTL in ms, figures,
// node id, "1" when acquiring. Redis's own clock scores the set, so nodes' clocks need not agree.
// The node is listed among the owners of rooms (quarto:owners, by token). Returns {1, now,
// {id, figures, ...}, {dead owner, its token, ...}}, or {-1, holder} when another process holds
// this id, or {0, holder} when the lease being renewed is no longer this token's.
inline constexpr std::string_view heartbeat_script = R"lua(
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local held = redis.call('GET', KEYS[1])
if ARGV[5] == '1' then
  if held and held ~= ARGV[1] then return {-1, held} end
elseif held ~= ARGV[1] then
  return {0, held or ''}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
redis.call('HSET', 'quarto:owners', ARGV[4], ARGV[1])
local nodes = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], now, '+inf')) do
  local figures = redis.call('GET', 'quarto:node:' .. id .. ':figures')
  if figures then
    nodes[#nodes + 1] = id
    nodes[#nodes + 1] = figures
  end
end
local dead = {}
local owners = redis.call('HGETALL', 'quarto:owners')
for i = 1, #owners, 2 do
  if redis.call('EXISTS', 'quarto:node:' .. owners[i]) == 0 then
    dead[#dead + 1] = owners[i]
    dead[#dead + 1] = owners[i + 1]
  end
end
return {1, now, nodes, dead}
)lua";

// ARGV: the dead node, its last token, this node, the mark's TTL in ms. 1 when this node is
// the one to take it over: it is still an owner with that token, without a lease, and no other
// node has marked it.
inline constexpr std::string_view mark_dead_script = R"lua(
if redis.call('HGET', 'quarto:owners', ARGV[1]) ~= ARGV[2] then return 0 end
if redis.call('EXISTS', 'quarto:node:' .. ARGV[1]) == 1 then return 0 end
if not redis.call('SET', 'quarto:takeover:' .. ARGV[1] .. ':' .. ARGV[2], ARGV[3], 'NX', 'PX', ARGV[4]) then return 0 end
return 1
)lua";

// ARGV: the dead node, its last token. Once its rooms are taken over, it owns nothing. (The
// mark stays until it expires: a heartbeat that read the owners before this is not misled.)
inline constexpr std::string_view took_over_script = R"lua(
if redis.call('HGET', 'quarto:owners', ARGV[1]) == ARGV[2] then redis.call('HDEL', 'quarto:owners', ARGV[1]) end
return 0
)lua";

// KEYS: the counter of tokens. A counter that Redis lost (a restart without persistence) starts
// again from Redis's clock in milliseconds: far above any token handed out before, since tokens
// are taken far less often than once a millisecond. So tokens only ever grow.
inline constexpr std::string_view token_script = R"lua(
local token = redis.call('INCR', KEYS[1])
if token == 1 then
  local t = redis.call('TIME')
  token = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('SET', KEYS[1], token)
end
return token
)lua";

// KEYS: the lease, the figures, the set of nodes. ARGV: token, node id, the notice to every
// node that it is gone (so that one takes its rooms over at once, not at its next heartbeat).
inline constexpr std::string_view release_script = R"lua(
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('PUBLISH', 'quarto:all-nodes', ARGV[3])
return 1
)lua";

// KEYS: the owner record of a room or tournament. ARGV: this node's id, the records. Returns 1
// when published, 0 when no node holds it, -1 when this node does (it has dropped it since),
// -2 when its owner is not listening (down, or restarting).
inline constexpr std::string_view to_owner_script = R"lua(
local owner = redis.call('GET', KEYS[1])
if not owner then return 0 end
if owner == ARGV[1] then return -1 end
if redis.call('PUBLISH', 'quarto:node:' .. owner, ARGV[2]) == 0 then return -2 end
return 1
)lua";

// KEYS: the owner record of a room or tournament, then the hashes that show it (the lobby; the
// list of tournaments and their views). ARGV: this node's id, the room's or tournament's id.
inline constexpr std::string_view release_place_script = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  for i = 2, #KEYS do redis.call('HDEL', KEYS[i], ARGV[2]) end
end
return 0
)lua";


inline constexpr std::string_view nodes_key = "quarto:nodes";
inline constexpr std::string_view lobby_key = "quarto:lobby";
inline constexpr std::string_view tournaments_key = "quarto:tournaments";
inline constexpr std::string_view tournament_views_key = "quarto:tournament-views";
inline constexpr std::string_view all_nodes_channel = "quarto:all-nodes";
inline constexpr std::string_view epoch_key = "quarto:node-epoch";


} // namespace quarto::server::cluster::scripts
