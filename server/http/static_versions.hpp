// Versioned addresses for the browser client's files: a page names its files under
// /v/<version>/..., where the version is a hash of every file the web root serves, so that a
// browser may keep them for a year and still never use an old one (any change gives every file
// a new address). ES modules' relative imports, static or import(), resolve under the same
// prefix; the page itself is revalidated on every visit and carries the addresses of the day.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace quarto::server::http {

inline constexpr std::string_view versioned_prefix = "/v/";

struct versioned_target {
    std::string_view version;
    std::string_view target; // the file's own target, from its '/' on ("/js/app.js")
};

// "/v/<version>/js/app.js?x" -> {"<version>", "/js/app.js?x"}; nullopt for any other target.
std::optional<versioned_target> split_versioned(std::string_view target);

// `html` with every relative src="..." and href="..." that names a file of the web root
// (`exists`, given the target "/<dir><value>") written under "/v/<version>/<dir>": `dir` is the
// page's own folder below the root ("" for the root, else ending in '/'). Links within the page
// ("#/rules"), absolute paths, and addresses with a scheme ("data:", "https:") are left alone.
std::string with_versioned_urls(std::string_view html, std::string_view version, std::string_view dir,
                                const std::function<bool(std::string_view target)>& exists);

} // namespace quarto::server::http
