// Pins ControlRecordType.parseTypeId, EndTransactionMarker.deserializeValue and
// ControlRecordUtils.deserialize* (LeaderChangeMessage, SnapshotHeaderRecord,
// SnapshotFooterRecord, KRaftVersionRecord, VotersRecord at schema version 0) on control
// records written by Kafka 4.1.1 (tests/data: transaction markers, the KRaft metadata log,
// bootstrap snapshots), and on damaged copies of their bytes.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/control_record.hpp"
#include "kepoch/format/record.hpp"
#include "kepoch/format/record_batch.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;
using kepoch::ControlRecord;
using kepoch::ControlRecordType;

struct RawControl {
  std::int64_t offset = 0;
  Bytes key;
  Bytes value;
};

// The records of every control batch of an uncompressed file, read with kepoch's own batch
// and record readers (held to DumpLogSegments by the oracle test).
std::vector<RawControl> control_records(const std::string& rel) {
  std::ifstream in(std::string(KEPOCH_SOURCE_DIR) + "/tests/data/" + rel, std::ios::binary);
  REQUIRE(in.good());
  const Bytes log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<RawControl> out;
  std::size_t pos = 0;
  while (pos + kepoch::kBatchHeaderSize <= log.size()) {
    const auto entry = std::span<const std::uint8_t>(log).subspan(pos);
    const auto h = kepoch::read_batch_header(entry, pos);
    const auto whole = entry.subspan(0, h.size_in_bytes());
    if (h.is_control()) {
      REQUIRE(h.codec() == 0);
      kepoch::for_each_record(h, whole.subspan(kepoch::kBatchHeaderSize),
                              pos + kepoch::kBatchHeaderSize, [&](const kepoch::Record& r) {
                                out.push_back({r.offset, Bytes(r.key->begin(), r.key->end()),
                                               Bytes(r.value->begin(), r.value->end())});
                              });
    }
    pos += h.size_in_bytes();
  }
  return out;
}

ControlRecord decode(const Bytes& key, const Bytes& value) {
  ControlRecord r = kepoch::parse_control_key(key, 100);
  kepoch::parse_control_value(r, value, 200);
  return r;
}

