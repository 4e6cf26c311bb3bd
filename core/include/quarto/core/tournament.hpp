// Tournament logic: round-robin schedules, Swiss pairings, standings with tie-breaks.
#pragma once

#include "quarto/core/tournament/history.hpp"
#include "quarto/core/tournament/pairing.hpp"
#include "quarto/core/tournament/round_robin.hpp"
#include "quarto/core/tournament/standings.hpp"
#include "quarto/core/tournament/swiss.hpp"
