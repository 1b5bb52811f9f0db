// Kafka's epoch-millisecond times as ISO 8601, and the times people type.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <ctime>
#include <limits>
#include <string>

#include "kepoch/base/time_text.hpp"

using kepoch::iso_time_text;
using kepoch::kNoTimestamp;
using kepoch::parse_time_text;
using kepoch::TimeRange;

namespace {

// TZ set for one test, restored after (the C library reads it through tzset).
struct ZoneFor {
  explicit ZoneFor(const char* tz) {
    if (const char* old = std::getenv("TZ")) saved = old;
    setenv("TZ", tz, 1);
    tzset();
  }
  ~ZoneFor() {
    if (saved.empty())
      unsetenv("TZ");
    else
      setenv("TZ", saved.c_str(), 1);
    tzset();
  }
  std::string saved;
};

}  // namespace

TEST_CASE("iso_time_text: UTC with milliseconds, NO_TIMESTAMP is no time", "[base][time]") {
  CHECK(iso_time_text(0) == "1970-01-01T00:00:00.000Z");
  CHECK(iso_time_text(1796182873123) == "2026-12-02T03:41:13.123Z");
  CHECK(iso_time_text(951782400000) == "2000-02-29T00:00:00.000Z");  // a leap day
  CHECK(iso_time_text(-2) == "1969-12-31T23:59:59.998Z");            // a time, not -1
  CHECK_FALSE(iso_time_text(kNoTimestamp).has_value());
  CHECK_FALSE(iso_time_text(kNoTimestamp, true).has_value());
  // A hostile record's timestamp may be any long: no step overflows (UBSan checks it).
  CHECK(iso_time_text(std::numeric_limits<std::int64_t>::min()) ==
        "-292275055-05-16T16:47:04.192Z");
  CHECK(iso_time_text(std::numeric_limits<std::int64_t>::max()) == "292278994-08-17T07:12:55.807Z");
  CHECK(iso_time_text(std::numeric_limits<std::int64_t>::min(), true).has_value());
  CHECK(iso_time_text(std::numeric_limits<std::int64_t>::max(), true).has_value());
}

TEST_CASE("iso_time_text: times in a row (the last second's text reused) read back exactly",
          "[base][time]") {
  // Neighbours in the same second, the next second, a day and a year apart, before 1970:
  // each text parses back to its time, whatever was formatted before it.
  std::int64_t t = -86400000LL * 400;
  for (int i = 0; i < 20000; ++i) {
    t += (i % 7 == 0) ? 86400000LL * 37 + 999 : (i % 3 == 0) ? 1000 : (i % 5);
    const auto text = iso_time_text(t);
    REQUIRE(text.has_value());
    INFO(*text);
    REQUIRE(parse_time_text(*text, false) == t);
    // The same second again after another one: the text does not depend on what came before.
    REQUIRE(iso_time_text(t + 86400000LL * 3) != text);
    REQUIRE(iso_time_text(t) == text);
  }
  CHECK(iso_time_text(1796182873123) == "2026-12-02T03:41:13.123Z");
  CHECK(iso_time_text(1796182873999) == "2026-12-02T03:41:13.999Z");
  CHECK(iso_time_text(1796182874000) == "2026-12-02T03:41:14.000Z");
}

TEST_CASE("iso_time_text: the local zone with its offset, daylight saving included",
          "[base][time]") {
  ZoneFor zone("Europe/Berlin");
  CHECK(iso_time_text(1796182873123, true) == "2026-12-02T04:41:13.123+01:00");  // winter
  CHECK(iso_time_text(1780000000000, true) == "2026-05-28T22:26:40.000+02:00");  // summer
  ZoneFor west("America/St_Johns");  // a zone off the hour, west of UTC
  CHECK(iso_time_text(1796182873123, true) == "2026-12-02T00:11:13.123-03:30");
}

TEST_CASE("parse_time_text: epoch milliseconds and ISO 8601 forms", "[base][time]") {
  CHECK(parse_time_text("1796182873123") == 1796182873123);
  CHECK(parse_time_text("2026-12-02T03:41:13.123Z") == 1796182873123);
  CHECK(parse_time_text("2026-12-02T03:41:13.123") == 1796182873123);  // no zone: UTC
  CHECK(parse_time_text("2026-12-02 03:41:13,123") == 1796182873123);  // log4j's form
  CHECK(parse_time_text("2026-12-02T04:41:13.123+01:00") == 1796182873123);
  CHECK(parse_time_text("2026-12-02T04:41:13.123+0100") == 1796182873123);
  CHECK(parse_time_text("2026-12-02T00:11:13.123-03:30") == 1796182873123);
  CHECK(parse_time_text("2026-12-02T03:41:13.123456789Z") == 1796182873123);
  CHECK(parse_time_text("2026-12-02T03:41Z") == 1796182860000);
  CHECK(parse_time_text("2026-12-02") == 1796169600000);
  for (const char* bad :
       {"", "yesterday", "2026-13-01", "2026-02-29", "2026-12-02T24:00", "2026-12-02T03:41:13.Z",
        "2026-12-02T03:41:13Zjunk", "12:00", "2026-12-02T03:41:13+25:00", "99999999999999999999"})
    CHECK_FALSE(parse_time_text(bad).has_value());
}

TEST_CASE("parse_time_text: a time without a zone in the local zone when asked", "[base][time]") {
  ZoneFor zone("Europe/Berlin");
  CHECK(parse_time_text("2026-12-02T04:41:13.123", true) == 1796182873123);
  CHECK(parse_time_text("2026-12-02T04:41:13.123Z", true) == 1796182873123 + 3600000);
  // A written offset wins over the local zone.
  CHECK(parse_time_text("2026-12-02T03:41:13.123Z", true) == 1796182873123);
}

TEST_CASE("TimeRange: from inclusive, until exclusive, and NO_TIMESTAMP in no range",
          "[base][time]") {
  const TimeRange all;
  CHECK(all.contains(kNoTimestamp));
  const TimeRange r{100, 200};
  CHECK(r.contains(100));
  CHECK(r.contains(199));
  CHECK_FALSE(r.contains(200));
  CHECK_FALSE(r.contains(99));
  CHECK_FALSE(r.contains(kNoTimestamp));
  CHECK_FALSE(TimeRange{std::nullopt, 200}.contains(kNoTimestamp));
}
