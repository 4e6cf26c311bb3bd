// The end of a run: the verdict (an honest game went wrong, the server died, or its RSS did not
// come back), the report on the terminal, and the JSON summary.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "options.hpp"
#include "soak.hpp"

namespace quarto::chaos {

struct verdict {
    bool pass = true;
    std::vector<std::string> reasons; // why not
};

verdict judge(const options& o, const soak& s);
void print_report(std::ostream& out, const options& o, const soak& s, const verdict& v);
nlohmann::json json_report(const options& o, const soak& s, const verdict& v);

} // namespace quarto::chaos
