// segment dump writes a coordinator log's records from their bytes as it reads them
// (SegmentDumpOptions::coordinator_checked, write_coordinator_key/value into each format's
// sink) instead of building the decoded tree per record. Its text must be the tree's, byte
// for byte, in every format and with times shown or not: here each fixture segment Kafka
// 4.4.0 and 3.9.1 wrote (tests/data/coordinator) is streamed both ways, the records written
// from their bytes against the same batches built as Values (batch_value: the tree, as
// coordinator_value decodes it) through the same stream. And the bytes path's tagged fields:
// a value whose tagged section holds a known field and an unknown one, written in schema
// order as the tree puts them.
#include <fmt/format.h>
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

namespace {

void put_i16(std::vector<std::uint8_t>& out, int v) {
  out.push_back(static_cast<std::uint8_t>((v >> 8) & 0xff));
  out.push_back(static_cast<std::uint8_t>(v & 0xff));
}
void put_i32(std::vector<std::uint8_t>& out, std::int32_t v) {
  for (int s = 24; s >= 0; s -= 8)
    out.push_back(static_cast<std::uint8_t>((static_cast<std::uint32_t>(v) >> s) & 0xff));
}
void put_i64(std::vector<std::uint8_t>& out, std::int64_t v) {
  put_i32(out, static_cast<std::int32_t>(v >> 32));
  put_i32(out, static_cast<std::int32_t>(v & 0xffffffff));
}
void put_string(std::vector<std::uint8_t>& out, std::string_view s) {  // classic: int16 length
  put_i16(out, static_cast<int>(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}
void put_bytes(std::vector<std::uint8_t>& out, const std::vector<std::uint8_t>& b) {
  put_i32(out, static_cast<std::int32_t>(b.size()));
  out.insert(out.end(), b.begin(), b.end());
}

// The record's coordinator member as JSON and YAML, from its bytes and from its tree.
void check_both_ways(CoordinatorLog log, const std::vector<std::uint8_t>& key,
                     const std::vector<std::uint8_t>& value, std::string_view expect_json) {
  DumpedCoordinator d;
  d.checked = check_coordinator_record(log, std::span<const std::uint8_t>(key),
                                       std::span<const std::uint8_t>(value), 10, 100);
  const auto [json_bytes, json_tree] =
      both_ways<report::detail::JsonObjectWriter, report::detail::TextBuffer>(d);
  const std::string json(json_bytes.data(), json_bytes.size());
  CHECK(json == std::string(json_tree.data(), json_tree.size()));
  CHECK(json.find(expect_json) != std::string::npos);
  const auto [yaml_bytes, yaml_tree] = both_ways<report::detail::YamlObjectWriter, std::string>(d);
  CHECK(yaml_bytes == yaml_tree);
}

}  // namespace

// DumpLogSegments' OffsetsMessageParser decodes a "consumer" group's member subscription and
// assignment (ConsumerProtocol) and keeps the bytes when they do not read; the fixtures Kafka
// wrote hold only bytes that read. Here each way a member's bytes can fail, beside ones that
// read, written from the bytes as from the tree.
TEST_CASE("coordinator records from their bytes: a consumer group's protocol bytes, good or not",
          "[coordinator][report]") {
  std::vector<std::uint8_t> key;
  put_i16(key, 2);  // GroupMetadata
  put_string(key, "g");
  std::vector<std::uint8_t> good_assignment;  // ConsumerProtocolAssignment v0: t [2], no data
  put_i16(good_assignment, 0);
  put_i32(good_assignment, 1);
  put_string(good_assignment, "t");
  put_i32(good_assignment, 1);
  put_i32(good_assignment, 2);
  put_i32(good_assignment, -1);
  std::vector<std::uint8_t> bad_version;  // ConsumerProtocolSubscription v127
  put_i16(bad_version, 127);
  std::vector<std::uint8_t> short_body;  // v0 with 5 topics and no bytes for them
  put_i16(short_body, 0);
  put_i32(short_body, 5);
  for (const std::string protocol_type : {"consumer", "connect"}) {
    INFO(protocol_type);
    std::vector<std::uint8_t> value;
    put_i16(value, 0);  // GroupMetadataValue v0
    put_string(value, protocol_type);
    put_i32(value, 1);  // generation
    put_string(value, "range");
    put_string(value, "m1");
    put_i32(value, 2);  // members
    for (const auto& [subscription, assignment] :
         {std::pair{bad_version, good_assignment},
          std::pair{short_body, std::vector<std::uint8_t>{}}}) {
      put_string(value, "m1");
      put_string(value, "c");
      put_string(value, "/h");
      put_i32(value, 10000);
      put_bytes(value, subscription);
      put_bytes(value, assignment);
    }
    check_both_ways(
        CoordinatorLog::offsets, key, value,
        protocol_type == "consumer"
            ? std::string(
                  R"("subscription":"AH8=","assignment":{"assigned_partitions":[{"topic":"t","partitions":[2]}],"user_data":null})")
            : R"("subscription":"AH8=","assignment":")" + base64_text(good_assignment) + "\"");
  }
}

// TransactionLogMessageParser names the status (TransactionState.stateName); a status Kafka
// has no state for shows as its number.
TEST_CASE("coordinator records from their bytes: a transaction's state named",
          "[coordinator][report]") {
  std::vector<std::uint8_t> key;
  put_i16(key, 0);
  put_string(key, "tx");
  for (const auto& [status, name] : {std::pair{4, "CompleteCommit"}, std::pair{42, "42"}}) {
    std::vector<std::uint8_t> value;
    put_i16(value, 0);  // TransactionLogValue v0
    put_i64(value, 7);  // producer_id
    put_i16(value, 1);  // producer_epoch
    put_i32(value, 60000);
    value.push_back(static_cast<std::uint8_t>(status));
    put_i32(value, 0);  // no partitions
    put_i64(value, 1796292658428);
    put_i64(value, 1796292658428);
    check_both_ways(
        CoordinatorLog::transactions, key, value,
        fmt::format(R"("transaction_status":{},"transaction_state":"{}")", status, name));
  }
}
