// SQLite writes a page to its write-ahead log in two calls (the frame's 24-byte header, then
// the page), each a system call, and on the virtual machines the server is measured on a system
// call costs about a microsecond: the journal's thread spent a fifth of its time in those writes
// (bench/RESULTS.md, "The journal of live rooms"). This layer gathers a log's consecutive
// writes and writes them in one call when the commit's last page comes, before anything else
// touches the log.
//
// Why a commit is as safe as before: SQLite announces new frames to readers (in the log's
// index) only after the commit frame's page has been written, and that write is where the
// gathered bytes go to the kernel; so a commit that has returned is in the file, as with
// every write made at once, and a process that dies earlier loses only a commit that had not
// returned. A read, a flush, a size or a truncation of the log writes what is gathered first.
#include "sqlite_log_vfs.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <string>

#include <sqlite3.h>

namespace quarto::archive::sqlite {
namespace {

// SQLite's file format, "WAL format": a frame is a 24-byte header, then the page; bytes 4 to 7
// of the header (big-endian) are the database's size after the commit, or 0 if the frame is
// not a commit's last.
constexpr int frame_header_bytes = 24;
// Past this many gathered bytes (a large transaction), they are written at once.
constexpr std::size_t max_gathered_bytes = std::size_t{1} << 20;
// SQLite's Unix layer writes at most this many bytes a call (it masks the length with it), so
// the gathered bytes go to it in pieces: a commit of up to 31 pages of 4 KiB in one.
constexpr std::size_t max_write_bytes = 0x1ffff;

bool is_commit_frame_header(const void* header)
{
    const auto* b = static_cast<const unsigned char*>(header);
    return (b[4] | b[5] | b[6] | b[7]) != 0;
}

sqlite3_vfs* base_vfs = nullptr;

struct log_file {
    sqlite3_file file; // first: SQLite sees this
    sqlite3_file* real = nullptr;
    std::string gathered;
    sqlite3_int64 gathered_at = 0;
    sqlite3_int64 commit_page_at = -1; // where the page of a commit frame whose header came goes
};

constexpr std::size_t real_file_offset = (sizeof(log_file) + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) *
                                         alignof(std::max_align_t);

log_file& as_log(sqlite3_file* f) { return *reinterpret_cast<log_file*>(f); }

int write_gathered(log_file& log)
{
    int rc = SQLITE_OK;
    for (std::size_t done = 0; done < log.gathered.size() && rc == SQLITE_OK; done += max_write_bytes) {
        const std::size_t bytes = std::min(max_write_bytes, log.gathered.size() - done);
        rc = log.real->pMethods->xWrite(log.real, log.gathered.data() + done, static_cast<int>(bytes),
                                        log.gathered_at + static_cast<sqlite3_int64>(done));
    }
    log.gathered.clear();
    log.commit_page_at = -1;
    return rc;
}

int log_close(sqlite3_file* f)
{
    log_file& log = as_log(f);
    write_gathered(log); // SQLite closes the log only with no transaction writing
    const int rc = log.real->pMethods ? log.real->pMethods->xClose(log.real) : SQLITE_OK;
    log.~log_file();
    return rc;
}

int log_read(sqlite3_file* f, void* data, int amount, sqlite3_int64 offset)
{
    log_file& log = as_log(f);
    if (const int rc = write_gathered(log); rc != SQLITE_OK) return rc;
    return log.real->pMethods->xRead(log.real, data, amount, offset);
}

int log_write(sqlite3_file* f, const void* data, int amount, sqlite3_int64 offset)
{
    log_file& log = as_log(f);
    if (!log.gathered.empty() && offset != log.gathered_at + static_cast<sqlite3_int64>(log.gathered.size())) {
        if (const int rc = write_gathered(log); rc != SQLITE_OK) return rc;
    }
    if (log.gathered.empty()) log.gathered_at = offset;
    log.gathered.append(static_cast<const char*>(data), static_cast<std::size_t>(amount));
    bool commit_written = false;
    if (amount == frame_header_bytes)
        log.commit_page_at = is_commit_frame_header(data) ? offset + frame_header_bytes : -1;
    else if (offset == log.commit_page_at)
        commit_written = true;
    if (commit_written || log.gathered.size() >= max_gathered_bytes) return write_gathered(log);
    return SQLITE_OK;
}

int log_truncate(sqlite3_file* f, sqlite3_int64 size)
{
    log_file& log = as_log(f);
    if (const int rc = write_gathered(log); rc != SQLITE_OK) return rc;
    return log.real->pMethods->xTruncate(log.real, size);
}

int log_sync(sqlite3_file* f, int flags)
{
    log_file& log = as_log(f);
    if (const int rc = write_gathered(log); rc != SQLITE_OK) return rc;
    return log.real->pMethods->xSync(log.real, flags);
}

int log_file_size(sqlite3_file* f, sqlite3_int64* size)
{
    log_file& log = as_log(f);
    if (const int rc = write_gathered(log); rc != SQLITE_OK) return rc;
    return log.real->pMethods->xFileSize(log.real, size);
}

// The rest as the real file does them (the log takes no locks and maps no memory itself).
int log_lock(sqlite3_file* f, int level) { return as_log(f).real->pMethods->xLock(as_log(f).real, level); }
int log_unlock(sqlite3_file* f, int level) { return as_log(f).real->pMethods->xUnlock(as_log(f).real, level); }
int log_check_reserved_lock(sqlite3_file* f, int* out)
{
    return as_log(f).real->pMethods->xCheckReservedLock(as_log(f).real, out);
}
int log_file_control(sqlite3_file* f, int op, void* arg)
{
    log_file& log = as_log(f);
    if (const int rc = write_gathered(log); rc != SQLITE_OK) return rc;
    return log.real->pMethods->xFileControl(log.real, op, arg);
}
int log_sector_size(sqlite3_file* f) { return as_log(f).real->pMethods->xSectorSize(as_log(f).real); }
int log_device_characteristics(sqlite3_file* f)
{
    return as_log(f).real->pMethods->xDeviceCharacteristics(as_log(f).real);
}
int log_shm_map(sqlite3_file* f, int region, int size, int extend, void volatile** out)
{
    return as_log(f).real->pMethods->xShmMap(as_log(f).real, region, size, extend, out);
}
int log_shm_lock(sqlite3_file* f, int offset, int n, int flags)
{
    return as_log(f).real->pMethods->xShmLock(as_log(f).real, offset, n, flags);
}
void log_shm_barrier(sqlite3_file* f) { as_log(f).real->pMethods->xShmBarrier(as_log(f).real); }
int log_shm_unmap(sqlite3_file* f, int delete_flag) { return as_log(f).real->pMethods->xShmUnmap(as_log(f).real, delete_flag); }
int log_fetch(sqlite3_file* f, sqlite3_int64 offset, int amount, void** out)
{
    log_file& log = as_log(f);
    if (const int rc = write_gathered(log); rc != SQLITE_OK) return rc;
    return log.real->pMethods->xFetch(log.real, offset, amount, out);
}
int log_unfetch(sqlite3_file* f, sqlite3_int64 offset, void* page)
{
    return as_log(f).real->pMethods->xUnfetch(as_log(f).real, offset, page);
}

const sqlite3_io_methods log_methods = {
    3,
    log_close,
    log_read,
    log_write,
    log_truncate,
    log_sync,
    log_file_size,
    log_lock,
    log_unlock,
    log_check_reserved_lock,
    log_file_control,
    log_sector_size,
    log_device_characteristics,
    log_shm_map,
    log_shm_lock,
    log_shm_barrier,
    log_shm_unmap,
    log_fetch,
    log_unfetch,
};

// Every file but a log is the base's own, opened into the same memory, untouched.
int open_file(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* f, int flags, int* out_flags)
{
    if (!(flags & SQLITE_OPEN_WAL)) return base_vfs->xOpen(base_vfs, name, f, flags, out_flags);
    auto* log = new (f) log_file{};
    log->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(f) + real_file_offset);
    const int rc = base_vfs->xOpen(base_vfs, name, log->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        if (log->real->pMethods) log->real->pMethods->xClose(log->real);
        log->~log_file();
        f->pMethods = nullptr; // SQLite calls no xClose on a file that failed to open
        return rc;
    }
    f->pMethods = &log_methods;
    return SQLITE_OK;
}

sqlite3_vfs log_gathering;

const char* register_vfs()
{
    base_vfs = sqlite3_vfs_find(nullptr);
    if (!base_vfs || base_vfs->iVersion < 1) return nullptr;
    log_gathering = *base_vfs;
    log_gathering.pNext = nullptr;
    log_gathering.zName = "quarto-log-gathering";
    log_gathering.szOsFile = static_cast<int>(real_file_offset) + base_vfs->szOsFile;
    log_gathering.xOpen = open_file;
    if (sqlite3_vfs_register(&log_gathering, 0) != SQLITE_OK) return nullptr;
    return log_gathering.zName;
}

} // namespace

const char* log_gathering_vfs()
{
    static const char* const name = register_vfs(); // thread-safe once
    return name;
}

} // namespace quarto::archive::sqlite
