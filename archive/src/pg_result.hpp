// libpq's results and statement parameters, shaped for the archive's PostgreSQL engines
// (postgres_store.cpp, postgres_journal_storage.cpp).
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <libpq-fe.h>

namespace quarto::archive::detail {

// A result that frees itself. Columns are read as text unless the query asked for binary.
class pg_result {
public:
    explicit pg_result(PGresult* raw) : r_{raw} {}
    pg_result(pg_result&& other) noexcept : r_{std::exchange(other.r_, nullptr)} {}
    pg_result(const pg_result&) = delete;
    pg_result& operator=(const pg_result&) = delete;
    ~pg_result() { PQclear(r_); }

    ExecStatusType status() const { return r_ ? PQresultStatus(r_) : PGRES_FATAL_ERROR; }
    bool ok() const { return status() == PGRES_COMMAND_OK || status() == PGRES_TUPLES_OK; }
    int rows() const { return r_ ? PQntuples(r_) : 0; }
    // Rows an INSERT, UPDATE or DELETE touched.
    std::int64_t affected() const
    {
        const std::string_view text = r_ ? PQcmdTuples(r_) : "";
        std::int64_t n = 0;
        std::from_chars(text.data(), text.data() + text.size(), n);
        return n;
    }
    bool null_at(int row, int column) const { return PQgetisnull(r_, row, column) != 0; }
    std::string_view bytes_at(int row, int column) const
    {
        return {PQgetvalue(r_, row, column), static_cast<std::size_t>(PQgetlength(r_, row, column))};
    }
    std::string text_at(int row, int column) const { return std::string{bytes_at(row, column)}; }
    std::int64_t int_at(int row, int column) const
    {
        const auto text = bytes_at(row, column);
        std::int64_t value = 0;
        std::from_chars(text.data(), text.data() + text.size(), value);
        return value;
    }
    // A bigint in binary format: 8 bytes, most significant first.
    std::int64_t binary_int_at(int row, int column) const
    {
        const auto b = bytes_at(row, column);
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < 8 && i < b.size(); ++i) v = v << 8 | static_cast<unsigned char>(b[i]);
        return static_cast<std::int64_t>(v);
    }
    double double_at(int row, int column) const
    {
        const auto text = bytes_at(row, column);
        double value = 0;
        std::from_chars(text.data(), text.data() + text.size(), value);
        return value;
    }
    bool bool_at(int row, int column) const { return PQgetvalue(r_, row, column)[0] == 't'; }

private:
    PGresult* r_;
};

// A statement's parameters: text, NULL (nullopt) or binary (bytea).
class pg_parameters {
public:
    pg_parameters& add(std::string text) { return push(std::move(text), false, false); }
    pg_parameters& add(std::int64_t n) { return add(std::to_string(n)); }
    pg_parameters& add(bool b) { return add(std::string{b ? "true" : "false"}); }
    // The shortest text that reads back as the same double (named apart, as an int argument
    // would fit add(int64) and add(double) alike).
    pg_parameters& add_double(double d)
    {
        char text[32];
        const auto end = std::to_chars(text, text + sizeof text, d).ptr;
        return add(std::string{text, end});
    }
    pg_parameters& add(const char*) = delete; // would be taken as a bool
    pg_parameters& add(std::optional<std::int64_t> n) { return n ? add(*n) : push({}, true, false); }
    pg_parameters& add_binary(std::string_view bytes) { return push(std::string{bytes}, false, true); }

    // A statement not prepared: SQL text with $1, $2, ...
    PGresult* run_sql(PGconn* c, const char* sql) const
    {
        const arrays a{params_};
        return PQexecParams(c, sql, a.count(), nullptr, a.values.data(), a.lengths.data(), a.formats.data(), 0);
    }

    PGresult* run(PGconn* c, const char* statement, bool binary_result = false) const
    {
        const arrays a{params_};
        return PQexecPrepared(c, statement, a.count(), a.values.data(), a.lengths.data(), a.formats.data(),
                              binary_result ? 1 : 0);
    }

private:
    struct param;
    // libpq's view of the parameters: pointers into them, their lengths and formats.
    struct arrays {
        explicit arrays(const std::vector<param>& params)
        {
            for (const auto& p : params) {
                values.push_back(p.null ? nullptr : p.value.data());
                lengths.push_back(static_cast<int>(p.value.size()));
                formats.push_back(p.binary ? 1 : 0);
            }
        }
        int count() const { return static_cast<int>(values.size()); }
        std::vector<const char*> values;
        std::vector<int> lengths, formats;
    };
    struct param {
        std::string value;
        bool null, binary;
    };
    pg_parameters& push(std::string value, bool null, bool binary)
    {
        params_.push_back({std::move(value), null, binary});
        return *this;
    }
    std::vector<param> params_;
};

} // namespace quarto::archive::detail
