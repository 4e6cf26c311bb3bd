// Counters of one worker thread (touched only on that thread), and the sum over workers.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "histogram.hpp"

namespace quarto::load {

struct load_stats {
    std::uint64_t moves = 0; // gives + places, counted when the opponent receives the event
    std::uint64_t gives = 0;
    std::uint64_t places = 0;
    std::uint64_t games_started = 0; // counted once per room
    std::uint64_t games_finished = 0;
    std::uint64_t wins_by_quarto = 0;
    std::uint64_t draws = 0;
    std::uint64_t other_endings = 0; // resign, timeout, missed_quarto, false_claim
    std::uint64_t messages_in = 0;
    std::uint64_t messages_out = 0;
    std::uint64_t spectator_events = 0;
    std::uint64_t seq_gaps = 0;       // a room event whose seq is not the previous + 1
    std::uint64_t desyncs = 0;        // a server event the bot's copy of the game refused
    std::uint64_t unreadable = 0;     // a server message the scanner could not read
    // A bot seated elsewhere than its role implies (creator seat 0, joiner seat 1): the server
    // let the joiner take seat 0 before it seated the room's creator. The bot plays the seat
    // its snapshot names.
    std::uint64_t seat_mismatches = 0;
    std::uint64_t connect_failures = 0;
    std::uint64_t disconnects = 0;    // connections closed or broken while the run was on
    // With --resume: a connection that closed or broke mid-run connects again, says hello with
    // its token, and its bot picks its game up from the room's snapshot.
    std::uint64_t reconnections = 0;     // welcomed again after a disconnection
    std::uint64_t reconnect_failures = 0; // gave up (--resume-timeout) without being welcomed again
    std::uint64_t rooms_back = 0;        // a bot's room snapshot after its reconnection
    std::uint64_t rooms_not_back = 0;    // bots still waiting for their room when the run ended
    std::uint64_t snapshots_unasked = 0; // a room snapshot on an open connection (the room moved to another node)
    // An action sent twice (again after a snapshot, or its connection's break), one copy taken
    // and the other refused: nothing lost.
    std::uint64_t duplicates_refused = 0;
    histogram resume_pause;              // ns, a bot's disconnection -> its room's snapshot
    std::map<std::string, std::uint64_t, std::less<>> errors; // error messages by code
    std::map<std::string, std::uint64_t, std::less<>> closes; // "close 1008: not reading", "read: ..."
    histogram latency; // ns, a bot's action -> the opponent's connection reading its event
    // ns, a bot's action -> the kernel receiving its event for the opponent (stamped_socket.hpp):
    // without the time this process took over the messages read before it.
    histogram arrival_latency;

    void merge(const load_stats& other);
};

} // namespace quarto::load
