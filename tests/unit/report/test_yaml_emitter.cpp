// The direct YAML writer (yaml_emitter, yaml_object_writer) against yaml-cpp 0.7's emitter,
// the one `-o yaml` used before: on random documents full of the characters where yaml-cpp
// changes its mind (quotes, escapes, long keys, empty groups), the text is byte for byte
// yaml-cpp's.
#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kepoch/base/time_text.hpp"
#include "kepoch/report/json_object_writer.hpp"
#include "kepoch/report/object_writer.hpp"
#include "kepoch/report/yaml_emitter.hpp"
#include "kepoch/report/yaml_object_writer.hpp"

using kepoch::report::ObjectWriter;
using kepoch::report::Value;
using kepoch::report::ValueBuilder;
using kepoch::report::detail::emit_yaml;
using kepoch::report::detail::needs_quotes;
using kepoch::report::detail::yaml_as_is;
using kepoch::report::detail::yaml_plain_ok;
using kepoch::report::detail::YamlEmitter;
using kepoch::report::detail::YamlObjectWriter;

namespace {

// render.cpp's emitter before the direct writer, on yaml-cpp.
void reference_emit(YAML::Emitter& e, const Value& v) {
  struct Visitor {
    YAML::Emitter& e;
    void operator()(std::monostate) const { e << YAML::Null; }
    void operator()(bool b) const { e << b; }
    void operator()(std::int64_t i) const { e << i; }
    void operator()(double d) const { e << d; }
    void operator()(const std::string& s) const {
      if (needs_quotes(s)) e << YAML::DoubleQuoted;
      e << s;
    }
    void operator()(const Value::Array& a) const {
      if (a.empty()) {
        e << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
        return;
      }
      e << YAML::BeginSeq;
      for (const auto& x : a)
        reference_emit(e, x);
      e << YAML::EndSeq;
    }
    void operator()(const Value::Object& o) const {
      if (o.empty()) {
        e << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        return;
      }
      e << YAML::BeginMap;
      for (const auto& [k, x] : o) {
        e << YAML::Key << k << YAML::Value;
        reference_emit(e, x);
      }
      e << YAML::EndMap;
    }
  };
  std::visit(Visitor{e}, v.data());
}

std::string reference_text(const Value& v) {
  YAML::Emitter e;
  reference_emit(e, v);
  return e.c_str();
}

std::string direct_text(const Value& v) {
  std::string out;
  YamlEmitter e(out);
  emit_yaml(e, v);
  return out;
}

// Pieces yaml-cpp's rules turn on: indicators, blanks and breaks, control and C1 characters,
// a BOM, the words and numbers kepoch quotes. (Not those where kepoch departs from yaml-cpp,
// whose text no reader takes: ill-formed UTF-8, DEL, a lone CR, NEL, U+FFFE; kUnreadable.)
const std::vector<std::string> kPieces = {"a",
                                          "b",
                                          "Z",
                                          "0",
                                          "7",
                                          ".",
                                          "e",
                                          "x",
                                          " ",
                                          "\t",
                                          "\n",
                                          "\r\n",
                                          ":",
                                          "#",
                                          "-",
                                          "?",
                                          ",",
                                          "[",
                                          "]",
                                          "{",
                                          "}",
                                          "&",
                                          "*",
                                          "!",
                                          "|",
                                          ">",
                                          "'",
                                          "\"",
                                          "%",
                                          "@",
                                          "`",
                                          "\\",
                                          "/",
                                          "+",
                                          "_",
                                          "~",
                                          std::string(1, '\0'),
                                          "\x01",
                                          "\x04",
                                          "\x08",
                                          "\x0b",
                                          "\x0c",
                                          "\x1b",
                                          "\x1f",
                                          "\xc2\x80",
                                          "\xc2\xa0",
                                          "\xc2\xa1",
                                          "\xef\xbb\xbf",
                                          "\xc3\xa9",
                                          "\xe2\x82\xac",
                                          "\xf0\x9f\x98\x80",
                                          "true",
                                          "null",
                                          "Null",
                                          "yes",
                                          "on",
                                          "0x1f",
                                          "1e5",
                                          "-1",
                                          "1.5",
                                          "--",
                                          "...",
                                          "---",
                                          "- ",
                                          ": ",
                                          " #",
                                          "a: b"};

std::string random_string(std::mt19937& rng) {
  std::string s;
  const std::size_t n = rng() % 6;
  for (std::size_t i = 0; i < n; ++i)
    s += kPieces[rng() % kPieces.size()];
  if (rng() % 97 == 0) s += std::string(1000 + rng() % 60, 'k');  // around the long-key limit
  return s;
}

Value random_scalar(std::mt19937& rng) {
  switch (rng() % 8) {
    case 0:
      return Value();
    case 1:
      return Value(rng() % 2 == 0);
    case 2:
      return Value(static_cast<std::int64_t>(rng()) - (std::int64_t{1} << 31));
    case 3: {
      static const double kDoubles[] = {0.1,
                                        -0.0,
                                        3.0,
                                        1e300,
                                        2.5e-8,
                                        1.0 / 3,
                                        std::numeric_limits<double>::quiet_NaN(),
                                        std::numeric_limits<double>::infinity(),
                                        -std::numeric_limits<double>::infinity()};
      return Value(kDoubles[rng() % std::size(kDoubles)]);
    }
    default:
      return Value(random_string(rng));
  }
}

Value random_value(std::mt19937& rng, int depth) {
  const unsigned kind = depth > 3 ? 0 : rng() % 4;
  if (kind < 2) return random_scalar(rng);
  const std::size_t n = rng() % 4;
  if (kind == 2) {
    Value a = Value::array();
    for (std::size_t i = 0; i < n; ++i)
      a.push(random_value(rng, depth + 1));
    return a;
  }
  Value o = Value::object();
  for (std::size_t i = 0; i < n; ++i)
    o.set(random_string(rng) + std::to_string(i), random_value(rng, depth + 1));  // unique
  return o;
}

// Runs of integer members (ObjectWriter::integers): plain keys, keys yaml-cpp quotes, a key
// past 1024 bytes (a long key), one member. No name ends in a digit, as random keys do.
constexpr std::string_view kPlainRun[] = {"offset", "timestamp", "sequence", "size"};
constexpr std::string_view kQuotedRun[] = {"true", "a: b", "#c", "", "- d"};
constexpr auto kLongName = [] {
  std::array<char, 1100> a{};
  a.fill('k');
  return a;
}();
constexpr std::string_view kLongRun[] = {"short", std::string_view(kLongName.data(), 1100)};
constexpr std::string_view kOneRun[] = {"x"};

std::int64_t random_integer(std::mt19937& rng) {
  switch (rng() % 4) {
    case 0:
      return std::numeric_limits<std::int64_t>::min();
    case 1:
      return std::numeric_limits<std::int64_t>::max();
    case 2:
      return -1;
    default:
      return static_cast<std::int64_t>(rng()) * (rng() % 2 ? 1 : -100003);
  }
}

// Some of the runs above, each at most once (member names are unique), in random order.
std::vector<std::function<void(ObjectWriter&)>> random_runs(std::mt19937& rng) {
  std::vector<std::function<void(ObjectWriter&)>> calls;
  const auto add = [&](const kepoch::report::MemberNames& names) {
    if (rng() % 2) return;
    std::vector<std::int64_t> values;
    for (std::size_t i = 0; i < names.size(); ++i)
      values.push_back(random_integer(rng));
    calls.push_back([names, values](ObjectWriter& w) { w.integers(names, values); });
  };
  add(kPlainRun);
  add(kQuotedRun);
  add(kLongRun);
  add(kOneRun);
  std::shuffle(calls.begin(), calls.end(), rng);
  return calls;
}

// `text` placed after a prefix of `indent` columns: its lines after the first indented.
std::string indented(const std::string& text, std::size_t indent) {
  std::string out;
  for (const char c : text) {
    out += c;
    if (c == '\n') out.append(indent, ' ');
  }
  return out;
}

}  // namespace

