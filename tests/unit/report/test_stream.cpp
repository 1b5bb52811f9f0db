// The streaming renderers: JSON lines writes one object per element carrying its item's
// id, then one closing line per item; the table shows a nested object on one line.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "kepoch/report/checkpoint_report.hpp"
#include "kepoch/report/segment_report.hpp"
#include "kepoch/report/stream.hpp"

using kepoch::report::Value;

namespace {

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    out.push_back(nlohmann::json::parse(line));
  return out;
}

void write_two_items(kepoch::report::ReportStream& s) {
  s.begin_item(Value::object().set("file", "a.log").set("kind", "log"), "batches");
  s.element(
      Value::object()
          .set("base_offset", 0)
          .set("records",
               Value::array().push(
                   Value::object()
                       .set("offset", 0)
                       .set("control",
                            Value::object().set("type", "commit").set("coordinator_epoch", 3)))));
  s.element(Value::object().set("base_offset", 1));
  s.end_item(Value::object().set("batch_count", 2).set("problems", Value::array()));
  s.begin_item(Value::object().set("file", "b.index"), "entries");
  s.element(Value::object().set("offset", 5));
  s.end_item(Value::object());
  s.finish();
}

}  // namespace

TEST_CASE("JSON lines: one line per element with its item's id, one closing line per item",
          "[report][stream]") {
  std::ostringstream out, err;
  auto s = kepoch::report::make_stream(kepoch::report::Format::jsonl, out, err, {});
  write_two_items(*s);
  const auto lines = json_lines(out.str());
  REQUIRE(lines.size() == 5);
  CHECK(lines[0]["file"] == "a.log");
  CHECK(lines[0]["batch"]["records"][0]["control"]["coordinator_epoch"] == 3);
  CHECK_FALSE(lines[0].contains("kind"));
  CHECK(lines[1]["batch"]["base_offset"] == 1);
  CHECK(lines[2] ==
        nlohmann::json::parse(R"({"file":"a.log","kind":"log","batch_count":2,"problems":[]})"));
  CHECK(lines[3] == nlohmann::json::parse(R"({"file":"b.index","entry":{"offset":5}})"));
  CHECK(lines[4] == nlohmann::json::parse(R"({"file":"b.index"})"));
  CHECK(err.str().empty());
}

TEST_CASE("JSON lines of a whole document: the document on one line", "[report][stream]") {
  std::ostringstream out, err;
  const Value v = Value::array().push(Value::object().set("file", "x").set("n", 1));
  kepoch::report::render(v, kepoch::report::Format::jsonl, out, err);
  CHECK(out.str() == "[{\"file\":\"x\",\"n\":1}]\n");
  CHECK(kepoch::report::format_from_name("jsonl") == kepoch::report::Format::jsonl);
}

TEST_CASE("table stream: a nested object under a row reads on one line", "[report][stream]") {
  std::ostringstream out, err;
  auto s = kepoch::report::make_stream(kepoch::report::Format::table, out, err, {});
  write_two_items(*s);
  CHECK_THAT(out.str(),
             Catch::Contains("| offset: 0 control: {type: commit, coordinator_epoch: 3}"));
}

