// segment dump writes a coordinator log's records from their bytes as it reads them
// (SegmentDumpOptions::coordinator_checked, write_coordinator_key/value into each format's
// sink) instead of building the decoded tree per record. Its text must be the tree's, byte
// for byte, in every format and with times shown or not: here each fixture segment Kafka
// 4.4.0 and 3.9.1 wrote (tests/data/coordinator) is streamed both ways, the records written
// from their bytes against the same batches built as Values (batch_value: the tree, as
// coordinator_value decodes it) through the same stream. And the bytes path's tagged fields:
// a value whose tagged section holds a known field and an unknown one, written in schema
// order as the tree puts them.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "kepoch/format/coordinator_record.hpp"
#include "kepoch/report/json_object_writer.hpp"
#include "kepoch/report/render.hpp"
#include "kepoch/report/segment_report.hpp"
#include "kepoch/report/stream.hpp"
#include "kepoch/report/yaml_object_writer.hpp"
#include "kepoch/storage/segment_dump.hpp"

using namespace kepoch;

namespace {

std::string fixture(const std::string& version, const std::string& file) {
  return std::string(KEPOCH_SOURCE_DIR) + "/tests/data/coordinator/" + version + "/" + file;
}

// The dump of `path` in `format`: each batch written (records from their bytes) or built as
// a Value first (`as_values`).
std::string dumped(const std::string& path, CoordinatorLog log, report::Format format,
                   bool iso_times, bool as_values) {
  std::ostringstream out, err;
  report::RenderOptions options;
  options.iso_times = iso_times;
  options.wide = true;
  auto stream = report::make_stream(format, out, err, options);
  stream->begin_item(report::segment_fields(path, 0), "batches", report::batch_table_columns());
  SegmentDumpOptions o;
  o.records = true;
  o.walk_records = true;
  o.coordinator = log;
  o.coordinator_checked = !as_values;
  dump_segment(path, o, [&](DumpedBatch& b) {
    if (as_values) return stream->element(report::batch_value(b, true, report::DataFormat::none));
    stream->write_element([&](report::ObjectWriter& w) {
      report::write_batch(w, b, true, report::DataFormat::none);
    });
  });
  stream->end_item(report::Value::object());
  stream->finish();
  return out.str();
}

}  // namespace

TEST_CASE("coordinator records written from their bytes: the tree's text in every format",
          "[coordinator][report]") {
  const std::map<std::string, CoordinatorLog> logs = {
      {"__consumer_offsets-0/00000000000000000000.log", CoordinatorLog::offsets},
      {"__consumer_offsets-1/00000000000000000000.log", CoordinatorLog::offsets},
      {"__transaction_state-0/00000000000000000000.log", CoordinatorLog::transactions},
      {"__transaction_state-1/00000000000000000000.log", CoordinatorLog::transactions},
  };
  for (const std::string version : {"4.4.0", "3.9.1"}) {
    for (const auto& [file, log] : logs) {
      for (const auto format : {report::Format::json, report::Format::jsonl, report::Format::yaml,
                                report::Format::table}) {
        for (const bool iso : {true, false}) {
          INFO(version << " " << file << " format " << static_cast<int>(format) << " iso " << iso);
          const std::string path = fixture(version, file);
          const std::string streamed = dumped(path, log, format, iso, false);
          CHECK(streamed.find("type_id") != std::string::npos);
          CHECK(streamed == dumped(path, log, format, iso, true));
        }
      }
    }
  }
}

namespace {

// The member `d` as `w` writes it from its bytes (as write_batch does) and from its tree.
template <typename Writer, typename Text>
std::pair<Text, Text> both_ways(const DumpedCoordinator& d) {
  Text bytes, tree;
  Writer from_bytes(bytes), from_tree(tree);
  from_bytes.begin();
  report::write_coordinator_member(from_bytes, "coordinator", d);
  from_bytes.end();
  from_tree.begin();
  from_tree.value("coordinator", report::coordinator_value(d));
  from_tree.end();
  return {std::move(bytes), std::move(tree)};
}

}  // namespace

TEST_CASE("coordinator records from their bytes: tagged fields in schema order, unknown noted",
          "[coordinator][report]") {
  // OffsetCommitValue v4 (flexible): offset, leader_epoch, metadata, commit_timestamp, then
  // the tagged section: topic_id (tag 0, 16 bytes) and an unknown tag 7 (2 bytes).
  const std::vector<std::uint8_t> key = {0, 1,                         // type OffsetCommit
                                         0, 1, 'g',                    // group
                                         0, 1, 't',                    // topic
                                         0, 0, 0,   3};                // partition
  std::vector<std::uint8_t> value = {0, 4,                             // version
                                     0, 0,   0,    0,    0, 0, 0, 42,  // offset
                                     0, 0,   0,    5,                  // leader_epoch
                                     2, 'm',                           // metadata (compact)
                                     0, 0,   1,    0x8c, 0, 0, 0, 0,   // commit_timestamp
                                     2,                                // two tagged fields
                                     7, 2,   0xab, 0xcd,               // unknown tag 7
                                     0, 16};                           // tag 0: 16 bytes
  for (int i = 0; i < 16; ++i)
    value.push_back(static_cast<std::uint8_t>(i + 1));
  const auto checked =
      check_coordinator_record(CoordinatorLog::offsets, std::span<const std::uint8_t>(key),
                               std::span<const std::uint8_t>(value), 10, 100);
  const CoordinatorRecord tree = decode_coordinator_record(checked);
  CHECK(checked.notes == tree.notes);
  REQUIRE(checked.notes.size() == 1);
  CHECK(checked.notes[0].find("unknown tagged field 7") != std::string::npos);
  // The tree has topic_id after commit_timestamp (schema order); the bytes path writes the same.
  DumpedCoordinator d;
  d.checked = checked;
  const auto [json_bytes, json_tree] =
      both_ways<report::detail::JsonObjectWriter, report::detail::TextBuffer>(d);
  const std::string json(json_bytes.data(), json_bytes.size());
  CHECK(json == std::string(json_tree.data(), json_tree.size()));
  CHECK(json.find("\"topic_id\":\"AQIDBAUGBwgJCgsMDQ4PEA\"") != std::string::npos);
  CHECK(json.find("\"commit_timestamp\":") < json.find("\"topic_id\":"));
  const auto [yaml_bytes, yaml_tree] = both_ways<report::detail::YamlObjectWriter, std::string>(d);
  CHECK(yaml_bytes == yaml_tree);
  CHECK(yaml_bytes.find("topic_id: AQIDBAUGBwgJCgsMDQ4PEA") != std::string::npos);
}
