// Objects written member by member (ObjectWriter): the Value they describe, nlohmann's JSON
// text without nlohmann's tree, and the streams' output, the same as from the Value.
#include <catch2/catch.hpp>

#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

#include "kepoch/report/json_object_writer.hpp"
#include "kepoch/report/render_detail.hpp"
#include "kepoch/report/stream.hpp"

using kepoch::report::ObjectWriter;
using kepoch::report::Value;
using kepoch::report::ValueBuilder;

namespace {

std::string nlohmann_text(const Value& v) {
  return kepoch::report::detail::to_json(v).dump(-1, ' ', false,
                                                 nlohmann::json::error_handler_t::replace);
}

std::string writer_text(const std::function<void(ObjectWriter&)>& write) {
  kepoch::report::detail::TextBuffer text;
  kepoch::report::detail::JsonObjectWriter w(text);
  w.begin();
  write(w);
  w.end();
  return std::string(text.data(), text.size());
}

// An element with scalars of every kind, a list of objects (one with a nested object and
// array) and an array of strings, written member by member.
void write_sample(ObjectWriter& w) {
  w.integer("position", 0);
  w.integer("min", std::numeric_limits<std::int64_t>::min());
  w.null("crc_valid");
  w.boolean("is_control", true);
  w.string("compression", "zstd");
  w.value("ratio", Value(0.25));
  w.begin_objects("records");
  w.begin_object();
  w.integer("offset", 7);
  w.string("key", "quote \" backslash \\ tab \t");
  w.end_object();
  w.begin_object();
  w.value("control", Value::object().set("type", "commit").set("voters", Value::array().push(1)));
  w.null("value");
  w.end_object();
  w.end_objects();
  w.value("records_notes", Value::array().push("a").push("b"));
}

std::string stream_text(kepoch::report::Format format,
                        const std::function<void(kepoch::report::ReportStream&)>& elements) {
  std::ostringstream out, err;
  auto s = kepoch::report::make_stream(format, out, err, {});
  s->begin_item(Value::object().set("file", "a.log"), "batches", {"position", "compression"});
  elements(*s);
  s->end_item(Value::object().set("batch_count", 2));
  s->finish();
  return out.str() + err.str();
}

// Runs of integer members (ObjectWriter::integers): short keys, keys JSON escapes, a key
// too long for the writer's fixed-size slots, one member.
constexpr std::string_view kShortRun[] = {"offset", "timestamp", "sequence", "size"};
constexpr std::string_view kEscapedRun[] = {"quote\"", "tab\t", "", "caf\xc3\xa9"};
constexpr std::string_view kLongRun[] = {"a", "a_name_longer_than_thirty_one_bytes_in_all"};
constexpr std::string_view kOneRun[] = {"x"};

// The runs in `order` (indexes into the four above), each with values from `rng`.
void write_runs(ObjectWriter& w, const std::vector<int>& order, std::mt19937_64& rng) {
  static const kepoch::report::MemberNames kRuns[] = {kShortRun, kEscapedRun, kLongRun, kOneRun};
  for (const int r : order) {
    std::vector<std::int64_t> values;
    for (std::size_t i = 0; i < kRuns[r].size(); ++i)
      values.push_back(rng() % 3 == 0   ? std::numeric_limits<std::int64_t>::min()
                       : rng() % 2 == 0 ? static_cast<std::int64_t>(rng())
                                        : static_cast<std::int64_t>(rng() % 1000) - 500);
    w.integers(kRuns[r], values);
  }
}

}  // namespace

TEST_CASE("ValueBuilder: the calls make the Value they describe", "[report][object_writer]") {
  ValueBuilder b;
  write_sample(b);
  const Value v = b.take();
  REQUIRE(v.find("records"));
  CHECK(v.find("records")->as_array().size() == 2);
  CHECK(nlohmann_text(v) ==
        R"({"position":0,"min":-9223372036854775808,"crc_valid":null,"is_control":true,)"
        R"("compression":"zstd","ratio":0.25,"records":[{"offset":7,"key":"quote \" backslash )"
        R"(\\ tab \t"},{"control":{"type":"commit","voters":[1]},"value":null}],)"
        R"("records_notes":["a","b"]})");
}