// A headers-only batch goes to a table as a flat row (ReportStream::table_row): the text must
// be what the batch written member by member makes, whatever widens or cuts a column.
TEST_CASE("table stream: a batch's flat row is the row its members make", "[report][stream]") {
  using kepoch::DumpedBatch;
  std::vector<DumpedBatch> batches;
  for (int i = 0; i < 40; ++i) {
    DumpedBatch b;
    kepoch::BatchHeader& h = b.header;
    // Positions and offsets that outgrow their columns (widened, then cut with an ellipsis).
    h.position = i == 0 ? 0 : std::uint64_t{1} << (i + 10);
    h.base_offset = i < 20 ? i : std::int64_t{1} << (i + 10);
    h.size_field = 60 + i * 1000;
    h.last_offset_delta = i % 3;
    h.records_count = i % 3 + 1;
    h.partition_leader_epoch = i % 7 == 0 ? -1 : i;
    h.magic = i % 11 == 5 ? 1 : 2;
    h.crc = 0x9e3779b9u * static_cast<std::uint32_t>(i + 1);
    h.attributes = static_cast<std::int16_t>((i % 5) | (i % 4 == 1 ? 0x10 : 0) |
                                             (i % 6 == 2 ? 0x20 : 0) | (i % 9 == 3 ? 0x08 : 0));
    h.producer_id = i % 2 ? -1 : 1000 + i;
    h.producer_epoch = static_cast<std::int16_t>(i % 3 - 1);
    h.base_sequence = i % 2 ? -1 : i;
    h.max_timestamp = i % 8 == 4 ? -1 : 1764000000000 + i * 1000;  // NO_TIMESTAMP too
    h.base_timestamp = i % 2 ? h.max_timestamp : h.max_timestamp - 5;
    if (i % 13 != 7) {  // else not loaded: no CRC verdict
      b.crc_valid = i % 10 != 3;
      b.computed_crc = *b.crc_valid ? h.crc : h.crc + 1;
    }
    batches.push_back(b);
  }
  kepoch::report::RenderOptions narrow;
  narrow.width = 60;
  kepoch::report::RenderOptions wide;
  wide.wide = true;
  kepoch::report::RenderOptions limited;
  limited.limit = 7;
  for (kepoch::report::RenderOptions options :
       {kepoch::report::RenderOptions{}, narrow, wide, limited}) {
    for (const bool iso : {false, true}) {
      options.iso_times = iso;
      std::ostringstream flat, members, flat_err, members_err;
      auto a = kepoch::report::make_stream(kepoch::report::Format::table, flat, flat_err, options);
      auto b =
          kepoch::report::make_stream(kepoch::report::Format::table, members, members_err, options);
      for (auto* s : {a.get(), b.get()})
        s->begin_item(Value::object().set("file", "a.log"), "batches",
                      kepoch::report::batch_table_columns());
      for (DumpedBatch& batch : batches) {
        kepoch::report::stream_batch(*a, batch, false, kepoch::report::DataFormat::none);
        b->write_element([&](kepoch::report::ObjectWriter& w) {
          kepoch::report::write_batch(w, batch, false, kepoch::report::DataFormat::none);
        });
      }
      for (auto* s : {a.get(), b.get()}) {
        s->end_item(Value::object().set("batch_count", 40).set("problems", Value::array()));
        s->finish();
      }
      CAPTURE(options.width, options.wide, options.limit, iso);
      CHECK(flat.str() == members.str());
      CHECK(flat_err.str() == members_err.str());
      if (!options.wide) CHECK_THAT(flat.str(), Catch::Contains("\xe2\x80\xa6 "));  // a cut cell
    }
  }
}

