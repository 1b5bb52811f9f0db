// __remote_log_metadata records (tiered storage) as Kafka's RemoteLogMetadataSerde reads them,
// on segments real Kafka 4.4.0 and 3.9.1 wrote (tests/data/tiered, whose kafka-dump-log
// --remote-log-metadata-decoder output the CLI test compares field by field), and on damaged
// values: the framing of AbstractApiMessageSerde, MetadataRecordType.fromId, the generated
// read's version check, and the checks of RemoteLogSegmentMetadata's constructor. The schema
// table covers every record and version of both releases' schema files
// (tests/unit/data/remote-log-metadata-schemas/versions.tsv, written with the table by
// gen_metadata_schema.py --remote-log-metadata).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/remote_log_metadata.hpp"
#include "kepoch/storage/segment_dump.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;

namespace {

std::string source(const std::string& rel) {
  return std::string(KEPOCH_SOURCE_DIR) + "/" + rel;
}

// The record values of a segment, in order.
std::vector<std::vector<std::uint8_t>> values(const std::string& file) {
  std::vector<std::vector<std::uint8_t>> out;
  SegmentDumpOptions o;
  o.records = true;
  dump_segment(file, o, [&](const DumpedBatch& b) {
    for (const auto& r : b.records)
      out.emplace_back(r.value->begin(), r.value->end());
  });
  return out;
}

std::string error_of(const std::vector<std::uint8_t>& v) {
  try {
    decode_remote_log_metadata_record(v, 0);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the schema table has every record type and version of Kafka 3.9.1 and 4.4.0") {
  std::ifstream in(source("tests/unit/data/remote-log-metadata-schemas/versions.tsv"));
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("release", 0) == 0) continue;
    std::istringstream f(line);
    std::string release, name, tags;
    int key = 0, first = 0, last = 0;
    f >> release >> key >> name >> first >> last >> tags;
    const RecordSchema* s = remote_log_metadata_schema(static_cast<std::uint32_t>(key));
    REQUIRE(s != nullptr);
    CHECK(s->name == name);
    CHECK(s->first_version <= first);
    CHECK(s->last_version >= last);
    ++rows;
  }
  CHECK(rows == 8);
}

TEST_CASE("records Kafka 4.4.0 wrote: a copy, its update, a delete") {
  const auto v = values(
      source("tests/data/tiered/kafka-4.4.0/__remote_log_metadata-1/00000000000000000000.log"));
  REQUIRE(v.size() >= 2);
  const auto copy = decode_remote_log_metadata_record(v[0], 0);
  REQUIRE(copy.metadata);
  CHECK(copy.api_key == 0);
  CHECK(remote_log_metadata_type_name(copy.api_key) == "REMOTE_LOG_SEGMENT_METADATA_RECORD");
  const RemoteLogMetadata& m = *copy.metadata;
  CHECK(m.kind == RemoteLogMetadata::Kind::segment);
  CHECK(m.partition.topic == "tiered");
  CHECK(m.start_offset == 0);
  CHECK(m.end_offset == 1023);
  CHECK(m.segment_leader_epochs == std::vector<std::pair<std::int32_t, std::int64_t>>{{0, 0}});
  CHECK(remote_segment_state_name(m.state) == "COPY_SEGMENT_STARTED");
  CHECK(m.txn_index_empty == true);  // 4.x writes the tagged field
  CHECK_FALSE(m.custom_metadata);
  const auto update = decode_remote_log_metadata_record(v[1], 0);
  REQUIRE(update.metadata);
  CHECK(update.metadata->kind == RemoteLogMetadata::Kind::segment_update);
  CHECK(update.metadata->segment_id == m.segment_id);
  CHECK(remote_segment_state_name(update.metadata->state) == "COPY_SEGMENT_FINISHED");
  bool deleted = false;
  for (const auto& value : v) {
    const auto r = decode_remote_log_metadata_record(value, 0);
    if (r.metadata && remote_segment_state_name(r.metadata->state) == "DELETE_SEGMENT_FINISHED")
      deleted = true;
  }
  CHECK(deleted);
}

TEST_CASE("records Kafka 3.9.1 wrote have no TxnIndexEmpty") {
  const auto v = values(
      source("tests/data/tiered/kafka-3.9.1/__remote_log_metadata-1/00000000000000000000.log"));
  REQUIRE_FALSE(v.empty());
  const auto copy = decode_remote_log_metadata_record(v[0], 0);
  REQUIRE(copy.metadata);
  CHECK_FALSE(copy.metadata->txn_index_empty.has_value());
}

TEST_CASE("damaged values are Kafka's errors, at their byte") {
  const auto v = values(
      source("tests/data/tiered/kafka-4.4.0/__remote_log_metadata-1/00000000000000000000.log"));
  REQUIRE(v.size() >= 2);
  auto with = [&](std::size_t i, std::uint8_t b) {
    auto copy = v[0];
    copy[i] = b;
    return copy;
  };
  CHECK(error_of(with(0, 0)) ==
        "Could not deserialize metadata record due to unknown frame version 0(only frame version "
        "1 is supported)");
  CHECK(error_of(with(1, 9)) == "Unknown metadata id 9");
  try {
    decode_remote_log_metadata_record(with(1, 9), 1000);
    FAIL("no error");
  } catch (const FormatError& e) {
    CHECK(e.position() == 1001);  // the api key's byte
  }
  CHECK(error_of(with(2, 1)) == "Can't read version 1 of RemoteLogSegmentMetadataRecord");
  CHECK(error_of(with(v[0].size() - 5, 9)) == "state can not be null");
  // Cut short: a field that does not fit.
  auto cut = v[0];
  cut.resize(40);
  CHECK_FALSE(error_of(cut).empty());
  // Bytes after the record.
  auto longer = v[1];
  longer.push_back(0);
  CHECK(error_of(longer) == "Found 1 byte(s) of garbage after 1");
  // An update with an unknown state is refused.
  CHECK(error_of([&] {
          auto u = v[1];
          u[u.size() - 2] = 7;
          return u;
        }()) == "state can not be null");
}