TEST_CASE("YAML text is yaml-cpp's, byte for byte, on random documents", "[render][yaml]") {
  std::mt19937 rng(21);
  for (int i = 0; i < 20000; ++i) {
    const Value v = random_value(rng, 0);
    const std::string want = reference_text(v);
    INFO("document " << i << ":\n" << want);
    REQUIRE(direct_text(v) == want);
  }
}

TEST_CASE("YAML strings: plain exactly where yaml-cpp writes them plain", "[render][yaml]") {
  // Every string of up to two pieces, as a value and as a key.
  for (const auto& a : kPieces) {
    for (const auto& b : kPieces) {
      for (const std::string& s : {a, a + b, b + "x" + a}) {
        INFO("string of " << s.size() << " bytes");
        Value map = Value::object().set(s, s);
        REQUIRE(direct_text(map) == reference_text(map));
        Value seq = Value::array().push(s).push(Value::array().push(s));
        REQUIRE(direct_text(seq) == reference_text(seq));
      }
    }
  }
}

TEST_CASE("YAML strings of letters, digits and _.-:+/ (one pass): plain where yaml-cpp's are",
          "[render][yaml]") {
  for (const std::string s : {"2026-12-02T03:44:03.675Z",
                              "2026-12-02T04:41:13.123+01:00",
                              "create-time",
                              "-",
                              ":",
                              "-:",
                              ":-",
                              "a:",
                              "a:b",
                              "::",
                              "-a",
                              ".a",
                              "+1",
                              "a/b",
                              "/",
                              "null",
                              "Null",
                              "NULL",
                              "nulls",
                              "_",
                              "1:2:3",
                              "http://x",
                              "--",
                              "-1"}) {
    INFO(s);
    Value map = Value::object().set(s, s);
    CHECK(direct_text(map) == reference_text(map));
  }
}

TEST_CASE("YAML objects written member by member equal the Value's YAML", "[render][yaml]") {
  std::mt19937 rng(22);
  for (int i = 0; i < 5000; ++i) {
    // A random call sequence: scalar members, Values, and lists of objects.
    std::vector<std::function<void(ObjectWriter&)>> calls;
    const std::size_t members = rng() % 5;
    for (std::size_t m = 0; m < members; ++m) {
      const std::string key = random_string(rng) + "#" + std::to_string(m);
      const Value v = random_value(rng, 1);
      if (rng() % 3 == 0) {
        std::vector<Value> objects;
        for (std::size_t k = rng() % 3; k > 0; --k) {
          Value o = random_value(rng, 3);
          objects.push_back(o.is_object() ? o : Value::object());
        }
        calls.push_back([key, objects](ObjectWriter& w) {
          w.begin_objects(key);
          for (const auto& o : objects) {
            w.begin_object();
            w.members(o);
            w.end_object();
          }
          w.end_objects();
        });
      } else {
        calls.push_back([key, v](ObjectWriter& w) {
          Value one = Value::object().set(key, v);
          w.members(one);
        });
      }
    }
    ValueBuilder builder;
    std::string direct;
    YamlObjectWriter writer(direct);
    writer.begin();
    for (const auto& c : calls) {
      c(builder);
      c(writer);
    }
    writer.end();
    const std::string want = reference_text(builder.take());
    INFO("object " << i << ":\n" << want);
    REQUIRE(direct == want);
  }
}

