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

#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "kepoch/format/coordinator_plain.hpp"
#include "kepoch/format/coordinator_record.hpp"
#include "kepoch/format/offset_commit_fast.hpp"
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

// How a dump's records are read: decoded into trees and each batch built as a Value first;
// checked, then written from their bytes; or peeked, their fields checked as they are
// written (SegmentDumpOptions::coordinator_deferred, segment dump's).
enum class Way { as_values, checked, deferred };

// The dump of `path` in `format`, its records read `way`.
std::string dumped(const std::string& path, CoordinatorLog log, report::Format format,
                   bool iso_times, Way way) {
  const bool as_values = way == Way::as_values;
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
  o.coordinator_deferred = way == Way::deferred;
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
          const std::string streamed = dumped(path, log, format, iso, Way::checked);
          CHECK(streamed.find("type_id") != std::string::npos);
          const std::string tree = dumped(path, log, format, iso, Way::as_values);
          CHECK(streamed == tree);
          CHECK(dumped(path, log, format, iso, Way::deferred) == tree);
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

namespace {

struct RawRecord {
  std::optional<std::vector<std::uint8_t>> key;
  std::optional<std::vector<std::uint8_t>> value;
  std::int64_t offset = 0;
};

// Every data record of a fixture segment, copied out.
std::vector<RawRecord> raw_records(const std::string& path) {
  std::vector<RawRecord> out;
  SegmentDumpOptions o;
  o.records = true;
  o.walk_records = true;
  dump_segment(path, o, [&](DumpedBatch& b) {
    walk_records(b, [&](const Record& r, const DumpedControl* c, const DumpedCoordinator*) {
      if (c) return;
      RawRecord raw;
      if (r.key) raw.key.emplace(r.key->begin(), r.key->end());
      if (r.value) raw.value.emplace(r.value->begin(), r.value->end());
      raw.offset = r.offset;
      out.push_back(std::move(raw));
    });
  });
  return out;
}

std::optional<std::span<const std::uint8_t>> span_of(
    const std::optional<std::vector<std::uint8_t>>& b) {
  if (!b) return std::nullopt;
  return std::span<const std::uint8_t>(*b);
}

// The record as segment_dump makes it: checked (coordinator_checked), or peeked
// (coordinator_deferred: checked when it does not peek), its error counted in `batch`.
DumpedCoordinator dumped_record(CoordinatorLog log, const RawRecord& r, bool deferred,
                                DumpedBatch& batch) {
  DumpedCoordinator d;
  if (deferred) {
    if (auto peeked = peek_coordinator_record(log, span_of(r.key), span_of(r.value), 10, 100)) {
      d.checked = std::move(*peeked);
      d.deferred = true;
      d.offset = r.offset;
      return d;
    }
  }
  try {
    d.checked = check_coordinator_record(log, span_of(r.key), span_of(r.value), 10, 100);
  } catch (const FormatError& e) {
    d.error = fmt::format("record at offset {}: at byte {}: {}", r.offset, e.position(), e.what());
    batch.coordinator_errors.push_back(*d.error);
    ++batch.coordinator_error_count;
  }
  return d;
}

// The texts a record's member is written as (compact JSON, YAML, a table's nested line, a
// Value's JSON), with the errors its batch counted.
struct Written {
  std::string json, yaml, table, value;
  std::vector<std::string> errors;
  std::uint64_t error_count = 0;
  bool operator==(const Written&) const = default;
};

Written written(CoordinatorLog log, const RawRecord& r, bool deferred, bool iso) {
  Written out;
  const auto member = [&](report::ObjectWriter& w, DumpedBatch& batch) {
    const DumpedCoordinator d = dumped_record(log, r, deferred, batch);
    report::write_coordinator_member(w, "coordinator", d, &batch);
    out.errors = batch.coordinator_errors;
    out.error_count = batch.coordinator_error_count;
  };
  report::RenderOptions options;
  options.iso_times = iso;
  options.wide = true;
  for (const auto format : {report::Format::json, report::Format::yaml, report::Format::table}) {
    std::ostringstream text, err;
    auto stream = report::make_stream(format, text, err, options);
    stream->begin_item(report::Value::object(), "records", {});
    DumpedBatch batch;
    stream->write_element([&](report::ObjectWriter& w) {
      w.integer("offset", r.offset);
      w.begin_objects("records");
      w.begin_object();
      member(w, batch);
      w.end_object();
      w.end_objects();
    });
    stream->end_item(report::Value::object());
    stream->finish();
    (format == report::Format::json   ? out.json
     : format == report::Format::yaml ? out.yaml
                                      : out.table) = text.str();
  }
  DumpedBatch batch;
  const DumpedCoordinator d = dumped_record(log, r, deferred, batch);
  report::detail::append_json(out.value, report::coordinator_value(d));
  return out;
}

}  // namespace

// segment dump peeks a coordinator record (its type and value version) and checks its
// fields as it writes them, taking back what it wrote of a record that fails or that the
// check notes anything of. Every record of the fixtures, each cut of its key and value, and
// each with a byte after its key or value (noted): written as the record checked first is,
// in every format, with the same errors counted in its batch.
TEST_CASE("coordinator records checked as they are written: every cut as the check has it",
          "[coordinator][report]") {
  const std::map<std::string, CoordinatorLog> logs = {
      {"__consumer_offsets-0/00000000000000000000.log", CoordinatorLog::offsets},
      {"__consumer_offsets-1/00000000000000000000.log", CoordinatorLog::offsets},
      {"__transaction_state-0/00000000000000000000.log", CoordinatorLog::transactions},
      {"__transaction_state-1/00000000000000000000.log", CoordinatorLog::transactions},
  };
  std::size_t variants = 0, failed = 0, noted = 0;
  for (const std::string version : {"4.4.0", "3.9.1"}) {
    for (const auto& entry : logs) {
      const CoordinatorLog log = entry.second;
      const auto records = raw_records(fixture(version, entry.first));
      REQUIRE(!records.empty());
      for (std::size_t i = 0; i < records.size(); ++i) {
        const RawRecord& r = records[i];
        std::vector<RawRecord> variants_of = {r};
        for (std::size_t n = 0; r.key && n < r.key->size(); ++n) {
          variants_of.push_back(r);
          variants_of.back().key->resize(n);
        }
        for (std::size_t n = 0; r.value && n < r.value->size(); ++n) {
          variants_of.push_back(r);
          variants_of.back().value->resize(n);
        }
        variants_of.push_back(r);
        variants_of.back().key->push_back(0);
        if (r.value) {
          variants_of.push_back(r);
          variants_of.back().value->push_back(0);
        }
        for (std::size_t k = 0; k < variants_of.size(); ++k) {
          INFO(version << " " << entry.first << " record " << i << " variant " << k);
          const bool iso = k % 2 == 0;
          const Written checked = written(log, variants_of[k], false, iso);
          const Written deferred = written(log, variants_of[k], true, iso);
          CHECK(deferred == checked);
          ++variants;
          failed += checked.error_count;
          noted += checked.json.find("\"notes\"") != std::string::npos;
        }
      }
    }
  }
  CHECK(variants > 1000);
  CHECK(failed > 1000);
  CHECK(noted > 10);
}

namespace {

void put_uvarint(std::vector<std::uint8_t>& out, std::uint32_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

// An OffsetCommit record's key (type 1: group, topic, partition).
std::vector<std::uint8_t> offset_commit_key(std::string_view group, std::string_view topic,
                                            std::int32_t partition) {
  std::vector<std::uint8_t> key;
  put_i16(key, 1);
  put_string(key, group);
  put_string(key, topic);
  put_i32(key, partition);
  return key;
}

// An OffsetCommitValue at `version` as Kafka writes it: leader_epoch from v3, expire_timestamp
// in v1 only, v4 flexible (a compact metadata, then the tagged section, `tagged` as given).
std::vector<std::uint8_t> offset_commit_value(int version, std::string_view metadata,
                                              std::int64_t commit_timestamp,
                                              const std::vector<std::uint8_t>& tagged = {0}) {
  std::vector<std::uint8_t> value;
  put_i16(value, version);
  put_i64(value, 1234567890123);  // offset
  if (version >= 3) put_i32(value, 7);
  if (version >= 4) {
    put_uvarint(value, static_cast<std::uint32_t>(metadata.size() + 1));
    value.insert(value.end(), metadata.begin(), metadata.end());
  } else {
    put_string(value, metadata);
  }
  put_i64(value, commit_timestamp);
  if (version == 1) put_i64(value, commit_timestamp + 86400000);
  if (version >= 4) value.insert(value.end(), tagged.begin(), tagged.end());
  return value;
}

// The tagged section of one topic_id (tag 0, 16 bytes).
std::vector<std::uint8_t> topic_id_section() {
  std::vector<std::uint8_t> t = {1, 0, 16};
  for (int i = 0; i < 16; ++i)
    t.push_back(static_cast<std::uint8_t>(0xf0 - i));
  return t;
}

// Whether the straight-line read takes the record (peeked as segment dump peeks it).
bool read_plainly(const RawRecord& r) {
  const auto peeked =
      peek_coordinator_record(CoordinatorLog::offsets, span_of(r.key), span_of(r.value), 10, 100);
  PlainOffsetCommit c;
  return peeked && read_plain_offset_commit(*peeked, c);
}

}  // namespace

// segment dump writes an OffsetCommit record (most of a real __consumer_offsets log) by
// straight-line code (read_plain_offset_commit, then its JSON) when it reads plainly, and
// through the schema walk otherwise. Each record here, good or hostile, is written as the
// record checked first is (the general walk), in every format, times shown or not, with the
// same errors: whether the straight-line read took it is checked too, so that both sides of
// the fallback are exercised.
TEST_CASE("coordinator records: an OffsetCommit written by straight-line code as by the walk",
          "[coordinator][report]") {
  const auto key = offset_commit_key("group-1", "orders", 3);
  struct Case {
    std::string what;
    RawRecord record;
    bool plain;  // read_plain_offset_commit takes it
  };
  std::vector<Case> cases;
  const auto add = [&](std::string what, std::optional<std::vector<std::uint8_t>> k,
                       std::optional<std::vector<std::uint8_t>> v, bool plain) {
    cases.push_back({std::move(what), RawRecord{std::move(k), std::move(v), 42}, plain});
  };
  // Good records of every version, a tombstone, texts to escape, times not shown (-1).
  for (int version = 0; version <= 4; ++version) {
    add(fmt::format("v{}", version), key, offset_commit_value(version, "meta", 1796292658765),
        true);
    add(fmt::format("v{} empty metadata, no time", version), key,
        offset_commit_value(version, "", -1), true);
  }
  add("v4 with topic_id", key, offset_commit_value(4, "m", 1796292658765, topic_id_section()),
      true);
  add("tombstone", key, std::nullopt, true);
  add("texts to escape", offset_commit_key("gr\"oup\\\n\x01", "t\xc3\xa9\xff", -1),
      offset_commit_value(3, "tab\there \xe2\x82", 0), true);
  add("long texts", offset_commit_key(std::string(300, 'g'), std::string(200, 't'), 0),
      offset_commit_value(4, std::string(120, 'm'), 1), true);
  // Hostile: each falls back to the walk (its notes or its error, as the check gives them).
  add("v4 metadata of 200 bytes (a two-byte length)", key,
      offset_commit_value(4, std::string(200, 'm'), 1), false);
  add("v4 topic_id and an unknown tag", key,
      offset_commit_value(
          4, "m", 1, {2, 0, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 9, 1, 0}),
      false);
  add("v4 an unknown tag alone", key, offset_commit_value(4, "m", 1, {1, 5, 2, 0xab, 0xcd}), false);
  add("v4 topic_id repeated", key,
      offset_commit_value(4, "m", 1,
                          {2, 0,  16, 1, 2, 3, 4, 5, 6, 7, 8, 9,  10, 11, 12, 13, 14, 15, 16,
                           0, 16, 1,  2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}),
      false);
  add("v4 topic_id of 15 bytes", key,
      offset_commit_value(4, "m", 1, {1, 0, 15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}),
      false);
  add("v4 topic_id of 17 bytes", key,
      offset_commit_value(4, "m", 1,
                          {1, 0, 17, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}),
      false);
  add("v4 tagged count not encoded in one byte", key, offset_commit_value(4, "m", 1, {0x80, 0}),
      false);
  add("v4 no tagged section", key, offset_commit_value(4, "m", 1, {}), false);
  {
    auto v = offset_commit_value(4, "", 1);
    v[14] = 0;  // the compact metadata's length byte: 0, a null (not nullable)
    add("v4 null metadata", key, v, false);
  }
  {
    auto v = offset_commit_value(3, "", 1);
    v[14] = 0xff;  // metadata int16 length -1: a null (not nullable)
    v[15] = 0xff;
    add("v3 null metadata", key, v, false);
  }
  {
    auto v = offset_commit_value(2, "abc", 1);
    v[10] = 0x7f;  // metadata int16 length 0x7fff: past the end
    v[11] = 0xff;
    add("v2 metadata longer than the value", key, v, false);
  }
  {
    auto k = key;
    k[2] = 0x80;  // group length negative (-32761)
    add("negative group length", k, offset_commit_value(3, "m", 1), false);
  }
  {
    auto k = key;
    k[2] = 0x7f;  // group length 32519: past the end
    add("huge group length", k, offset_commit_value(3, "m", 1), false);
  }
  {
    auto k = key;
    k.push_back(0);
    add("a byte after the key", k, offset_commit_value(3, "m", 1), false);
  }
  {
    auto v = offset_commit_value(3, "m", 1);
    v.push_back(0);
    add("a byte after the value", key, v, false);
  }
  {
    auto v = offset_commit_value(4, "m", 1);
    v[1] = 5;  // version 5: not one Kafka writes
    add("value version 5", key, v, false);
    v[0] = 0xff;
    v[1] = 0xff;
    add("value version -1", key, v, false);
  }
  {
    auto k = key;
    k[1] = 0;  // LegacyOffsetCommit (type 0): the walk's
    add("type 0", k, offset_commit_value(0, "m", 1), false);
  }
  add("no key", std::nullopt, offset_commit_value(3, "m", 1), false);
  // Every cut of a good v3 and v4 record's key and value.
  for (const auto& good : {offset_commit_value(3, "meta", 1796292658765),
                           offset_commit_value(4, "meta", 1796292658765, topic_id_section())}) {
    for (std::size_t n = 0; n < key.size(); ++n)
      add(fmt::format("key cut to {}", n), std::vector<std::uint8_t>(key.begin(), key.begin() + n),
          good, false);
    for (std::size_t n = 0; n < good.size(); ++n)
      add(fmt::format("value cut to {}", n), key,
          std::vector<std::uint8_t>(good.begin(), good.begin() + n), false);
  }
  std::size_t failed = 0, noted = 0;
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK(read_plainly(c.record) == c.plain);
    for (const bool iso : {true, false}) {
      const Written checked = written(CoordinatorLog::offsets, c.record, false, iso);
      const Written deferred = written(CoordinatorLog::offsets, c.record, true, iso);
      CHECK(deferred == checked);
      if (c.plain) {
        CHECK(checked.error_count == 0);
        CHECK(checked.json.find("\"type\":\"offset_commit\"") != std::string::npos);
        CHECK(checked.json.find("\"notes\"") == std::string::npos);
      }
      failed += checked.error_count > 0;
      noted += checked.json.find("\"notes\"") != std::string::npos;
    }
  }
  CHECK(failed > 50);  // the fallback's errors
  CHECK(noted >= 8);   // and its notes (unknown or repeated tags, bytes left over)
}

namespace {

using Bytes = std::vector<std::uint8_t>;

// A KIP-848 record's key (type, group_id and, when given, a second string) and the parts of
// its version-0 (flexible) value.
Bytes group_key(int type, std::string_view group, std::optional<std::string_view> second) {
  Bytes key;
  put_i16(key, type);
  put_string(key, group);
  if (second) put_string(key, *second);
  return key;
}
void put_compact(Bytes& out, std::string_view s) {
  put_uvarint(out, static_cast<std::uint32_t>(s.size() + 1));
  out.insert(out.end(), s.begin(), s.end());
}
void append_raw(Bytes& out, const Bytes& b) {
  out.insert(out.end(), b.begin(), b.end());
}
Bytes topic_uuid(int seed) {
  Bytes id;
  for (int i = 0; i < 16; ++i)
    id.push_back(static_cast<std::uint8_t>(seed * 17 + i));
  return id;
}
// A compact array of `topics` TopicPartitions of `partitions` each, the element's tagged
// section `tags(i)` (empty: {0}).
Bytes topic_list(std::size_t topics, std::size_t partitions,
                 const std::function<Bytes(std::size_t)>& tags) {
  Bytes out;
  put_uvarint(out, static_cast<std::uint32_t>(topics + 1));
  for (std::size_t i = 0; i < topics; ++i) {
    append_raw(out, topic_uuid(static_cast<int>(i)));
    put_uvarint(out, static_cast<std::uint32_t>(partitions + 1));
    for (std::size_t p = 0; p < partitions; ++p)
      put_i32(out, static_cast<std::int32_t>(p * 3 - 1));
    append_raw(out, tags(i));
  }
  return out;
}
Bytes no_tags(std::size_t) {
  return {0};
}
// assignment_epochs of n epochs in tag 0 (its size as given, or its true one).
Bytes epochs_tag(std::size_t n, std::optional<std::uint8_t> size = std::nullopt) {
  Bytes inner;
  put_uvarint(inner, static_cast<std::uint32_t>(n + 1));
  for (std::size_t e = 0; e < n; ++e)
    put_i32(inner, static_cast<std::int32_t>(e + 5));
  Bytes out = {1, 0, size.value_or(static_cast<std::uint8_t>(inner.size()))};
  append_raw(out, inner);
  return out;
}

// Whether the straight-line reads take the record (peeked as segment dump peeks it).
bool read_plain_coordinator(const RawRecord& r) {
  const auto peeked =
      peek_coordinator_record(CoordinatorLog::offsets, span_of(r.key), span_of(r.value), 10, 100);
  if (!peeked || !plain_key_schema(*peeked->type)) return false;
  PlainCoordinatorKey key;
  if (!read_plain_key(*peeked, key)) return false;
  if (plain_tombstone(*peeked)) return true;
  switch (peeked->type->type) {
    case 3:
    case 6: {
      PlainEpochValue v;
      return read_plain_epoch_value(*peeked, v);
    }
    case 5: {
      PlainMemberMetadata v;
      return read_plain_member_metadata(*peeked, v);
    }
    case 7: {
      PlainTopicList v;
      return read_plain_target_member(*peeked, v);
    }
    case 8: {
      PlainCurrentAssignment v;
      return read_plain_current_assignment(*peeked, v);
    }
    case 16: {
      PlainRegularExpression v;
      return read_plain_regular_expression(*peeked, v);
    }
    default:
      return false;
  }
}

}  // namespace

// segment dump writes a coordinator record's key, a tombstone, and the commonest KIP-848
// records' values by straight-line code (coordinator_plain.hpp) when they read plainly, and
// through the schema walk otherwise. Each record here, good or hostile, is written as the
// record checked first is (the general walk), in every format, times shown or not, with the
// same errors; whether the straight-line read took it is checked too.
TEST_CASE(
    "coordinator records: KIP-848 records and tombstones written by straight-line code "
    "as by the walk",
    "[coordinator][report]") {
  struct Case {
    std::string what;
    RawRecord record;
    bool plain;
  };
  std::vector<Case> cases;
  const auto add = [&](std::string what, std::optional<Bytes> k, std::optional<Bytes> v,
                       bool plain) {
    cases.push_back({std::move(what), RawRecord{std::move(k), std::move(v), 42}, plain});
  };
  const auto v0 = [](std::initializer_list<Bytes> parts) {
    Bytes v = {0, 0};
    for (const auto& p : parts)
      append_raw(v, p);
    return v;
  };
  const auto i32 = [](std::int32_t x) {
    Bytes b;
    put_i32(b, x);
    return b;
  };
  const auto i64 = [](std::int64_t x) {
    Bytes b;
    put_i64(b, x);
    return b;
  };
  const auto compact = [](std::string_view s) {
    Bytes b;
    put_compact(b, s);
    return b;
  };
  const auto tag0_i64 = [&](std::int64_t x) {
    Bytes b = {1, 0, 8};
    append_raw(b, i64(x));
    return b;
  };
  const std::string member = "SFcu0JPvRVqnCgvp92iALg";
  // Tombstones of every group record type here, and keys to escape or long.
  for (int type : {2, 3, 5, 6, 7, 8, 16}) {
    const bool two = type == 5 || type == 7 || type == 8 || type == 16;
    add(fmt::format("type {} tombstone", type),
        group_key(type, "g", two ? std::optional<std::string_view>(member) : std::nullopt),
        std::nullopt, true);
  }
  add("tombstone, texts to escape", group_key(8, "gr\"oup\\\n\x01", "m\xc3\xa9\xff"), std::nullopt,
      true);
  add("tombstone, long texts", group_key(5, std::string(300, 'g'), std::string(200, 'm')),
      std::nullopt, true);
  add(
      "tombstone, a byte after the key",
      [&] {
        auto k = group_key(7, "g", member);
        k.push_back(0);
        return k;
      }(),
      std::nullopt, false);
  add("tombstone, member id missing", group_key(7, "g", std::nullopt), std::nullopt, false);
  // ConsumerGroupMetadata (3) and TargetAssignmentMetadata (6).
  for (int type : {3, 6}) {
    const auto key = group_key(type, "kip848-group", std::nullopt);
    add(fmt::format("{} no tag", type), key, v0({i32(3), {0}}), true);
    add(fmt::format("{} tag 0", type), key, v0({i32(2), tag0_i64(1796292660385)}), true);
    add(fmt::format("{} tag 0, time -1", type), key, v0({i32(2), tag0_i64(-1)}), true);
    add(fmt::format("{} unknown tag", type), key, v0({i32(2), {1, 1, 1, 7}}), false);
    add(fmt::format("{} tag 0 and an unknown tag", type), key,
        v0({i32(2), {2, 0, 8, 0, 0, 0, 0, 0, 0, 0, 9, 3, 1, 7}}), false);
    add(fmt::format("{} tag 0 of 7 bytes", type), key, v0({i32(2), {1, 0, 7, 0, 0, 0, 0, 0, 0, 9}}),
        false);
    add(fmt::format("{} tag 0 of 9 bytes", type), key,
        v0({i32(2), {1, 0, 9, 0, 0, 0, 0, 0, 0, 0, 9, 1}}), false);
    add(fmt::format("{} tag 0 repeated", type), key,
        v0({i32(2), {2, 0, 8, 0, 0, 0, 0, 0, 0, 0, 9, 0, 8, 0, 0, 0, 0, 0, 0, 0, 8}}), false);
    add(fmt::format("{} no tagged section", type), key, v0({i32(2)}), false);
    add(
        fmt::format("{} version 1", type), key,
        [&] {
          auto v = v0({i32(2), {0}});
          v[1] = 1;
          return v;
        }(),
        false);
  }
  // TargetAssignmentMember (7).
  const auto key7 = group_key(7, "kip848-group", member);
  for (std::size_t topics : {0, 1, 3, 8, 9})
    add(fmt::format("7 of {} topics", topics), key7, v0({topic_list(topics, 3, no_tags), {0}}),
        topics <= 8);
  add("7 of 200 partitions (a two-byte count)", key7, v0({topic_list(1, 200, no_tags), {0}}),
      false);
  add("7 null topic list", key7, v0({{0}, {0}}), false);
  add("7 an element's unknown tag", key7,
      v0({topic_list(1, 2,
                     [](std::size_t) {
                       return Bytes{1, 4, 1, 9};
                     }),
          {0}}),
      false);
  add("7 the value's unknown tag", key7, v0({topic_list(1, 2, no_tags), {1, 4, 1, 9}}), false);
  // CurrentMemberAssignment (8).
  const auto key8 = group_key(8, "kip848-group", member);
  const auto current = [&](const Bytes& assigned, const Bytes& pending, Bytes tags = {0}) {
    return v0({i32(2), i32(-1), {1}, assigned, pending, tags});
  };
  const auto with_epochs = [](std::size_t) { return epochs_tag(3); };
  add("8 empty", key8, current(topic_list(0, 0, no_tags), topic_list(0, 0, no_tags)), true);
  add("8 assigned with epochs", key8,
      current(topic_list(2, 3, with_epochs), topic_list(0, 0, no_tags)), true);
  add("8 both, epochs in one", key8,
      current(topic_list(2, 3, [](std::size_t i) { return i ? epochs_tag(2) : Bytes{0}; }),
              topic_list(1, 1, no_tags)),
      true);
  add("8 no epochs, empty partitions", key8,
      current(topic_list(1, 0, no_tags), topic_list(1, 0, with_epochs)), true);
  add("8 epochs' size a byte long", key8,
      current(topic_list(1, 3, [](std::size_t) { return epochs_tag(3, 14); }),
              topic_list(0, 0, no_tags)),
      false);
  add("8 epochs' size a byte short", key8,
      current(topic_list(1, 3, [](std::size_t) { return epochs_tag(3, 12); }),
              topic_list(0, 0, no_tags)),
      false);
  add("8 null epochs", key8,
      current(topic_list(1, 3,
                         [](std::size_t) {
                           return Bytes{1, 0, 1, 0};
                         }),
              topic_list(0, 0, no_tags)),
      false);
  add("8 epochs and an unknown tag", key8,
      current(topic_list(1, 3,
                         [](std::size_t) {
                           auto t = epochs_tag(1);
                           t[0] = 2;
                           append_raw(t, {5, 1, 0});
                           return t;
                         }),
              topic_list(0, 0, no_tags)),
      false);
  add("8 the value's unknown tag", key8,
      current(topic_list(0, 0, no_tags), topic_list(0, 0, no_tags), {1, 3, 1, 0}), false);
  // MemberMetadata (5).
  const auto key5 = group_key(5, "kip848-group", member);
  const auto names = [&](std::initializer_list<std::string_view> topics) {
    Bytes b;
    put_uvarint(b, static_cast<std::uint32_t>(topics.size() + 1));
    for (auto t : topics)
      put_compact(b, t);
    return b;
  };
  const Bytes null_string = {0};
  const auto member5 = [&](const Bytes& instance, const Bytes& topics, const Bytes& regex,
                           const Bytes& tags) {
    return v0({instance, null_string, compact("consumer-kip848-group-3"), compact("/127.0.0.1"),
               topics, regex, i32(300000), null_string, tags});
  };
  add("5 as Kafka writes it", key5,
      member5(null_string, names({"orders"}), compact(""), {1, 0, 1, 0}), true);
  add("5 no tag, texts", key5,
      member5(compact("inst\"1"), names({"a", "b\\", "c\x01"}), null_string, {0}), true);
  add("5 16 topics", key5,
      member5(
          null_string,
          names({"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"}),
          null_string, {0}),
      true);
  add("5 17 topics", key5,
      member5(null_string,
              names({"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p",
                     "q"}),
              null_string, {0}),
      false);
  add("5 a null topic", key5, member5(null_string, Bytes{2, 0}, null_string, {0}), false);
  add("5 a null client_id", key5,
      v0({null_string,
          null_string,
          null_string,
          compact("h"),
          names({}),
          null_string,
          i32(1),
          null_string,
          {0}}),
      false);
  add("5 a classic member", key5,
      member5(null_string, names({"orders"}), null_string, {1, 0, 6, 1, 0, 0, 0, 1, 1}), false);
  add("5 a client id of 200 bytes", key5,
      v0({null_string,
          null_string,
          compact(std::string(200, 'c')),
          compact("h"),
          names({}),
          null_string,
          i32(1),
          null_string,
          {0}}),
      false);
  // RegularExpression (16).
  const auto key16 = group_key(16, "kip848-regex", "ord.*");
  add("16 as Kafka writes it", key16, v0({names({"orders"}), i64(59), i64(1796292661248), {0}}),
      true);
  add("16 no topics, time -1", key16, v0({names({}), i64(0), i64(-1), {0}}), true);
  add("16 an unknown tag", key16, v0({names({"o"}), i64(1), i64(2), {1, 0, 1, 0}}), false);
  // Every cut of good records' keys and values, and a byte after each.
  for (const auto& good :
       {RawRecord{group_key(3, "g", std::nullopt), v0({i32(2), tag0_i64(77)}), 42},
        RawRecord{key8, current(topic_list(2, 3, with_epochs), topic_list(1, 1, no_tags)), 42},
        RawRecord{key7, v0({topic_list(2, 2, no_tags), {0}}), 42},
        RawRecord{key5, member5(compact("i"), names({"orders", "x"}), compact("r"), {1, 0, 1, 0}),
                  42},
        RawRecord{key16, v0({names({"orders"}), i64(59), i64(1796292661248), {0}}), 42}}) {
    for (std::size_t n = 0; n < good.key->size(); ++n)
      add(fmt::format("key cut to {}", n), Bytes(good.key->begin(), good.key->begin() + n),
          good.value, false);
    for (std::size_t n = 0; n < good.value->size(); ++n)
      add(fmt::format("value cut to {}", n), good.key,
          Bytes(good.value->begin(), good.value->begin() + n), false);
    auto longer = *good.value;
    longer.push_back(0);
    add("a byte after the value", good.key, longer, false);
    add("good", good.key, good.value, true);
  }
  std::size_t failed = 0, noted = 0, plain = 0;
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK(read_plain_coordinator(c.record) == c.plain);
    plain += c.plain;
    for (const bool iso : {true, false}) {
      const Written checked = written(CoordinatorLog::offsets, c.record, false, iso);
      const Written deferred = written(CoordinatorLog::offsets, c.record, true, iso);
      CHECK(deferred == checked);
      if (c.plain) {
        CHECK(checked.error_count == 0);
        CHECK(checked.json.find("\"notes\"") == std::string::npos);
      }
      failed += checked.error_count > 0;
      noted += checked.json.find("\"notes\"") != std::string::npos;
    }
  }
  CHECK(plain > 30);
  CHECK(failed > 100);  // the fallback's errors
  CHECK(noted >= 10);   // and its notes (unknown or repeated tags, bytes left over)
}

