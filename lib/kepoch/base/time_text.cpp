#include "kepoch/base/time_text.hpp"

#include <cctype>
#include <charconv>
#include <cstring>
#include <ctime>
#include <limits>

namespace kepoch {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil):
// exact for every year, without the C library's time_t range or zone.
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct Civil {
  std::int64_t year;
  unsigned month;
  unsigned day;
};

Civil civil_from_days(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2), m, d};
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

// The local zone's offset from UTC, in seconds, at `epoch_seconds` (TZ as the C library
// reads it; 0 when it cannot tell). Zones change offset on quarter hours: the last quarter
// hour's answer is kept, so a dump of millions of records asks the C library rarely.
long local_offset_at(std::int64_t epoch_seconds) {
  thread_local std::int64_t cached_quarter = std::numeric_limits<std::int64_t>::min();
  thread_local long cached_offset = 0;
  const std::int64_t quarter = floor_div(epoch_seconds, 900);
  if (quarter == cached_quarter) return cached_offset;
  const auto t = static_cast<std::time_t>(epoch_seconds);
  std::tm tm{};
  cached_offset = localtime_r(&t, &tm) == nullptr ? 0 : tm.tm_gmtoff;
  cached_quarter = quarter;
  return cached_offset;
}

void put_digits(char*& at, std::int64_t v, int n) {
  for (int i = n - 1; i >= 0; --i) {
    at[i] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  at += n;
}

// "YYYY-MM-DDTHH:MM:SS" of a second since the epoch (already shifted to the zone); returns
// the end.
char* format_second(std::int64_t second, char* at) {
  const std::int64_t days = floor_div(second, 86400);
  const std::int64_t in_day = second - days * 86400;
  const Civil c = civil_from_days(days);
  if (c.year < 0 || c.year > 9999) {  // outside ISO 8601's four digits: the sign and digits
    const auto r = std::to_chars(at, at + 20, c.year);
    at = r.ptr;
  } else {
    put_digits(at, c.year, 4);
  }
  *at++ = '-';
  put_digits(at, c.month, 2);
  *at++ = '-';
  put_digits(at, c.day, 2);
  *at++ = 'T';
  put_digits(at, in_day / 3600, 2);
  *at++ = ':';
  put_digits(at, in_day / 60 % 60, 2);
  *at++ = ':';
  put_digits(at, in_day % 60, 2);
  return at;
}

// The text of the last second formatted: a dump's records mostly share their batch's second
// (and a batch's times sit close together), so most times cost a copy and the milliseconds.
struct LastSecond {
  std::int64_t second = std::numeric_limits<std::int64_t>::min();
  std::size_t size = 0;
  char text[kIsoTimeMax];
};

std::size_t format_at(std::int64_t epoch_ms, long offset_seconds, bool with_offset,
                      char (&out)[kIsoTimeMax]) {
  thread_local LastSecond last;
  // A hostile record's timestamp may be any long: the zone's shift must not overflow; past a
  // limit it stops at it.
  std::int64_t shifted = 0;
  if (__builtin_add_overflow(epoch_ms, static_cast<std::int64_t>(offset_seconds) * 1000, &shifted))
    shifted = offset_seconds < 0 ? std::numeric_limits<std::int64_t>::min()
                                 : std::numeric_limits<std::int64_t>::max();
  const std::int64_t second = floor_div(shifted, 1000);
  if (second != last.second || last.size == 0) {
    last.size = static_cast<std::size_t>(format_second(second, last.text) - last.text);
    last.second = second;
  }
  std::memcpy(out, last.text, last.size);
  char* at = out + last.size;
  *at++ = '.';
  // The milliseconds from the remainder: second * 1000 overflows near INT64_MIN.
  const std::int64_t ms = shifted % 1000;
  put_digits(at, ms < 0 ? ms + 1000 : ms, 3);
  if (!with_offset) {
    *at++ = 'Z';
  } else {
    const long a = offset_seconds < 0 ? -offset_seconds : offset_seconds;
    *at++ = offset_seconds < 0 ? '-' : '+';
    put_digits(at, a / 3600, 2);
    *at++ = ':';
    put_digits(at, a % 3600 / 60, 2);
  }
  return static_cast<std::size_t>(at - out);
}

// A cursor over the text being parsed.
struct Reader {
  std::string_view s;
  std::size_t at = 0;

  bool done() const { return at == s.size(); }
  bool take(char c) {
    if (at < s.size() && s[at] == c) return ++at, true;
    return false;
  }
  // Exactly `n` digits.
  std::optional<unsigned> digits(std::size_t n) {
    if (s.size() - at < n) return std::nullopt;
    unsigned v = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const char c = s[at + i];
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      v = v * 10 + static_cast<unsigned>(c - '0');
    }
    at += n;
    return v;
  }
};

}  // namespace