TEST_CASE("JSON written member by member is nlohmann's text", "[report][object_writer]") {
  ValueBuilder b;
  write_sample(b);
  CHECK(writer_text(write_sample) == nlohmann_text(b.take()));
  // Strings nlohmann escapes or repairs: control bytes, DEL, UTF-8, invalid UTF-8.
  for (const std::string& s :
       {std::string("\x01\x1f\b\f\n\r"), std::string("\x7f"), std::string("caf\xc3\xa9"),
        std::string("bad \xff\xfe utf-8"), std::string(""), std::string("/")}) {
    const Value v = Value::object().set(s, s);
    CHECK(writer_text([&](ObjectWriter& w) { w.members(v); }) == nlohmann_text(v));
  }
  for (const double d : {1.0, -0.0, 1e300, 0.1, 123456789.125}) {
    const Value v = Value::object().set("d", d);
    CHECK(writer_text([&](ObjectWriter& w) { w.members(v); }) == nlohmann_text(v));
  }
  CHECK(writer_text([](ObjectWriter& w) {
          w.begin_objects("empty");
          w.end_objects();
        }) == R"({"empty":[]})");
}

TEST_CASE("JSON runs of integer members: nlohmann's text of the members one by one",
          "[report][object_writer]") {
  std::mt19937_64 rng(21);
  const std::vector<std::vector<int>> orders = {{0}, {1}, {2}, {3}, {0, 1, 2, 3}, {3, 2, 1, 0}};
  for (int i = 0; i < 200; ++i) {
    const auto& order = orders[static_cast<std::size_t>(i) % orders.size()];
    const auto state = rng;
    const auto write = [&](ObjectWriter& w) {
      if (i % 2) w.string("first", "member");  // the run opens the object or follows a member
      write_runs(w, order, rng);
      w.begin_objects("records");
      for (int k = 0; k < 2; ++k) {
        w.begin_object();
        write_runs(w, order, rng);
        w.end_object();
      }
      w.end_objects();
    };
    ValueBuilder b;
    write(b);
    rng = state;  // the same values again
    CHECK(writer_text(write) == nlohmann_text(b.take()));
  }
}

namespace {

// Runs of scalar members (ObjectWriter::scalars): integers, times' texts, nulls and (rare)
// strings, in every order, opening the object or following a member.
constexpr std::string_view kScalarRun[] = {"offset", "timestamp", "timestamp_iso", "size",
                                           "max_timestamp_iso"};
constexpr std::string_view kLongScalarRun[] = {"a", "last_contained_log_timestamp_iso"};

kepoch::report::Scalar scalar_of_kind(int kind, std::mt19937_64& rng) {
  using kepoch::report::Scalar;
  static constexpr std::string_view kTimes[] = {"2026-12-02T10:09:58.938Z",
                                                "-292275055-05-16T16:47:04.192+01:00"};
  switch (kind) {
    case 0:
      return Scalar::of(static_cast<std::int64_t>(rng()));
    case 1:
      return {Scalar::Kind::time_text, 0, kTimes[rng() % 2]};
    case 2:
      return {Scalar::Kind::string, 0, "quote \" none"};
    default:
      return {};
  }
}

}  // namespace