std::string error_of(const Bytes& key, const Bytes& value) {
  try {
    decode(key, value);
  } catch (const kepoch::FormatError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("transaction markers: COMMIT and ABORT with their coordinator epoch",
          "[format][ControlRecord]") {
  const auto raw = control_records("transactions/tx-0/00000000000000000000.log");
  REQUIRE(raw.size() == 2);
  const ControlRecord commit = decode(raw[0].key, raw[0].value);
  CHECK(commit.type == ControlRecordType::commit);
  CHECK(commit.type_id == 1);
  CHECK(commit.key_version == 0);
  CHECK(commit.version == 0);
  CHECK(commit.coordinator_epoch == 0);
  CHECK(commit.notes.empty());
  const ControlRecord abort = decode(raw[1].key, raw[1].value);
  CHECK(abort.type == ControlRecordType::abort);
  CHECK(kepoch::control_type_name(abort.type) == "abort");
  CHECK(abort.coordinator_epoch == 0);
}

TEST_CASE("LeaderChangeMessage of the KRaft metadata log: leader, voters, granting voters",
          "[format][ControlRecord]") {
  const auto raw = control_records("metadata/__cluster_metadata-0/00000000000000000000.log");
  REQUIRE(raw.size() == 1);
  CHECK(raw[0].offset == 0);
  const ControlRecord r = decode(raw[0].key, raw[0].value);
  CHECK(r.type == ControlRecordType::leader_change);
  CHECK(r.version == 0);
  CHECK(r.leader_id == 100);
  REQUIRE(r.voters.size() == 1);
  CHECK(r.voters[0].voter_id == 100);
  CHECK_FALSE(r.voters[0].voter_directory_id);  // a v1 field; Kafka reads version 0
  REQUIRE(r.granting_voters.size() == 1);
  CHECK(r.granting_voters[0].voter_id == 100);
  CHECK(r.notes.empty());
}

TEST_CASE("the bootstrap snapshot of a dynamic quorum: header, kraft.version, voters, footer",
          "[format][ControlRecord]") {
  const auto raw = control_records(
      "kraft-standalone/__cluster_metadata-0/00000000000000000000-0000000000.checkpoint");
  REQUIRE(raw.size() == 4);
  const ControlRecord header = decode(raw[0].key, raw[0].value);
  CHECK(header.type == ControlRecordType::snapshot_header);
  CHECK(header.last_contained_log_timestamp == 1795949927900);
  const ControlRecord version = decode(raw[1].key, raw[1].value);
  CHECK(version.type == ControlRecordType::kraft_version);
  CHECK(version.kraft_version == 1);
  const ControlRecord voters = decode(raw[2].key, raw[2].value);
  CHECK(voters.type == ControlRecordType::kraft_voters);
  REQUIRE(voters.voters.size() == 1);
  const auto& v = voters.voters[0];
  CHECK(v.voter_id == 100);
  REQUIRE(v.voter_directory_id);
  CHECK(v.voter_directory_id->to_string() == "B9ZRvAf-SXi4FcPmkl9SPQ");
  REQUIRE(v.endpoints.size() == 1);
  CHECK(v.endpoints[0].name == "CONTROLLER");
  CHECK(v.endpoints[0].host == "127.0.0.1");
  CHECK(v.endpoints[0].port == 19093);
  CHECK(v.min_supported_version == 0);
  CHECK(v.max_supported_version == 1);
  CHECK(voters.notes.empty());
  const ControlRecord footer = decode(raw[3].key, raw[3].value);
  CHECK(footer.type == ControlRecordType::snapshot_footer);
  CHECK(footer.version == 0);
  CHECK(footer.notes.empty());
}

TEST_CASE("bootstrap.checkpoint of a static quorum: header at timestamp 0 and footer",
          "[format][ControlRecord]") {
  const auto raw = control_records("metadata/bootstrap.checkpoint");
  REQUIRE(raw.size() == 2);
  CHECK(decode(raw[0].key, raw[0].value).last_contained_log_timestamp == 0);
  CHECK(decode(raw[1].key, raw[1].value).type == ControlRecordType::snapshot_footer);
}

TEST_CASE(
    "ControlRecordType.parseTypeId: short key, negative version, other versions, unknown type",
    "[format][ControlRecord]") {
  const auto commit = control_records("transactions/tx-0/00000000000000000000.log")[0];
  Bytes key = commit.key;
  key.pop_back();
  CHECK(error_of(key, commit.value) ==
        "Invalid value size found for end control record key. Must have at least 4 bytes, but "
        "found only 3");
  key = commit.key;
  key[0] = key[1] = 0xff;  // version -1
  CHECK(error_of(key, commit.value) ==
        "Invalid version found for control record: -1. May indicate data corruption");
  key = commit.key;
  key[1] = 3;  // version 3: Kafka parses it as version 0
  const ControlRecord v3 = decode(key, commit.value);
  CHECK(v3.type == ControlRecordType::commit);
  CHECK(v3.key_version == 3);
  CHECK(v3.notes == std::vector<std::string>{"control record key version 3 read as version 0"});
  key = commit.key;
  key[3] = 7;  // no such type: UNKNOWN, which Kafka ignores; the value is not read
  const ControlRecord unknown = decode(key, Bytes{});
  CHECK(unknown.type == ControlRecordType::unknown);
  CHECK(unknown.type_id == 7);
  CHECK(unknown.notes.size() == 1);
  // A null key (record.key() null) cannot be a control record.
  CHECK_THROWS_WITH(kepoch::parse_control_key(std::nullopt, 5),
                    "Invalid control record: the key is null");
}

TEST_CASE("EndTransactionMarker.deserializeValue: short value, negative and newer versions",
          "[format][ControlRecord]") {
  const auto commit = control_records("transactions/tx-0/00000000000000000000.log")[0];
  Bytes value = commit.value;
  value.pop_back();
  CHECK(error_of(commit.key, value) ==
        "Invalid value size found for end transaction marker. Must have at least 6 bytes, but "
        "found only 5");
  value = commit.value;
  value[0] = 0x80;  // version -32768
  CHECK(error_of(commit.key, value) ==
        "Invalid version found for end transaction marker: -32768. May indicate data corruption");
  value = commit.value;
  value[1] = 1;
  value[5] = 9;  // version 1, coordinator epoch 9
  const ControlRecord v1 = decode(commit.key, value);
  CHECK(v1.version == 1);
  CHECK(v1.coordinator_epoch == 9);
  CHECK(v1.notes == std::vector<std::string>{"end transaction marker version 1 read as version 0"});
  CHECK_THROWS_WITH(
      [&] {
        ControlRecord r = kepoch::parse_control_key(commit.key, 0);
        kepoch::parse_control_value(r, std::nullopt, 0);
      }(),
      "Invalid control record: the value is null");
}

TEST_CASE("KRaft control values cut short anywhere fail, never read past their end",
          "[format][ControlRecord]") {
  auto raw = control_records(
      "kraft-standalone/__cluster_metadata-0/00000000000000000000-0000000000.checkpoint");
  const auto leader = control_records("metadata/__cluster_metadata-0/00000000000000000000.log");
  raw.push_back(leader[0]);
  for (const auto& r : raw) {
    for (std::size_t n = 0; n < r.value.size(); ++n) {
      const Bytes cut(r.value.begin(), r.value.begin() + static_cast<std::ptrdiff_t>(n));
      INFO("type " << int(r.key[3]) << " cut to " << n << " of " << r.value.size() << " bytes");
      CHECK_THROWS_AS(decode(r.key, cut), kepoch::FormatError);
    }
  }
}

TEST_CASE("VotersRecord: a lying array length, a null string, unknown tags, trailing bytes",
          "[format][ControlRecord]") {
  const auto raw = control_records(
      "kraft-standalone/__cluster_metadata-0/00000000000000000000-0000000000.checkpoint")[2];
  // Value: Version int16, then the Voters compact array length at byte 2.
  Bytes value = raw.value;
  value[2] = 0x7f;  // 126 voters in the 52 bytes left
  CHECK(error_of(raw.key, value) ==
        "Tried to allocate a collection of size 126, but there are only 52 bytes remaining.");
  value = raw.value;
  value[2 + 1 + 4 + 16 + 1] = 0;  // the first endpoint's Name: null
  CHECK(error_of(raw.key, value) == "non-nullable field name was serialized as null");
  // The message's own tagged-field section (the last byte): one unknown tag 5 of 2 bytes.
  value = raw.value;
  value.back() = 1;
  for (std::uint8_t b : std::initializer_list<std::uint8_t>{5, 2, 0xab, 0xcd})
    value.push_back(b);
  const ControlRecord tagged = decode(raw.key, value);
  CHECK(tagged.voters.size() == 1);
  CHECK(tagged.notes ==
        std::vector<std::string>{"unknown tagged field 5 (2 bytes) in kraft_voters skipped"});
  value = raw.value;
  value.push_back(0);
  CHECK(decode(raw.key, value).notes ==
        std::vector<std::string>{"1 bytes after the message, which Kafka ignores"});
}

TEST_CASE("LeaderChangeMessage: the version field is data, the schema read is version 0",
          "[format][ControlRecord]") {
  const auto raw = control_records("metadata/__cluster_metadata-0/00000000000000000000.log")[0];
  Bytes value = raw.value;
  value[1] = 1;  // Version 1 in the body: Kafka still reads schema v0 (no directory ids)
  const ControlRecord r = decode(raw.key, value);
  CHECK(r.version == 1);
  CHECK(r.leader_id == 100);
  CHECK(r.voters.size() == 1);
  CHECK(r.notes.empty());
}