std::size_t write_iso_time(std::int64_t epoch_ms, bool local, char (&out)[kIsoTimeMax]) {
  if (epoch_ms == kNoTimestamp) return 0;
  if (!local) return format_at(epoch_ms, 0, false, out);
  return format_at(epoch_ms, local_offset_at(floor_div(epoch_ms, 1000)), true, out);
}

std::optional<std::string> iso_time_text(std::int64_t epoch_ms, bool local) {
  char text[kIsoTimeMax];
  const std::size_t n = write_iso_time(epoch_ms, local, text);
  if (n == 0) return std::nullopt;
  return std::string(text, n);
}

std::optional<std::int64_t> parse_time_text(std::string_view text, bool local) {
  // Epoch milliseconds: digits only (an optional minus: times before 1970 are times too).
  {
    const std::size_t start = !text.empty() && text[0] == '-' ? 1 : 0;
    if (text.size() > start && text.find_first_not_of("0123456789", start) == text.npos) {
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
      return v;
    }
  }
  Reader r{text};
  const auto year = r.digits(4);
  if (!year || !r.take('-')) return std::nullopt;
  const auto month = r.digits(2);
  if (!month || !r.take('-')) return std::nullopt;
  const auto day = r.digits(2);
  if (!day || *month < 1 || *month > 12 || *day < 1) return std::nullopt;
  static constexpr unsigned kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (*year % 4 == 0 && *year % 100 != 0) || *year % 400 == 0;
  if (*day > kDays[*month - 1] || (*month == 2 && *day == 29 && !leap)) return std::nullopt;
  unsigned hour = 0, minute = 0, second = 0, millis = 0;
  if (r.take('T') || r.take(' ')) {
    const auto h = r.digits(2);
    if (!h || !r.take(':')) return std::nullopt;
    const auto m = r.digits(2);
    if (!m || *h > 23 || *m > 59) return std::nullopt;
    hour = *h;
    minute = *m;
    if (r.take(':')) {
      const auto sec = r.digits(2);
      if (!sec || *sec > 59) return std::nullopt;
      second = *sec;
      if (r.take('.') || r.take(',')) {
        // Up to nanoseconds; milliseconds are kept (Kafka's times have no finer unit).
        std::size_t n = 0;
        unsigned scale = 100;
        while (!r.done() && std::isdigit(static_cast<unsigned char>(r.s[r.at]))) {
          millis += static_cast<unsigned>(r.s[r.at] - '0') * scale;
          scale /= 10;
          ++r.at;
          ++n;
        }
        if (n == 0 || n > 9) return std::nullopt;
      }
    }
  }
  const std::int64_t wall =
      (days_from_civil(*year, *month, *day) * 86400 + hour * 3600 + minute * 60 + second) * 1000 +
      millis;
  if (r.done()) {
    if (!local) return wall;
    // The local offset at that wall time: mktime resolves it as the zone's rules say (an
    // hour skipped or repeated by daylight saving takes the C library's choice).
    std::tm tm{};
    tm.tm_year = static_cast<int>(*year) - 1900;
    tm.tm_mon = static_cast<int>(*month) - 1;
    tm.tm_mday = static_cast<int>(*day);
    tm.tm_hour = static_cast<int>(hour);
    tm.tm_min = static_cast<int>(minute);
    tm.tm_sec = static_cast<int>(second);
    tm.tm_isdst = -1;
    const std::time_t t = std::mktime(&tm);
    if (t == static_cast<std::time_t>(-1)) return std::nullopt;
    return static_cast<std::int64_t>(t) * 1000 + millis;
  }
  if (r.take('Z')) return r.done() ? std::optional<std::int64_t>(wall) : std::nullopt;
  const bool minus = r.take('-');
  if (!minus && !r.take('+')) return std::nullopt;
  const auto oh = r.digits(2);
  if (!oh || *oh > 23) return std::nullopt;
  unsigned om = 0;
  if (!r.done()) {
    r.take(':');
    const auto m = r.digits(2);
    if (!m || *m > 59) return std::nullopt;
    om = *m;
  }
  if (!r.done()) return std::nullopt;
  const std::int64_t offset_ms = (static_cast<std::int64_t>(*oh) * 3600 + om * 60) * 1000;
  return minus ? wall + offset_ms : wall - offset_ms;
}

}  // namespace kepoch