TEST_CASE("YAML runs of integer members: the text of one member at a time, at any indent",
          "[render][yaml]") {
  std::mt19937 rng(23);
  // One writer for many objects (as the YAML stream keeps one), at base indents 0 and 6.
  std::string at0, at6;
  YamlObjectWriter writer0(at0), writer6(at6, 6);
  for (int i = 0; i < 5000; ++i) {
    std::vector<std::function<void(ObjectWriter&)>> calls = random_runs(rng);
    const Value scalar = random_value(rng, 2);
    calls.insert(calls.begin() + static_cast<std::ptrdiff_t>(rng() % (calls.size() + 1)),
                 [scalar](ObjectWriter& w) { w.value("v#", scalar); });
    if (rng() % 2) {
      std::vector<std::vector<std::function<void(ObjectWriter&)>>> objects;
      for (std::size_t k = rng() % 3; k > 0; --k)
        objects.push_back(random_runs(rng));
      calls.push_back([objects](ObjectWriter& w) {
        w.begin_objects("records");
        for (const auto& o : objects) {
          w.begin_object();
          for (const auto& c : o)
            c(w);
          w.end_object();
        }
        w.end_objects();
      });
    }
    ValueBuilder builder;
    at0.clear();
    at6.clear();
    writer0.begin();
    writer6.begin();
    for (const auto& c : calls) {
      c(builder);
      c(writer0);
      c(writer6);
    }
    writer0.end();
    writer6.end();
    const std::string want = reference_text(builder.take());
    INFO("object " << i << ":\n" << want);
    REQUIRE(at0 == want);
    REQUIRE(at6 == indented(want, 6));
  }
}

TEST_CASE("YAML values quoted on purpose: words, numbers, edge spaces", "[render][yaml]") {
  // The rule as first written (render.cpp), to hold the one-pass version to it.
  const auto rule = [](std::string_view s) {
    if (s.empty()) return true;
    for (const auto w :
         {"true",  "false", "yes",  "no",   "on",    "off", "null", "~",   "y",  "n",  "True",
          "False", "Null",  "NULL", "TRUE", "FALSE", "Yes", "No",   "YES", "NO", "On", "Off"})
      if (s == w) return true;
    bool digit = false, numeric_chars = true;
    for (const char c : s) {
      digit = digit || (c >= '0' && c <= '9');
      numeric_chars =
          numeric_chars &&
          std::string_view("+-0123456789.eE_xXoabcdefABCDEF").find(c) != std::string_view::npos;
    }
    return (numeric_chars && digit) || s.front() == ' ' || s.back() == ' ';
  };
  std::mt19937 rng(24);
  const std::string alphabet = "0123456789+-.eE_xXoabcdefgABCDEFG ntruyNO~\x01\xc3";
  for (int i = 0; i < 200000; ++i) {
    std::string s;
    for (std::size_t n = rng() % 7; n > 0; --n)
      s += alphabet[rng() % alphabet.size()];
    INFO("'" << s << "'");
    REQUIRE(needs_quotes(s) == rule(s));
  }
  for (const auto* w : {"true", "Off", "~", "12", "0x1f", "1e5", " x", "x ", "none", "create-time"})
    CHECK(needs_quotes(w) == rule(w));
}

TEST_CASE("YAML as-is strings: the ISO-time shortcut agrees with the quoting rules",
          "[render][yaml]") {
  const auto rule = [](std::string_view s) { return !needs_quotes(s) && yaml_plain_ok(s); };
  // Real ISO times (UTC, and the local zone's offsets), then each one with a byte changed at
  // every position, cut short or made longer.
  std::vector<std::string> times;
  for (const std::int64_t ms : {std::int64_t{0}, std::int64_t{1764646443675}, std::int64_t{-1000},
                                std::int64_t{253402300799999}, std::int64_t{-62135596800000}}) {
    char text[kepoch::kIsoTimeMax];
    times.emplace_back(text, kepoch::write_iso_time(ms, false, text));
  }
  times.push_back("2026-12-02T04:41:13.123+01:00");
  times.push_back("2026-12-02T04:41:13.123-09:30");
  const std::string bytes = std::string("0959-+,.:/TZtz #\"'\x01\x7f\xc3\xa9~") + '\0';
  std::size_t shortcut = 0;
  for (const std::string& t : times) {
    INFO(t);
    CHECK(yaml_as_is(t) == rule(t));
    shortcut += t.size() == 24 || t.size() == 29 ? 1 : 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      for (const char c : bytes) {
        std::string m = t;
        m[i] = c;
        INFO("byte " << i << " as " << static_cast<int>(c));
        REQUIRE(yaml_as_is(m) == rule(m));
      }
      REQUIRE(yaml_as_is(t.substr(0, i)) == rule(t.substr(0, i)));
      REQUIRE(yaml_as_is(t.substr(i)) == rule(t.substr(i)));
    }
    for (const char c : bytes)
      REQUIRE(yaml_as_is(t + c) == rule(t + c));
  }
  CHECK(shortcut >= 5);  // the shapes the shortcut takes are among them
  // And strings of pieces, as everywhere else.
  std::mt19937 rng(25);
  for (int i = 0; i < 20000; ++i) {
    const std::string s = random_string(rng);
    REQUIRE(yaml_as_is(s) == rule(s));
  }
}