TEST_CASE("JSON runs of scalar members: nlohmann's text of the members one by one",
          "[report][object_writer]") {
  std::mt19937_64 rng(12);
  for (int i = 0; i < 300; ++i) {
    const bool long_run = i % 5 == 0;
    const kepoch::report::MemberNames names = long_run ? kepoch::report::MemberNames(kLongScalarRun)
                                                       : kepoch::report::MemberNames(kScalarRun);
    std::vector<kepoch::report::Scalar> values;
    for (std::size_t k = 0; k < names.size(); ++k) {
      const int kind = static_cast<int>(rng() % 3);  // an integer, a time's text, null
      values.push_back(scalar_of_kind(kind == 2 ? 3 : kind, rng));
    }
    if (i % 10 == 1) values[rng() % values.size()] = scalar_of_kind(2, rng);  // a string
    const auto write = [&](ObjectWriter& w) {
      if (i % 2) w.integer("first", 1);
      w.scalars(names, values);
      w.begin_objects("records");
      w.begin_object();
      w.scalars(names, values);  // the run rendered already
      w.end_object();
      w.end_objects();
    };
    ValueBuilder b;
    write(b);
    INFO(i);
    CHECK(writer_text(write) == nlohmann_text(b.take()));
  }
}

// integers_object and scalars_object write an object of a list in one call (a record of a
// dump): the same text as begin_object, the run, end_object. A string in the run (to be
// escaped) or a text too long for the writer's room per member is met part way through the
// run and rolls back to member by member.
TEST_CASE("JSON objects of one run: the text of begin_object, the run and end_object",
          "[report][object_writer]") {
  using kepoch::report::Scalar;
  static constexpr std::string_view kLongText =
      "a time's text of more than forty-six bytes, as no time is";
  std::mt19937_64 rng(33);
  for (int i = 0; i < 300; ++i) {
    const bool long_run = i % 7 == 0;
    const kepoch::report::MemberNames names = long_run ? kepoch::report::MemberNames(kLongScalarRun)
                                                       : kepoch::report::MemberNames(kScalarRun);
    std::vector<std::vector<Scalar>> objects(1 + rng() % 3);
    std::vector<std::vector<std::int64_t>> integers(objects.size());
    for (std::size_t o = 0; o < objects.size(); ++o) {
      for (std::size_t k = 0; k < names.size(); ++k) {
        const int kind = static_cast<int>(rng() % 3);  // an integer, a time's text, null
        objects[o].push_back(scalar_of_kind(kind == 2 ? 3 : kind, rng));
        // Integers of every length, most of a few digits as a record's are.
        const std::int64_t v = rng() % 4 == 0 ? static_cast<std::int64_t>(rng())
                                              : static_cast<std::int64_t>(rng() % 200000) - 100;
        integers[o].push_back(v);
      }
      const std::size_t at = rng() % names.size();
      if (i % 10 == 1) objects[o][at] = scalar_of_kind(2, rng);  // a string
      if (i % 10 == 2) objects[o][at] = {Scalar::Kind::time_text, 0, kLongText};
    }
    const auto write = [&](ObjectWriter& w, bool in_one_call) {
      w.begin_objects("records");
      for (std::size_t o = 0; o < objects.size(); ++o) {
        if (in_one_call) {
          w.scalars_object(names, objects[o]);
          w.integers_object(names, integers[o]);
          continue;
        }
        w.begin_object();
        w.scalars(names, objects[o]);
        w.end_object();
        w.begin_object();
        w.integers(names, integers[o]);
        w.end_object();
      }
      w.end_objects();
      w.integer("after", 1);
    };
    ValueBuilder b;
    write(b, false);
    INFO(i);
    const std::string expected = nlohmann_text(b.take());
    CHECK(writer_text([&](ObjectWriter& w) { write(w, true); }) == expected);
    CHECK(writer_text([&](ObjectWriter& w) { write(w, false); }) == expected);
  }
}

TEST_CASE("scalars() by default: the call for each member's kind", "[report][object_writer]") {
  using kepoch::report::Scalar;
  const std::vector<Scalar> values = {
      Scalar::of(1),
      Scalar::of(2),
      Scalar{Scalar::Kind::time_text, 0, "1970-01-01T00:00:00.000Z"},
      Scalar::of(3),
      Scalar{Scalar::Kind::string, 0, "none"},
      Scalar{}};
  static constexpr std::string_view kNames[] = {"a", "b", "t", "c", "s", "n"};
  ValueBuilder b;
  b.scalars(kNames, values);
  CHECK(nlohmann_text(b.take()) ==
        R"({"a":1,"b":2,"t":"1970-01-01T00:00:00.000Z","c":3,"s":"none","n":null})");
}