namespace {

// A GroupMetadataValue v3 of one member (classic strings and arrays), its protocol type and
// the member's subscription and assignment bytes as given.
Bytes group_metadata_value(std::string_view protocol_type, const Bytes& subscription,
                           const Bytes& assignment, int members = 1) {
  Bytes v;
  put_i16(v, 3);
  put_string(v, protocol_type);
  put_i32(v, 4);              // generation
  put_string(v, "range");     // protocol
  put_i16(v, -1);             // leader: null
  put_i64(v, 1796292658442);  // current_state_timestamp
  put_i32(v, members);        // members
  for (int m = 0; m < members; ++m) {
    put_string(v, fmt::format("consumer-{}", m));  // member_id
    put_string(v, "static\"1");                    // group_instance_id
    put_string(v, "client");
    put_string(v, "/127.0.0.1");
    put_i32(v, 300000);
    put_i32(v, 45000);
    put_bytes(v, subscription);  // int32 length, then the bytes
    put_bytes(v, assignment);
  }
  return v;
}
// A consumer protocol Subscription at `version` (topics, user_data, owned_partitions from 1,
// generation_id from 2, rack_id from 3).
Bytes subscription(int version, bool user_data = false, bool rack = false) {
  Bytes s;
  put_i16(s, version);
  put_i32(s, 2);
  put_string(s, "orders");
  put_string(s, "pay\\ments");
  if (user_data)
    put_bytes(s, {1, 2, 3, 250});
  else
    put_i32(s, -1);
  if (version >= 1) {
    put_i32(s, 1);
    put_string(s, "orders");
    put_i32(s, 2);
    put_i32(s, 0);
    put_i32(s, 7);
  }
  if (version >= 2) put_i32(s, 9);
  if (version >= 3) {
    if (rack)
      put_string(s, "rack-a");
    else
      put_i16(s, -1);
  }
  return s;
}
Bytes assignment(int version, int topics = 1) {
  Bytes a;
  put_i16(a, version);
  put_i32(a, topics);
  for (int t = 0; t < topics; ++t) {
    put_string(a, fmt::format("t{}", t));
    put_i32(a, 3);
    for (int p = 0; p < 3; ++p)
      put_i32(a, p);
  }
  put_i32(a, -1);
  return a;
}

}  // namespace