namespace {

// A record's members as segment dump writes them through the ISO-time writer: the first run
// cut at its time field, the time as a string, the rest of the run, then string members.
constexpr std::string_view kRecordRun[] = {"offset",   "timestamp",  "sequence", "size",
                                           "key_size", "value_size", "headers"};
const kepoch::report::MemberNames kRecordNames(kRecordRun);

// Values a reader could take for something else, or that yaml-cpp quotes or escapes.
const std::vector<std::string> kTrickyValues = {"",
                                                " ",
                                                "a ",
                                                " a",
                                                "12",
                                                "-1",
                                                "1.5",
                                                "1e5",
                                                "0x1f",
                                                "true",
                                                "False",
                                                "null",
                                                "NULL",
                                                "~",
                                                "yes",
                                                "off",
                                                "none",
                                                "create-time",
                                                "a: b",
                                                "a:",
                                                ":",
                                                "-",
                                                "- a",
                                                "#",
                                                "a #b",
                                                "a#b",
                                                "[x]",
                                                "{x}",
                                                "'x'",
                                                "\"x\"",
                                                "\xc3\xa9t\xc3\xa9",
                                                "\xe2\x82\xac 5",
                                                "\xf0\x9f\x98\x80",
                                                "\x01",
                                                "a\tb",
                                                "a\nb",
                                                "a\\b",
                                                "2026-12-02T03:44:03.675Z",
                                                "2026-12-02T03:44:03.675Z ",
                                                "2026-12-02T03:44:03.675",
                                                "2026-12-02 03:44:03.675Z",
                                                "2026-12-02T04:41:13.123+01:00",
                                                "2026-12-02T04:41:13.123,01:00"};

void write_tricky_record(ObjectWriter& w, std::int64_t offset, const std::string& time,
                         std::size_t first_value) {
  const std::int64_t values[] = {offset, 0, -1, 117, 3, 105, 0};
  w.integers(kRecordNames.part(0, 1), std::span(values, 1));
  w.string("timestamp", time);
  w.integers(kRecordNames.part(2, 5), std::span(values + 2, 5));
  for (std::size_t i = 0; i < 4; ++i) {
    const std::string& v = kTrickyValues[(first_value + i) % kTrickyValues.size()];
    w.string("value" + std::to_string(i), v);
  }
  w.null("key");
  w.boolean("crc_valid", offset % 2 == 0);
  w.integer("a_member_name_too_long_for_a_member_line", offset);  // the general path
  w.string("a_member_name_too_long_for_a_member_line_too", "x");
}

}  // namespace

TEST_CASE("YAML records written as segment dump writes them: yaml-cpp's text, read back equal",
          "[render][yaml]") {
  for (const std::size_t base : {std::size_t{0}, std::size_t{6}}) {
    std::string text;
    YamlObjectWriter writer(text, base);
    ValueBuilder builder;
    const auto batch = [&](ObjectWriter& w) {
      static constexpr std::string_view kHead[] = {"position", "size"};
      const std::int64_t head[] = {0, 1001};
      w.integers(kHead, head);
      w.string("compression", "none");
      w.begin_objects("records");
      for (std::size_t r = 0; r < kTrickyValues.size(); ++r) {
        w.begin_object();
        write_tricky_record(w, static_cast<std::int64_t>(r), kTrickyValues[r], r);
        w.end_object();
      }
      w.end_objects();
    };
    writer.begin();
    batch(writer);
    writer.end();
    batch(builder);
    const std::string want = reference_text(builder.take());
    INFO("base indent " << base << ":\n" << want);
    REQUIRE(text == indented(want, base));

    const YAML::Node read = YAML::Load(want);
    const YAML::Node records = read["records"];
    REQUIRE(records.size() == kTrickyValues.size());
    for (std::size_t r = 0; r < kTrickyValues.size(); ++r) {
      INFO("record " << r);
      CHECK(records[r]["offset"].as<std::int64_t>() == static_cast<std::int64_t>(r));
      CHECK(records[r]["timestamp"].as<std::string>() == kTrickyValues[r]);
      for (std::size_t i = 0; i < 4; ++i)
        CHECK(records[r]["value" + std::to_string(i)].as<std::string>() ==
              kTrickyValues[(r + i) % kTrickyValues.size()]);
      CHECK(records[r]["key"].IsNull());
      CHECK(records[r]["crc_valid"].as<bool>() == (r % 2 == 0));
    }
  }
}

TEST_CASE("YAML elements past the flush size, and one abandoned midway as the stream does",
          "[render][yaml]") {
  std::string text;
  YamlObjectWriter writer(text, 6);
  ValueBuilder builder;
  const auto big = [](ObjectWriter& w, std::size_t records) {
    w.begin_objects("records");
    for (std::size_t r = 0; r < records; ++r) {
      w.begin_object();
      write_tricky_record(w, static_cast<std::int64_t>(r), "2026-12-02T03:44:03.675Z", r);
      w.end_object();
    }
    w.end_objects();
  };
  // Abandoned after more than one flush (an exception in the stream): the stream cuts its
  // text back; the writer's next element starts clean.
  text = "before\n";
  writer.begin();
  big(writer, 2000);
  REQUIRE(text.size() > 64 * 1024);
  text.resize(7);
  writer.begin();
  big(writer, 3000);
  writer.end();
  big(builder, 3000);
  const std::string want = indented(reference_text(builder.take()), 6);
  REQUIRE(text.size() > 3 * 64 * 1024);
  REQUIRE(text == "before\n" + want);
}