TEST_CASE("table stream: a flat row with a string to escape or of wide characters",
          "[report][stream]") {
  using kepoch::report::Scalar;
  static constexpr std::string_view kNames[] = {"name", "n", "when", "note"};
  const std::vector<std::vector<Scalar>> rows = {
      {{Scalar::Kind::string, 0, "plain"}, Scalar::of(1), {Scalar::Kind::time_text, 0, "T1"}, {}},
      {{Scalar::Kind::string, 0, "tab\there"}, Scalar::of(22), {}, {}},
      {{Scalar::Kind::string, 0, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"},
       Scalar::of(-3),
       {},
       {Scalar::Kind::string, 0, "x"}},
      {{Scalar::Kind::string, 0, "a much longer name than the column"}, Scalar::of(4), {}, {}}};
  for (const bool wide : {false, true}) {
    kepoch::report::RenderOptions options;
    options.wide = wide;
    options.width = 30;
    std::ostringstream flat, members, err;
    auto a = kepoch::report::make_stream(kepoch::report::Format::table, flat, err, options);
    auto b = kepoch::report::make_stream(kepoch::report::Format::table, members, err, options);
    for (auto* s : {a.get(), b.get()})
      s->begin_item(Value::object().set("file", "x"), "rows");
    for (const auto& row : rows) {
      REQUIRE(a->table_row(kNames, row));
      b->write_element([&](kepoch::report::ObjectWriter& w) { w.scalars(kNames, row); });
    }
    for (auto* s : {a.get(), b.get()})
      s->finish();
    CAPTURE(wide);
    CHECK(flat.str() == members.str());
  }
  // Other formats take no flat row: the caller writes the element.
  std::ostringstream out, err;
  auto json = kepoch::report::make_stream(kepoch::report::Format::json, out, err, {});
  json->begin_item(Value::object().set("file", "x"), "rows");
  CHECK_FALSE(json->table_row(kNames, rows[0]));
}

// A checkpoint streamed (entries and loaded_entries element by element, a partition.metadata
// whole) is the document the whole-value renderer prints, in JSON and YAML alike.
TEST_CASE("checkpoint reports streamed: two lists per item, items without a list",
          "[report][stream]") {
  using kepoch::CheckDepth;
  const kepoch::CheckpointType epochs{kepoch::CheckpointKind::leader_epoch};
  const kepoch::CheckpointType offsets{kepoch::CheckpointKind::offsets,
                                       kepoch::OffsetsRole::high_watermark};
  const kepoch::CheckpointType metadata{kepoch::CheckpointKind::partition_metadata};
  const std::vector<kepoch::CheckpointReport> reports = {
      kepoch::check_checkpoint("0\n3\n0 0\n2 5\n1 9\n", "e", epochs, {}, CheckDepth::validate),
      kepoch::check_checkpoint("0\n2\nt 0 5\nt 0 6\n", "o", offsets, {}, CheckDepth::validate),
      kepoch::check_checkpoint("version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ\n", "p", metadata, {},
                               CheckDepth::validate),
      kepoch::check_checkpoint("0\n1\n", "c", epochs, {}, CheckDepth::dump),
      kepoch::check_checkpoint("1\n", "bad", epochs, {}, CheckDepth::validate),
  };
  Value whole = Value::array();
  for (const auto& r : reports)
    whole.push(kepoch::report::checkpoint_value(
        r, r.file == "c" ? CheckDepth::dump : CheckDepth::validate));
  for (const auto format : {kepoch::report::Format::json, kepoch::report::Format::yaml}) {
    std::ostringstream streamed, err, rendered;
    auto s = kepoch::report::make_stream(format, streamed, err, {});
    for (const auto& r : reports)
      kepoch::report::write_checkpoint(*s, r,
                                       r.file == "c" ? CheckDepth::dump : CheckDepth::validate);
    s->finish();
    kepoch::report::render(whole, format, rendered, err);
    if (format == kepoch::report::Format::json) {
      CHECK(nlohmann::json::parse(streamed.str()) == nlohmann::json::parse(rendered.str()));
    } else {
      CHECK(YAML::Dump(YAML::Load(streamed.str())) == YAML::Dump(YAML::Load(rendered.str())));
    }
  }
  std::ostringstream table, err;
  auto t = kepoch::report::make_stream(kepoch::report::Format::table, table, err, {});
  for (const auto& r : reports)
    kepoch::report::write_checkpoint(*t, r, CheckDepth::validate);
  t->finish();
  CHECK_THAT(table.str(),
             Catch::Contains("loaded_entries:\n  EPOCH  START_OFFSET\n  0      0\n  1      9\n"));
  CHECK_THAT(table.str(), Catch::Contains("topic_id"));
  CHECK_THAT(err.str(), Catch::Contains("o:4: warning: t-0 already appears on line 3"));
}