TEST_CASE("JSON strings: the fast escaper prints nlohmann's text for any bytes",
          "[report][object_writer]") {
  // Random strings biased to the cases that matter: runs of plain ASCII (the 8-byte steps),
  // quotes, backslashes, control bytes, DEL, well-formed UTF-8 of 2-4 bytes, the edges of
  // UTF-8's ranges (overlong, surrogate, past U+10FFFF) and truncated sequences.
  const std::vector<std::string> pieces = {"a",
                                           "plain text run ",
                                           "\"",
                                           "\\",
                                           "\x01",
                                           "\x1f",
                                           "\n",
                                           "\t",
                                           "\x7f",
                                           "\xc3\xa9",
                                           "\xc2\x80",
                                           "\xdf\xbf",
                                           "\xe0\xa0\x80",
                                           "\xe0\x9f\xbf",
                                           "\xed\x9f\xbf",
                                           "\xed\xa0\x80",
                                           "\xef\xbf\xbd",
                                           "\xf0\x90\x80\x80",
                                           "\xf0\x8f\xbf\xbf",
                                           "\xf4\x8f\xbf\xbf",
                                           "\xf4\x90\x80\x80",
                                           "\xc0\xaf",
                                           "\xc1\xbf",
                                           "\xf5\x80",
                                           "\x80",
                                           "\xbf",
                                           "\xe2\x82",
                                           "\xf0\x9f\x98",
                                           "\xff",
                                           "\xfe",
                                           "0123456789abcdef"};
  std::mt19937 rng(21);
  for (int n = 0; n < 20000; ++n) {
    std::string s;
    const int parts = static_cast<int>(rng() % 12);
    for (int i = 0; i < parts; ++i) {
      if (rng() % 4 == 0)
        s += static_cast<char>(rng() % 256);
      else
        s += pieces[rng() % pieces.size()];
    }
    std::string text;
    kepoch::report::detail::append_json_string(text, s);
    kepoch::report::detail::TextBuffer buffer;
    kepoch::report::detail::append_json_string(buffer, s);
    REQUIRE(std::string(buffer.data(), buffer.size()) == text);
    const std::string want =
        nlohmann::ordered_json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    INFO("string of " << s.size() << " bytes, case " << n);
    REQUIRE(text == want);
  }
}

TEST_CASE("JSON streams: elements gathered into large writes print what they printed one by one",
          "[report][object_writer]") {
  // Enough elements for several writes, one element past the spill limit, and an element
  // that throws half written: dropped, as when each element was written on its own.
  const auto element = [](int i) {
    return [i](ObjectWriter& w) {
      w.integer("i", i);
      w.string("s", std::string(static_cast<std::size_t>(i % 7) * 100, 'x'));
    };
  };
  const auto big = [](ObjectWriter& w) {
    w.begin_objects("records");
    for (int r = 0; r < 20000; ++r) {
      w.begin_object();
      w.integer("offset", r);
      w.string("value", "0123456789012345678901234567890123456789012345678901234567890123");
      w.end_object();
    }
    w.end_objects();
  };
  for (const auto format : {kepoch::report::Format::json, kepoch::report::Format::jsonl}) {
    std::string by_calls;
    std::string by_values;
    {
      std::ostringstream out, err;
      auto s = kepoch::report::make_stream(format, out, err, {});
      s->begin_item(Value::object().set("file", "a.log"), "batches");
      for (int i = 0; i < 3000; ++i)
        s->write_element(element(i));
      s->write_element(big);
      CHECK_THROWS_AS(s->write_element([](ObjectWriter& w) {
        w.integer("i", -1);
        throw std::runtime_error("half written");
      }),
                      std::runtime_error);
      s->write_element(element(1));
      s->end_item(Value::object().set("batch_count", 3002));
      s->finish();
      by_calls = out.str();
    }
    {
      std::ostringstream out, err;
      auto s = kepoch::report::make_stream(format, out, err, {});
      s->begin_item(Value::object().set("file", "a.log"), "batches");
      for (int i = 0; i < 3000; ++i) {
        ValueBuilder b;
        element(i)(b);
        s->element(b.take());
      }
      ValueBuilder b;
      big(b);
      s->element(b.take());
      ValueBuilder one;
      element(1)(one);
      s->element(one.take());
      s->end_item(Value::object().set("batch_count", 3002));
      s->finish();
      by_values = out.str();
    }
    CHECK(by_calls.size() > 2 * 1024 * 1024);
    CHECK(by_calls == by_values);
  }
}