TEST_CASE("YAML integer members at every digit count, both signs", "[render][yaml]") {
  std::vector<std::int64_t> values = {std::numeric_limits<std::int64_t>::min(),
                                      std::numeric_limits<std::int64_t>::max(),
                                      std::int64_t{0xFFFFFFFF}, std::int64_t{0x100000000}};
  for (std::int64_t p = 1;; p *= 10) {  // 10^0 .. 10^18
    for (const std::int64_t v : {p - 1, p, p + 1, 2 * p, 9 * p})
      values.insert(values.end(), {v, -v});
    if (p == 1000000000000000000) break;
  }
  static constexpr std::string_view kNames[] = {"a", "b", "c"};
  std::string text;
  YamlObjectWriter writer(text);
  for (std::size_t i = 0; i + 3 <= values.size(); i += 3) {
    text.clear();
    writer.begin();
    writer.integers(kNames, std::span(values).subspan(i, 3));
    writer.integer("d", values[i]);
    writer.end();
    ValueBuilder b;
    b.integers(kNames, std::span(values).subspan(i, 3));
    b.integer("d", values[i]);
    const std::string want = reference_text(b.take());
    INFO(want);
    REQUIRE(text == want);
  }
}

namespace {

using kepoch::report::detail::append_yaml_double_quoted;

// A string's final text as emit_yaml writes it: as it is, or double-quoted.
std::string final_text(const std::string& s, bool key) {
  if (key ? yaml_plain_ok(s) : yaml_as_is(s)) return s;
  std::string quoted;
  append_yaml_double_quoted(quoted, s);
  return quoted;
}

// emit_yaml's events for v by the emitter's block calls (a map's values by block_value or,
// on a coin's throw, block_scalar, as both may write them); false when a key is too long for
// them (a long key).
bool block_emit(YamlEmitter& e, const Value& v, bool member, std::mt19937& rng) {
  const auto scalar = [&](const std::string& text) {
    member&& rng() % 2 == 0 ? e.block_value(text) : e.block_scalar(text);
  };
  if (v.is_null()) {
    scalar("~");
  } else if (const auto* b = std::get_if<bool>(&v.data())) {
    scalar(*b ? "true" : "false");
  } else if (const auto* i = std::get_if<std::int64_t>(&v.data())) {
    scalar(std::to_string(*i));
  } else if (const auto* d = std::get_if<double>(&v.data())) {
    e.real(*d);  // the general call, in between block calls
  } else if (const auto* s = std::get_if<std::string>(&v.data())) {
    scalar(final_text(*s, false));
  } else if (const auto* a = std::get_if<Value::Array>(&v.data())) {
    e.block_begin(/*map=*/false, /*flow=*/a->empty());
    for (const auto& x : *a)
      if (!block_emit(e, x, false, rng)) return false;
    e.block_end(false);
  } else {
    const auto& o = v.as_object();
    e.block_begin(/*map=*/true, /*flow=*/o.empty());
    for (const auto& [k, x] : o) {
      if (k.size() > 1024) return false;
      e.block_key(final_text(k, true));
      if (!block_emit(e, x, true, rng)) return false;
    }
    e.block_end(true);
  }
  return true;
}

}  // namespace

TEST_CASE("YAML block calls write what the general calls write, and take back what they wrote",
          "[render][yaml]") {
  std::mt19937 rng(35);
  int compared = 0;
  for (int i = 0; i < 20000; ++i) {
    const Value v = random_value(rng, 0);
    const Value junk = random_value(rng, 0);
    const std::size_t base = i % 2 == 0 ? 0 : 6;
    // The general calls: the value as a member's and as a sequence's items.
    std::string want;
    {
      YamlEmitter e(want, base);
      e.begin_map();
      e.string("k");
      emit_yaml(e, v);
      e.string("list");
      e.begin_seq();
      e.integer(1);
      emit_yaml(e, v);
      emit_yaml(e, v);
      e.end_seq();
      e.end_map();
      e.flush();
    }
    std::string got;
    YamlEmitter e(got, base);
    e.begin_map();
    e.string("k");
    REQUIRE(e.block_ready());
    const YamlEmitter::Mark mark = e.mark();
    block_emit(e, junk, true, rng);
    e.take_back(mark);
    if (!block_emit(e, v, true, rng)) continue;
    e.block_key("list");
    e.block_begin(/*map=*/false, /*flow=*/false);
    e.integer(1);
    block_emit(e, v, false, rng);
    block_emit(e, v, false, rng);
    e.block_end(false);
    e.end_map();
    e.flush();
    INFO("document " << i << ":\n" << want);
    REQUIRE(got == want);
    ++compared;
  }
  CHECK(compared > 19000);
}

