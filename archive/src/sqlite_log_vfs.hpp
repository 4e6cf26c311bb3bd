// SQLite's default file layer with one change: the writes of the write-ahead log are gathered
// and handed to the kernel together, one system call a commit instead of two per page.
#pragma once

namespace quarto::archive::sqlite {

// The name to open connections with (registered on first use, from any thread), or nullptr
// (SQLite's default) if it cannot be registered.
const char* log_gathering_vfs();

} // namespace quarto::archive::sqlite