// A classic group's GroupMetadata record (its members' protocol bytes decoded when the
// protocol type is "consumer") written by straight-line code when it reads plainly, through
// the walk otherwise: each, good or hostile, written as the record checked first is.
TEST_CASE("coordinator records: a GroupMetadata written by straight-line code as by the walk",
          "[coordinator][report]") {
  Bytes key;
  put_i16(key, 2);
  put_string(key, "classic-group");
  std::vector<std::pair<std::string, RawRecord>> cases;
  const auto add = [&](std::string what, Bytes v) {
    cases.push_back({std::move(what), RawRecord{key, std::move(v), 42}});
  };
  for (int version = 0; version <= 3; ++version) {
    add(fmt::format("subscription v{}", version),
        group_metadata_value("consumer", subscription(version), assignment(version)));
    add(fmt::format("subscription v{}, user data, rack", version),
        group_metadata_value("consumer", subscription(version, true, true),
                             assignment(version, 3)));
  }
  add("no members", group_metadata_value("consumer", {}, {}, 0));
  add("three members", group_metadata_value("consumer", subscription(3), assignment(0), 3));
  add("another protocol type (bytes as base64)",
      group_metadata_value("connect", subscription(1), assignment(1), 2));
  add("subscription v4 (base64)", group_metadata_value(
                                      "consumer",
                                      [] {
                                        auto s = subscription(3);
                                        s[1] = 4;
                                        return s;
                                      }(),
                                      assignment(0)));
  add("subscription with a byte left over", group_metadata_value(
                                                "consumer",
                                                [] {
                                                  auto s = subscription(2);
                                                  s.push_back(0);
                                                  return s;
                                                }(),
                                                assignment(0)));
  add("assignment with a byte left over", group_metadata_value("consumer", subscription(0), [] {
        auto a = assignment(0);
        a.push_back(0);
        return a;
      }()));
  add("empty subscription", group_metadata_value("consumer", {}, assignment(0)));
  add("subscription of a null topic", group_metadata_value(
                                          "consumer",
                                          [] {
                                            Bytes s;
                                            put_i16(s, 0);
                                            put_i32(s, 1);
                                            put_i16(s, -1);
                                            put_i32(s, -1);
                                            return s;
                                          }(),
                                          assignment(0)));
  {
    auto v = group_metadata_value("consumer", subscription(0), assignment(0));
    v.push_back(0);
    add("a byte after the value", v);
  }
  {
    auto v = group_metadata_value("consumer", subscription(0), assignment(0));
    v[1] = 2;  // version 2: read as v2 (no group_instance_id): the walk's
    add("version 2", v);
  }
  const auto good = group_metadata_value("consumer", subscription(3, true, true), assignment(1, 2));
  for (std::size_t n = 0; n < good.size(); ++n)
    add(fmt::format("value cut to {}", n), Bytes(good.begin(), good.begin() + n));
  std::size_t failed = 0;
  for (const auto& [what, record] : cases) {
    INFO(what);
    for (const bool iso : {true, false}) {
      const Written checked = written(CoordinatorLog::offsets, record, false, iso);
      const Written deferred = written(CoordinatorLog::offsets, record, true, iso);
      CHECK(deferred == checked);
      failed += checked.error_count > 0;
    }
  }
  CHECK(failed > 50);
}