TEST_CASE("streams print the same from the calls as from the Value", "[report][object_writer]") {
  ValueBuilder b;
  write_sample(b);
  const Value v = b.take();
  for (const auto format : {kepoch::report::Format::table, kepoch::report::Format::json,
                            kepoch::report::Format::jsonl, kepoch::report::Format::yaml}) {
    const std::string from_value = stream_text(format, [&](auto& s) {
      s.element(v);
      s.element(v);
    });
    const std::string from_calls = stream_text(format, [&](auto& s) {
      s.write_element(write_sample);
      s.write_element(write_sample);
    });
    CHECK(from_calls == from_value);
  }
}

TEST_CASE("table stream: columns from the first element, widths widen, nested lines",
          "[report][object_writer]") {
  std::ostringstream out, err;
  auto s = kepoch::report::make_stream(kepoch::report::Format::table, out, err, {});
  s->begin_item(Value::object().set("file", "a.log"), "batches");
  s->write_element([](ObjectWriter& w) {
    w.integer("a", 1);
    w.string("bb", "x");
    w.begin_objects("list");
    w.begin_object();
    w.integer("k", 1);
    w.null("n");
    w.end_object();
    w.end_objects();
  });
  s->element(Value::object().set("bb", "wider-text").set("a", 22).set("extra", true));
  s->element(Value::object().set("a", "\xc3\xa9").set("bb", "y"));  // padded by display width
  s->end_item(Value::object().set("batch_count", 3));
  CHECK(out.str() ==
        "file            a.log\n"
        "batches:\n"
        "  A  BB\n"
        "  1  x\n"
        "  | k: 1 n: -\n"
        "  22  wider-text\n"
        "  \xc3\xa9   y\n"
        "batch_count     3\n");
}

TEST_CASE("table stream: min_column_width widens a column from the header on",
          "[report][object_writer]") {
  std::ostringstream out, err;
  auto s = kepoch::report::make_stream(kepoch::report::Format::table, out, err, {});
  s->begin_item(Value::object().set("file", "a.log"), "records");
  s->min_column_width("type", 8);
  s->min_column_width("absent", 20);
  s->write_element([](ObjectWriter& w) {
    w.string("type", "Topic");
    w.integer("offset", 1);
  });
  s->element(Value::object().set("type", "Partition").set("offset", 2));
  s->end_item(Value::object());
  // A second list forgets the hints.
  s->begin_item(Value::object().set("file", "b.log"), "records");
  s->element(Value::object().set("type", "Topic").set("offset", 3));
  s->end_item(Value::object());
  CHECK(out.str() ==
        "file            a.log\n"
        "records:\n"
        "  TYPE      OFFSET\n"
        "  Topic     1\n"
        "  Partition  2\n"
        "\n"
        "file            b.log\n"
        "records:\n"
        "  TYPE   OFFSET\n"
        "  Topic  3\n");
}