TEST_CASE("YAML as-is strings: the one-pass test quotes what must be quoted", "[render][yaml]") {
  // Each must be double-quoted: edge spaces, ": " and " #", a leading indicator, a word or
  // number a reader takes for something else, control bytes, non-ASCII (as yaml-cpp has it:
  // C1 controls and a BOM quoted), the empty string.
  for (const std::string& s : std::initializer_list<std::string>{" a",
                                                                 "a ",
                                                                 "a: b",
                                                                 "a #b",
                                                                 "-",
                                                                 "- a",
                                                                 "?",
                                                                 "? a",
                                                                 ":",
                                                                 ": a",
                                                                 ",a",
                                                                 "[a",
                                                                 "]a",
                                                                 "{a",
                                                                 "}a",
                                                                 "#a",
                                                                 "&a",
                                                                 "*a",
                                                                 "!a",
                                                                 "|a",
                                                                 ">a",
                                                                 "'a",
                                                                 "\"a",
                                                                 "%a",
                                                                 "@a",
                                                                 "`a",
                                                                 "true",
                                                                 "True",
                                                                 "null",
                                                                 "NULL",
                                                                 "~",
                                                                 "y",
                                                                 "n",
                                                                 "off",
                                                                 "FALSE",
                                                                 "12",
                                                                 "-1",
                                                                 "+1",
                                                                 "1.5",
                                                                 "1e3",
                                                                 "0x1f",
                                                                 "1_000",
                                                                 ".5",
                                                                 "a\tb",
                                                                 "a\nb",
                                                                 std::string("a\0b", 3),
                                                                 "a\x01",
                                                                 "\xc2\x80",
                                                                 "\xef\xbb\xbf"
                                                                 "a",
                                                                 "",
                                                                 "a:",
                                                                 "abcdefgh:",
                                                                 "abcdefghijklmnop ",
                                                                 "abcdefghijklmnopq #x"}) {
    INFO("'" << s << "'");
    CHECK_FALSE(yaml_as_is(s));
  }
  for (const std::string s : {"a", "orders", "classic-group", "/127.0.0.1", "a:b", "x-y",
                              "consumer-classic-group-1-2c8fb33b-5237-47d7-be19-7038ec499530",
                              "BruPrhriSlaMYZG1JfRS0Q", "offset_commit", "nulls", "a.b/c+d"}) {
    INFO("'" << s << "'");
    CHECK(yaml_as_is(s));
  }
  // Against the two tests it stands for: every piece at every place of texts of 1-40 simple
  // bytes (the 8-, 16- and 32-byte edges of its vector test), and random texts.
  const std::string simple = "abcdefxyzABCDEFXYZ0123456789_.-:+/eEoxX";
  std::mt19937 rng(36);
  const auto agree = [](const std::string& s) {
    INFO("'" << s << "'");
    REQUIRE(yaml_as_is(s) == (!needs_quotes(s) && yaml_plain_ok(s)));
  };
  for (std::size_t n = 0; n <= 40; ++n) {
    for (int k = 0; k < 20; ++k) {
      std::string s;
      for (std::size_t i = 0; i < n; ++i)
        s += simple[rng() % simple.size()];
      agree(s);
      for (std::size_t at = 0; at < n; ++at) {
        for (const auto& piece : kPieces) {
          std::string t = s;
          t.replace(at, 1, piece);
          agree(t);
        }
      }
    }
  }
  for (int i = 0; i < 200000; ++i)
    agree(random_string(rng));
}

TEST_CASE("YAML plain names: a schema name ([a-z0-9_]) is plain but '' and 'null'",
          "[render][yaml]") {
  using kepoch::report::detail::yaml_plain_name;
  std::mt19937 rng(37);
  const std::string alphabet = "abcdefghijklmnopqrstuvwxyz0123456789_";
  for (const std::string s : {"", "null", "nul", "nulll", "_", "0", "1e3", "true", "y", "n"})
    CHECK(yaml_plain_name(s) == yaml_plain_ok(s));
  for (int i = 0; i < 100000; ++i) {
    std::string s;
    for (std::size_t n = rng() % 12; n > 0; --n)
      s += alphabet[rng() % alphabet.size()];
    INFO("'" << s << "'");
    REQUIRE(yaml_plain_name(s) == yaml_plain_ok(s));
  }
}

namespace {

using kepoch::report::LazyMember;
using kepoch::report::LazyTimes;
using kepoch::report::MemberNames;
using kepoch::report::Scalar;
using kepoch::report::detail::MemberLine;

// A member whose YAML is its Value's (a decoded record's, segment_report's CoordinatorMember).
class ValueMember final : public LazyMember {
 public:
  explicit ValueMember(Value v) : v_(std::move(v)) {}
  Value value() const override { return v_; }
  void append_json(kepoch::report::detail::TextBuffer&, LazyTimes) const override {}
  void append_inline(std::string&, LazyTimes) const override {}
  void emit_yaml(YamlEmitter& e, LazyTimes) const override {
    kepoch::report::detail::emit_yaml(e, v_);
  }

 private:
  Value v_;
};

// A scalar member's value of every kind: integers at the digit counts' edges, strings that
// need quotes, are empty, look like null or hold a line break, ISO times and near-misses.
Scalar random_member_scalar(std::mt19937& rng) {
  const std::string& tricky = kTrickyValues[rng() % kTrickyValues.size()];
  switch (rng() % 6) {
    case 0:
      return {Scalar::Kind::null, 0, {}};
    case 1:
      return {Scalar::Kind::string, 0, tricky};
    case 2:
      return {Scalar::Kind::time_text, 0, tricky};
    case 3:
      return {Scalar::Kind::time_text, 0, "2026-12-02T03:44:03.675Z"};
    default:
      return Scalar::of(random_integer(rng));
  }
}

constexpr std::string_view kMixedRun[] = {"offset", "true", "timestamp", "a: b"};

}  // namespace

