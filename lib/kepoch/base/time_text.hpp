#pragma once
// Kafka's times (epoch milliseconds: a batch's max_timestamp, a record's timestamp, a
// metadata record's, a snapshot's last contained log time) as people read them, and the
// times people type (--from-time/--until) as epoch milliseconds.
//
// Written: ISO 8601 with milliseconds, "2026-12-02T03:41:13.123Z" in UTC, or in the local
// zone (the TZ environment variable, as date(1) uses it) with its offset,
// "2026-12-02T04:41:13.123+01:00". Kafka's RecordBatch.NO_TIMESTAMP (-1) is no time.
// Read: epoch milliseconds (digits, as Kafka prints them), or ISO 8601: a date
// (YYYY-MM-DD), optionally "T" or a space and HH:MM[:SS[.fff]] (a comma before the
// fraction too, as Kafka's log4j lines write it), optionally "Z" or an offset
// (+HH:MM, +HHMM, +HH). Without a zone the time is UTC, or the local zone when asked.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kepoch {

// RecordBatch.NO_TIMESTAMP.
inline constexpr std::int64_t kNoTimestamp = -1;

// The ISO 8601 text of `epoch_ms`, in UTC or in the local zone; nullopt for kNoTimestamp.
std::optional<std::string> iso_time_text(std::int64_t epoch_ms, bool local = false);

// The same text written into `out` (no allocation: a streamed dump writes one per record);
// returns its length, 0 for kNoTimestamp.
inline constexpr std::size_t kIsoTimeMax = 40;
std::size_t write_iso_time(std::int64_t epoch_ms, bool local, char (&out)[kIsoTimeMax]);

// Epoch milliseconds of `text` (the forms above); nullopt when it is none of them. A text
// without a zone is read in the local zone when `local`, else in UTC.
std::optional<std::int64_t> parse_time_text(std::string_view text, bool local = false);

// A half-open time range [from, until): either end may be open. A time filter never keeps
// kNoTimestamp (a batch or record without a time is in no range).
struct TimeRange {
  std::optional<std::int64_t> from;   // inclusive
  std::optional<std::int64_t> until;  // exclusive

  bool any() const { return from || until; }
  bool contains(std::int64_t epoch_ms) const {
    if (!any()) return true;
    if (epoch_ms == kNoTimestamp) return false;
    return (!from || epoch_ms >= *from) && (!until || epoch_ms < *until);
  }
};

}  // namespace kepoch