namespace {

// Forwards every member to `inner` one call per member: integers() and scalars() as the
// calls for each member's kind (ObjectWriter's defaults), the table's path before its runs.
class PerMember : public ObjectWriter {
 public:
  explicit PerMember(ObjectWriter& inner) : inner_(inner) {}
  void null(std::string_view key) override { inner_.null(key); }
  void boolean(std::string_view key, bool v) override { inner_.boolean(key, v); }
  void integer(std::string_view key, std::int64_t v) override { inner_.integer(key, v); }
  void string(std::string_view key, std::string_view v) override { inner_.string(key, v); }
  void time_text(std::string_view key, std::string_view v) override { inner_.string(key, v); }
  void value(std::string_view key, const Value& v) override { inner_.value(key, v); }
  void begin_objects(std::string_view key) override { inner_.begin_objects(key); }
  void begin_object() override { inner_.begin_object(); }
  void end_object() override { inner_.end_object(); }
  void end_objects() override { inner_.end_objects(); }

 private:
  ObjectWriter& inner_;
};

// A batch-like element: runs of integers and scalars (times, strings to escape, nulls),
// single members, a member repeated (the first wins), members missing, a nested list.
constexpr std::string_view kHeadRun[] = {"position", "size", "base_offset", "last_offset"};
constexpr std::string_view kTailRun[] = {"producer_id", "max_timestamp", "note", "size"};
constexpr std::string_view kRecordRun[] = {"offset", "timestamp", "key_size"};

void write_batch_like(ObjectWriter& w, std::mt19937_64& rng) {
  using kepoch::report::Scalar;
  static const std::vector<std::string> texts = {"none",
                                                 "zstd",
                                                 "caf\xc3\xa9",
                                                 "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e-topic",
                                                 "ctl\x1b[2J",
                                                 "bad \xff utf-8",
                                                 std::string(150, 'w'),
                                                 "/var/lib/kafka/" + std::string(90, 'p'),
                                                 "",
                                                 "-"};
  const auto integer = [&rng] {
    return rng() % 4 == 0 ? static_cast<std::int64_t>(rng())
                          : static_cast<std::int64_t>(rng() % 100000) - 10;
  };
  if (rng() % 5) {
    const std::int64_t head[] = {integer(), integer(), integer(), integer()};
    w.integers(kHeadRun, head);
  }
  if (rng() % 3) w.string("compression", texts[rng() % texts.size()]);
  if (rng() % 4 == 0) w.integer("size", integer());  // repeated: the first one wins
  if (rng() % 3)
    w.boolean("crc_valid", rng() % 2);
  else if (rng() % 2)
    w.null("crc_valid");
  static constexpr std::string_view kTimes[] = {"2026-12-02T10:09:58.938Z",
                                                "-292275055-05-16T16:47:04.192+01:00"};
  std::vector<Scalar> tail;
  for (std::size_t i = 0; i < std::size(kTailRun); ++i) {
    switch (rng() % 5) {
      case 0:
        tail.push_back({Scalar::Kind::time_text, 0, kTimes[rng() % 2]});
        break;
      case 1:
        tail.push_back({Scalar::Kind::string, 0, texts[rng() % texts.size()]});
        break;
      case 2:
        tail.push_back({});
        break;
      default:
        tail.push_back(Scalar::of(integer()));
    }
  }
  if (rng() % 4) w.scalars(kTailRun, tail);
  if (rng() % 3 == 0) w.time_text("base_timestamp", kTimes[rng() % 2]);
  if (rng() % 3 == 0) {
    w.begin_objects("records");
    for (std::uint64_t r = rng() % 3; r > 0; --r) {
      const std::int64_t values[] = {integer(), integer(), integer()};
      if (rng() % 2)
        w.integers_object(kRecordRun, values);
      else
        w.scalars_object(kRecordRun, std::span(tail).first(std::size(kRecordRun)));
    }
    w.end_objects();
  }
}

}  // namespace