TEST_CASE("YAML decoded records in one call (scalars_object_with) equal the calls one by one",
          "[render][yaml]") {
  std::mt19937 rng(41);
  // One writer per base indent for every batch, as the YAML stream keeps one: what it renders
  // once per run and place is reused from batch to batch.
  std::string at0, at6;
  YamlObjectWriter writer0(at0), writer6(at6, 6);
  const std::vector<MemberNames> runs = {MemberNames(kRecordRun), MemberNames(kQuotedRun),
                                         MemberNames(kOneRun), MemberNames(kMixedRun),
                                         MemberNames(kLongRun)};
  const std::vector<std::string> keys = {"coordinator", "coordinator",         "null", "a: b", "",
                                         "true",        std::string(1100, 'k')};
  std::size_t one_call = 0;
  for (int i = 0; i < 4000; ++i) {
    std::vector<std::function<void(ObjectWriter&)>> records;
    for (std::size_t r = rng() % 5; r > 0; --r) {
      if (rng() % 4 == 0) {  // a record by the calls one by one, between them
        std::vector<std::int64_t> values(kRecordNames.size());
        for (auto& v : values)
          v = random_integer(rng);
        records.push_back([values](ObjectWriter& w) {
          w.begin_object();
          w.integers(kRecordNames, values);
          w.end_object();
        });
        continue;
      }
      const MemberNames names = runs[rng() % 3 == 0 ? rng() % runs.size() : 0];
      std::vector<Scalar> values;
      for (std::size_t k = 0; k < names.size(); ++k)
        values.push_back(rng() % 2 ? Scalar::of(random_integer(rng)) : random_member_scalar(rng));
      const std::size_t at = rng() % 4 == 0 ? rng() % (names.size() + 1) : 1;
      const std::string key = rng() % 4 == 0 ? keys[rng() % keys.size()] : keys[0];
      const auto member = std::make_shared<ValueMember>(random_value(rng, 1));
      one_call += names.same(kRecordNames.names()) && key == "coordinator" && at > 0 &&
                  values[0].kind == Scalar::Kind::integer;
      records.push_back([names, values, at, key, member](ObjectWriter& w) {
        w.scalars_object_with(names, values, at, key, *member, LazyTimes{});
      });
    }
    ValueBuilder builder;
    at0.clear();
    at6.clear();
    const auto batch = [&](ObjectWriter& w) {
      w.integers(kPlainRun, std::vector<std::int64_t>{1, 2, 3, 4});
      w.begin_objects("records");
      for (const auto& r : records)
        r(w);
      w.end_objects();
    };
    writer0.begin();
    writer6.begin();
    batch(builder);
    batch(writer0);
    batch(writer6);
    writer0.end();
    writer6.end();
    const std::string want = reference_text(builder.take());
    INFO("batch " << i << ":\n" << want);
    REQUIRE(at0 == want);
    REQUIRE(at6 == indented(want, 6));
    if (i % 100 == 0) REQUIRE_NOTHROW(YAML::Load(at0));
  }
  CHECK(one_call > 2000);  // of ~6,000 records: the rest by the calls one by one
}

TEST_CASE("YAML scalar members and a key's line write what the general calls write",
          "[render][yaml]") {
  std::mt19937 rng(43);
  const std::vector<std::string> names = {"offset", "a", "timestamp", "key_size", "x_1"};
  for (int i = 0; i < 20000; ++i) {
    const std::size_t base = i % 2 == 0 ? 0 : 6;
    std::vector<Scalar> values;
    for (std::size_t k = rng() % 6; k > 0; --k)
      values.push_back(random_member_scalar(rng));
    const Value value = random_value(rng, 1);
    // The general calls.
    std::string want;
    std::size_t as_is = 0;  // scalar_members stops at the first string to be quoted
    {
      YamlEmitter e(want, base);
      e.begin_map();
      e.string("first");
      e.integer(0);
      for (std::size_t k = 0; k < values.size(); ++k) {
        e.string(names[k]);
        const Scalar& v = values[k];
        if (v.kind == Scalar::Kind::integer) {
          e.integer(v.integer);
        } else if (v.kind == Scalar::Kind::null) {
          e.null();
        } else {
          e.string(v.text, needs_quotes(v.text));
          if (as_is == k && !yaml_as_is(v.text)) break;
        }
        as_is = k + 1;
      }
      e.string("decode");
      emit_yaml(e, value);
      e.end_map();
      e.flush();
    }
    std::string got;
    YamlEmitter e(got, base);
    e.begin_map();
    e.string("first");
    e.integer(0);
    REQUIRE(e.at_next_simple_key());
    std::vector<MemberLine> lines;
    for (std::size_t k = 0; k < values.size(); ++k)
      lines.push_back(*MemberLine::make("\n" + std::string(e.key_column(), ' ') + names[k] + ": ",
                                        names[k].size()));
    const std::size_t n = e.scalar_members(lines, values);
    REQUIRE(n == std::min(as_is, values.size()));
    if (n < values.size()) {  // the one to be quoted, by the general calls
      e.string(names[n]);
      e.string(values[n].text, true);
    }
    const auto line = MemberLine::make("\n" + std::string(e.key_column(), ' ') + "decode", 6);
    e.key_member(*line);
    emit_yaml(e, value);
    e.end_map();
    e.flush();
    INFO("document " << i << ":\n" << want);
    REQUIRE(got == want);
  }
}