namespace {

// A KIP-848 record's key of strings (type, then classic strings) and a value of `version` with an
// int32 and the tagged section `tagged` (its bytes as given, count first).
std::vector<std::uint8_t> strings_key(int type, std::initializer_list<std::string_view> ids) {
  std::vector<std::uint8_t> key;
  put_i16(key, type);
  for (const std::string_view id : ids)
    put_string(key, id);
  return key;
}
std::vector<std::uint8_t> epoch_value(int version, std::int32_t epoch,
                                      const std::vector<std::uint8_t>& tagged) {
  std::vector<std::uint8_t> value;
  put_i16(value, version);
  put_i32(value, epoch);
  value.insert(value.end(), tagged.begin(), tagged.end());
  return value;
}
// A tagged section of one int64 field (tag, 8 bytes).
std::vector<std::uint8_t> tagged_i64(int tag, std::int64_t v) {
  std::vector<std::uint8_t> out = {1, static_cast<std::uint8_t>(tag), 8};
  put_i64(out, v);
  return out;
}

}  // namespace

// YAML writes a coordinator record's head, a key of strings and a value of scalars (tagged
// integers too) by lines made once per record type (yaml_coordinator.cpp), and a record the
// walk would refuse or note by the walk: the same text and errors as the record checked first,
// in every format.
TEST_CASE("coordinator records: a KIP-848 record's key and scalar value by lines as by the walk",
          "[coordinator][report]") {
  std::vector<RawRecord> records;
  const auto add = [&](std::optional<std::vector<std::uint8_t>> k,
                       std::optional<std::vector<std::uint8_t>> v) {
    records.push_back(RawRecord{std::move(k), std::move(v), 7});
  };
  // ConsumerGroupMetadata (3: epoch, metadata_hash tagged 0), TargetAssignmentMetadata (6:
  // assignment_epoch, assignment_timestamp tagged 0, a time), tombstones of 3, 5, 6, 7, 8.
  for (const std::string_view group :
       {std::string_view("kip848-group"), std::string_view(""), std::string_view("true"),
        std::string_view("12"), std::string_view("a: b"), std::string_view("- x"),
        std::string_view("t\xc3\xa9\xff\n\x01\"")}) {
    const auto k3 = strings_key(3, {group});
    const auto k6 = strings_key(6, {group});
    add(k3, epoch_value(0, 2, {0}));
    add(k3, epoch_value(0, -1, tagged_i64(0, -3633179015556408054)));
    add(k6, epoch_value(0, 3, {0}));
    add(k6, epoch_value(0, 3, tagged_i64(0, 1796292658765)));
    add(k6, epoch_value(0, 3, tagged_i64(0, -1)));
    for (const int type : {3, 5, 6, 7, 8})
      add(type == 5 || type >= 7 ? strings_key(type, {group, "SFcu0JPvRVqnCgvp92iALg"})
                                 : strings_key(type, {group}),
          std::nullopt);
  }
  const auto k3 = strings_key(3, {"g"});
  const auto k6 = strings_key(6, {"g"});
  // Refused or noted by the walk: each goes by it.
  add(k3, epoch_value(0, 2, {1, 0, 7, 1, 2, 3, 4, 5, 6, 7}));        // a tag 7 bytes long
  add(k3, epoch_value(0, 2, {1, 0, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9}));  // 9 bytes long
  add(k3, epoch_value(0, 2, {1, 1, 8, 1, 2, 3, 4, 5, 6, 7, 8}));     // an unknown tag
  add(k3, epoch_value(0, 2, {2, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8}));
  add(k3, epoch_value(0, 2, {0x80, 0}));                          // a two-byte count
  add(k3, epoch_value(0, 2, {0, 0}));                             // a byte after
  add(k3, epoch_value(0, 2, {}));                                 // no tagged section
  add(k3, epoch_value(9, 2, {0}));                                // a version it lacks
  add(k6, epoch_value(0, 3, {2, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8}));  // a tag missing
  {
    auto k = k3;
    k.push_back(0);
    add(k, epoch_value(0, 2, {0}));  // a byte after the key
    k = k3;
    k[2] = 0x80;
    add(k, epoch_value(0, 2, {0}));  // a negative group length
    k[2] = 0x7f;
    add(k, epoch_value(0, 2, {0}));  // past the key's end
  }
  // Every cut of a good record's key and value.
  for (const auto& [key, value] : {std::pair(k3, epoch_value(0, 2, tagged_i64(0, 5))),
                                   std::pair(k6, epoch_value(0, 3, {0}))}) {
    for (std::size_t n = 0; n < key.size(); ++n)
      add(std::vector<std::uint8_t>(key.begin(), key.begin() + n), value);
    for (std::size_t n = 0; n < value.size(); ++n)
      add(key, std::vector<std::uint8_t>(value.begin(), value.begin() + n));
  }
  std::size_t good = 0, failed = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    INFO("record " << i);
    for (const bool iso : {true, false}) {
      const Written checked = written(CoordinatorLog::offsets, records[i], false, iso);
      const Written deferred = written(CoordinatorLog::offsets, records[i], true, iso);
      CHECK(deferred == checked);
      good += checked.error_count == 0 && checked.json.find("\"notes\"") == std::string::npos;
      failed += checked.error_count > 0;
    }
  }
  CHECK(good >= 2 * 7 * 10);  // the good records, in both time forms
  CHECK(failed > 20);
}