TEST_CASE("table stream: runs of members print what the members one by one print",
          "[report][object_writer]") {
  // Columns chosen by the first element (all, or a ranked subset), fitted to 120 columns or
  // wide; cells of every width (widening, shortened), escaped, CJK, missing and repeated.
  const std::vector<std::vector<std::string>> wanted = {
      {},
      {"base_offset", "last_offset", "max_timestamp", "size", "compression", "crc_valid"},
      {"note", "size", "position", "producer_id", "base_timestamp"},
      {"compression", "records"}};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 400; ++i) {
    kepoch::report::RenderOptions options;
    options.wide = i % 3 == 0;
    options.iso_times = i % 4 == 1;
    const auto& columns = wanted[static_cast<std::size_t>(i) % wanted.size()];
    const int elements = 1 + static_cast<int>(rng() % 12);
    const auto state = rng;
    const auto text = [&](bool per_member) {
      rng = state;  // the same elements each time
      std::ostringstream out, err;
      auto s = kepoch::report::make_stream(kepoch::report::Format::table, out, err, options);
      for (int item = 0; item < 2; ++item) {  // a second list chooses its columns again
        s->begin_item(Value::object().set("file", "a.log"), "batches", columns);
        for (int e = 0; e < elements; ++e) {
          s->write_element([&](ObjectWriter& w) {
            if (!per_member) return write_batch_like(w, rng);
            PerMember one_by_one(w);
            write_batch_like(one_by_one, rng);
          });
        }
        s->end_item(Value::object().set("batch_count", elements));
      }
      s->finish();
      return out.str() + err.str();
    };
    const std::string by_runs = text(false);
    INFO("case " << i);
    REQUIRE(by_runs == text(true));
    CHECK(by_runs.find("BATCHES") == std::string::npos);  // a real table was written
  }
}

TEST_CASE("table stream: rows gathered into large writes, a half-written element dropped",
          "[report][object_writer]") {
  const auto element = [](int i) {
    return [i](ObjectWriter& w) {
      w.integer("i", i);
      w.string("s", std::string(static_cast<std::size_t>(i % 7) * 10, 'x'));
    };
  };
  const auto big = [](ObjectWriter& w) {  // past the 1 MiB spill of nested lines
    w.integer("i", -2);
    w.string("s", "big");
    w.begin_objects("records");
    for (int r = 0; r < 20000; ++r) {
      w.begin_object();
      w.integer("offset", r);
      w.string("value", "0123456789012345678901234567890123456789012345678901234567890123");
      w.end_object();
    }
    w.end_objects();
  };
  const auto print = [&](bool with_throws) {
    std::ostringstream out, err;
    auto s = kepoch::report::make_stream(kepoch::report::Format::table, out, err, {});
    s->begin_item(Value::object().set("file", "a.log"), "batches");
    for (int i = 0; i < 3000; ++i)
      s->write_element(element(i));
    if (with_throws) {
      CHECK_THROWS_AS(s->write_element([](ObjectWriter& w) {
        w.integer("i", -1);
        throw std::runtime_error("half written");
      }),
                      std::runtime_error);
    }
    s->write_element(element(1));
    if (with_throws) {
      CHECK_THROWS_AS(s->write_element([&big](ObjectWriter& w) {
        big(w);
        throw std::runtime_error("after its spill");
      }),
                      std::runtime_error);
    } else {
      s->write_element(big);
    }
    s->write_element(element(2));
    s->end_item(Value::object().set("batch_count", 3003));
    s->finish();
    return out.str();
  };
  const std::string thrown = print(true);
  const std::string whole = print(false);
  CHECK(whole.size() > 1024 * 1024);
  // The element that threw before any spill left nothing; the one that threw after its spill
  // left what it spilled (its row, the first nested lines), and the next row follows.
  const std::size_t big_row = whole.find("\n  -2    big\n");
  REQUIRE(big_row != std::string::npos);
  CHECK(thrown.substr(0, big_row) == whole.substr(0, big_row));
  CHECK(thrown.find("  -1") == std::string::npos);
  const std::size_t cut = thrown.find("\n  2     xx");
  REQUIRE(cut != std::string::npos);
  CHECK(cut > big_row + 1024 * 1024 - 100);
  CHECK(thrown.substr(0, cut) == whole.substr(0, cut));
  CHECK(thrown.substr(cut) == whole.substr(whole.find("\n  2     xx")));
}