namespace {

// Strings whose bytes, written as they are, no YAML reader takes (YAML 1.2: a stream is
// well-formed Unicode of c-printable characters outside escapes; NEL, U+2028 and U+2029 are
// line breaks to a YAML 1.1 reader, a CR to any): ill-formed UTF-8 of every kind, C0 and C1
// controls, DEL, a BOM, U+FFFE and U+FFFF.
const std::vector<std::string> kUnreadable = {
    // lone continuation bytes and bytes that start nothing
    "\x80", "a\x80z", "\xbf\xbf", "\xfe", "\xff", "\xff\xfe-0", "t\xff\xfe-0",
    // truncated sequences, at the end and before other bytes
    "\xc3", "a\xc3", "\xc3z", "\xe2\x82", "\xe2\x82z", "\xf0\x9f\x98", "\xf0\x9f\x98 x",
    "\xe2\x82\xe2\x82\xac",
    // overlong forms
    "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf", "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",
    // surrogates encoded in UTF-8 (a lone one, a pair)
    "\xed\xa0\x80", "\xed\xbf\xbf", "\xed\xa0\xbd\xed\xb8\x80",
    // past U+10FFFF, and the old 5- and 6-byte forms
    "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf7\xbf\xbf\xbf", "\xf8\x88\x80\x80\x80",
    "\xfc\x84\x80\x80\x80\x80",
    // C0 controls, a lone CR, DEL
    std::string(1, '\0'), std::string("a\0b", 3), "\x01", "a\x1f", "\t", "\r", "a\rb", "\x7f",
    "a\x7f", "group-\x7f\x7f",
    // C1 controls (NEL among them), a BOM, the line and paragraph separators, U+FFFE, U+FFFF
    "\xc2\x80", "\xc2\x85", "a\xc2\x85z", "\xc2\x9f", "\xef\xbb\xbf", "a\xef\xbb\xbfz",
    "\xe2\x80\xa8", "a\xe2\x80\xa9z", "\xef\xbf\xbe", "\xef\xbf\xbf",
    // mixed with well-formed text
    "\xc3\xa9\xff\xc3\xa9", "\xe2\x82\xac \x7f \xed\xa0\x80 \xf0\x9f\x98\x80"};

// The string -o json holds for s: kepoch's JSON text read back.
std::string json_decoded(const std::string& s) {
  std::string text;
  kepoch::report::detail::append_json(text, Value(s));
  return nlohmann::json::parse(text).get<std::string>();
}

// Whether the text is well-formed UTF-8 of c-printable characters, no NEL, U+2028 or U+2029.
bool yaml_readable(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();  // throws on ill-formed UTF-8
  } catch (const nlohmann::json::exception&) {
    return false;
  }
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    std::uint32_t cp = n == 1 ? c : c & (0x3F >> (n - 1));
    for (std::size_t k = 1; k < n; ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    i += n;
    const bool printable = cp == 0x09 || cp == 0x0A || (cp >= 0x20 && cp <= 0x7E) ||
                           (cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
                           cp >= 0x10000;
    if (!printable || cp == 0x2028 || cp == 0x2029) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("YAML strings no reader takes as they are: read back as JSON holds them",
          "[render][yaml]") {
  for (const std::string& s : kUnreadable) {
    const std::string want = json_decoded(s);
    INFO(
        "string " << nlohmann::json(s).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace)
                  << " (" << s.size() << " bytes), JSON's "
                  << nlohmann::json(want).dump(-1, ' ', true));
    CHECK_FALSE(yaml_as_is(s));
    CHECK_FALSE(yaml_plain_ok(s));
    {  // append_yaml_double_quoted alone
      std::string quoted;
      kepoch::report::detail::append_yaml_double_quoted(quoted, s);
      INFO(quoted);
      CHECK(yaml_readable(quoted));
      CHECK(YAML::Load(quoted).as<std::string>() == want);
    }
    {  // emit_yaml: a key and its value, a sequence's item, a top-level string
      const std::string text =
          direct_text(Value::object().set(s, s).set("seq", Value::array().push(s)));
      INFO(text);
      REQUIRE(yaml_readable(text));
      const YAML::Node read = YAML::Load(text);
      REQUIRE(read.size() == 2);
      CHECK(read.begin()->first.as<std::string>() == want);
      CHECK(read.begin()->second.as<std::string>() == want);
      CHECK(read["seq"][0].as<std::string>() == want);
      const std::string top = direct_text(Value(s));
      INFO(top);
      CHECK(yaml_readable(top));
      CHECK(YAML::Load(top).as<std::string>() == want);
    }
    {  // YamlEmitter::string, automatic and double-quoted on request
      std::string text;
      YamlEmitter e(text);
      e.begin_map();
      e.string(s);
      e.string(s, true);
      e.string("auto");
      e.string(s);
      e.end_map();
      e.flush();
      INFO(text);
      REQUIRE(yaml_readable(text));
      const YAML::Node read = YAML::Load(text);
      CHECK(read.begin()->first.as<std::string>() == want);
      CHECK(read.begin()->second.as<std::string>() == want);
      CHECK(read["auto"].as<std::string>() == want);
    }
    // YamlObjectWriter: member lines (string, integers), block calls inside a list's objects,
    // scalars_object_with's scalar members (a string, a time's text), at both base indents.
    for (const std::size_t base : {std::size_t{0}, std::size_t{6}}) {
      std::string text;
      YamlObjectWriter w(text, base);
      w.begin();
      w.string("value", s);
      w.string(s, "key");
      const std::string named = s + "2";
      const std::string_view names[] = {"n", named};
      w.integers(MemberNames::kept(names), std::vector<std::int64_t>{1, 2});
      w.value("v", Value::array().push(s));
      w.begin_objects("records");
      w.begin_object();
      w.string("value", s);
      w.string(s, "key");
      w.end_object();
      const std::string_view run[] = {"offset", "text", "time", "after"};
      const Scalar values[] = {Scalar::of(7),
                               {Scalar::Kind::string, 0, s},
                               {Scalar::Kind::time_text, 0, s},
                               {Scalar::Kind::string, 0, s}};
      const ValueMember member{Value(s)};
      w.scalars_object_with(MemberNames::kept(run), values, 2, "decoded", member, LazyTimes{});
      w.end_objects();
      w.end();
      INFO("base " << base << ":\n" << text);
      REQUIRE(yaml_readable(text));
      const YAML::Node read = YAML::Load(base == 0 ? text : "x:\n" + std::string(base, ' ') + text);
      const YAML::Node doc = base == 0 ? read : read["x"];
      CHECK(doc["value"].as<std::string>() == want);
      CHECK(doc[want].as<std::string>() == "key");
      CHECK(doc[json_decoded(s + "2")].as<std::int64_t>() == 2);
      CHECK(doc["v"][0].as<std::string>() == want);
      const YAML::Node records = doc["records"];
      REQUIRE(records.size() == 2);
      CHECK(records[0]["value"].as<std::string>() == want);
      CHECK(records[0][want].as<std::string>() == "key");
      CHECK(records[1]["text"].as<std::string>() == want);
      CHECK(records[1]["time"].as<std::string>() == want);
      CHECK(records[1]["after"].as<std::string>() == want);
      CHECK(records[1]["decoded"].as<std::string>() == want);
    }
  }
}
