#include "quarto/model/room.hpp"

namespace quarto::model {

std::string_view to_string(room_status s)
{
    switch (s) {
    case room_status::waiting: return "waiting";
    case room_status::playing: return "playing";
    case room_status::finished: return "finished";
    }
    return "waiting";
}

} // namespace quarto::model
