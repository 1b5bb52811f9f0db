// The records of the coordinators' logs (__consumer_offsets, __transaction_state), read as
// Kafka's CoordinatorRecordSerde reads them, on segments written by real Kafka 4.4.0 and 3.9.1
// (tests/data/coordinator/<version>, made by the oracle coordinator-logs-vs-kafka with
// KEPOCH_COORDINATOR_FIXTURES set; DumpLogSegments' decode of them beside: the CLI test
// segment-coordinator-records compares every field). Here: the schema table against the
// versions Kafka's schema files give (tests/unit/data/coordinator-schemas/versions.tsv,
// written with the table by gen_coordinator_schema.py), and hostile bytes made from the real
// records: every cut of a key or value, an unknown record type or value version, lengths
// beyond the bytes, a missing key. Each is a FormatError with a position inside the record
// (Kafka: the serde's RuntimeException; DumpLogSegments prints "Error at offset N"), never a
// crash or an allocation of the length's size.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "kepoch/format/coordinator_record.hpp"
#include "kepoch/storage/segment_dump.hpp"

namespace {

using namespace kepoch;
using Bytes = std::vector<std::uint8_t>;

struct RawRecord {
  std::optional<Bytes> key;
  std::optional<Bytes> value;
};

std::string fixture(const std::string& version, const std::string& file) {
  return std::string(KEPOCH_SOURCE_DIR) + "/tests/data/coordinator/" + version + "/" + file;
}

// Every data record of a fixture segment, key and value copied out.
std::vector<RawRecord> raw_records(const std::string& path) {
  std::vector<RawRecord> out;
  SegmentDumpOptions o;
  o.records = true;
  o.walk_records = true;
  dump_segment(path, o, [&](DumpedBatch& b) {
    walk_records(b, [&](const Record& r, const DumpedControl* c, const DumpedCoordinator*) {
      if (c) return;
      RawRecord raw;
      if (r.key) raw.key = Bytes(r.key->begin(), r.key->end());
      if (r.value) raw.value = Bytes(r.value->begin(), r.value->end());
      out.push_back(std::move(raw));
    });
  });
  return out;
}

std::optional<std::span<const std::uint8_t>> span_of(const std::optional<Bytes>& b) {
  if (!b) return std::nullopt;
  return std::span<const std::uint8_t>(*b);
}

CoordinatorRecord decode(CoordinatorLog log, const RawRecord& r) {
  return decode_coordinator_record(log, span_of(r.key), span_of(r.value), 1000, 2000);
}

CheckedCoordinatorRecord check(CoordinatorLog log, const RawRecord& r) {
  return check_coordinator_record(log, span_of(r.key), span_of(r.value), 1000, 2000);
}

// The FormatError `f` throws, its position and message.
template <typename F>
std::pair<std::uint64_t, std::string> failure(F f) {
  try {
    f();
  } catch (const FormatError& e) {
    return {e.position(), e.what()};
  }
  FAIL("no FormatError");
  return {};
}

const std::map<std::string, CoordinatorLog> kLogs = {
    {"__consumer_offsets-0/00000000000000000000.log", CoordinatorLog::offsets},
    {"__consumer_offsets-1/00000000000000000000.log", CoordinatorLog::offsets},
    {"__transaction_state-0/00000000000000000000.log", CoordinatorLog::transactions},
    {"__transaction_state-1/00000000000000000000.log", CoordinatorLog::transactions},
};

}  // namespace

TEST_CASE("coordinator schema table: every type and value version Kafka's schema files give",
          "[coordinator]") {
  std::ifstream in(std::string(KEPOCH_SOURCE_DIR) +
                   "/tests/unit/data/coordinator-schemas/versions.tsv");
  REQUIRE(in);
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.starts_with("release\t")) continue;
    std::istringstream row(line);
    std::string release, log_name, record;
    int type = 0, first = 0, last = 0;
    row >> release >> log_name >> type >> record >> first >> last;
    const CoordinatorLog log = log_name == "offsets"        ? CoordinatorLog::offsets
                               : log_name == "transactions" ? CoordinatorLog::transactions
                                                            : CoordinatorLog::share_state;
    INFO(line);
    const CoordinatorRecordType* t = coordinator_record_type(log, type);
    REQUIRE(t);
    ++rows;
    // 3.9 and 4.0 read type 0 (a key of version 0, Kafka 0.8's) with OffsetCommitValue; 4.1+
    // name it LegacyOffsetCommit, value version 0 only, and kepoch reads it as 4.4 does.
    // Kafka 0.9+ writes type 1.
    if ((release == "3.9.1" || release == "4.0.2") && type == 0 && log == CoordinatorLog::offsets) {
      CHECK(t->name == "LegacyOffsetCommit");
      continue;
    }
    CHECK(t->name == record);
    CHECK(t->value.first_version <= first);
    CHECK(t->value.last_version >= last);
  }
  CHECK(rows > 40);
  // The types of 4.4 (CoordinatorRecordType: 0-8, 10-17, 19-23) and 3.9's type 9
  // (ShareGroupPartitionMetadata, which 4.x dropped).
  CHECK(coordinator_record_types(CoordinatorLog::offsets).size() == 23);
  CHECK(coordinator_record_type(CoordinatorLog::offsets, 18) == nullptr);
  CHECK(coordinator_record_type(CoordinatorLog::transactions, 0)->snake_name == "transaction_log");
}

TEST_CASE(
    "coordinator records of real Kafka decode, and every cut of them fails at a position "
    "inside the record",
    "[coordinator]") {
  for (const std::string version : {"4.4.0", "3.9.1"}) {
    for (const auto& entry : kLogs) {
      // Not a structured binding: clang 14 cannot capture one in the lambdas below.
      const std::string& file = entry.first;
      const CoordinatorLog log = entry.second;
      const auto records = raw_records(fixture(version, file));
      INFO(version << " " << file);
      REQUIRE(!records.empty());
      for (const auto& r : records) {
        const CoordinatorRecord ok = decode(log, r);
        REQUIRE(ok.type);
        CHECK(ok.notes.empty());
        CHECK(ok.value_version.has_value() == r.value.has_value());
        // check_coordinator_record (segment dump's, building nothing) reads as the decode:
        // the same notes, and below the same error at the same byte for every cut.
        CHECK(check(log, r).notes == ok.notes);
        for (std::size_t n = 0; n < r.key->size(); ++n) {
          RawRecord cut = r;
          cut.key->resize(n);
          const auto [at, what] = failure([&] { decode(log, cut); });
          CHECK(at >= 1000);
          CHECK(at <= 1000 + n);
          CHECK(failure([&] { check(log, cut); }) == std::pair(at, what));
        }
        if (!r.value) continue;
        for (std::size_t n = 0; n < r.value->size(); ++n) {
          RawRecord cut = r;
          cut.value->resize(n);
          const auto [at, what] = failure([&] { decode(log, cut); });
          CHECK(at >= 2000);
          CHECK(at <= 2000 + n);
          CHECK(failure([&] { check(log, cut); }) == std::pair(at, what));
        }
      }
    }
  }
}

TEST_CASE("coordinator records: unknown type, unknown value version, no key, bytes after",
          "[coordinator]") {
  const auto records =
      raw_records(fixture("4.4.0", "__transaction_state-0/00000000000000000000.log"));
  REQUIRE(!records.empty());
  RawRecord r = records.front();

  SECTION("a record type the log does not have: Kafka's UnknownRecordTypeException") {
    (*r.key)[0] = 0;
    (*r.key)[1] = 99;
    const auto [at, what] = failure([&] { decode(CoordinatorLog::transactions, r); });
    CHECK(at == 1000);
    CHECK(what.find("Unknown record type 99") != std::string::npos);
    // The transaction log's type 0 read as an offsets log record: LegacyOffsetCommitKey wants
    // three fields, the key has one: a short key.
    RawRecord s = records.front();
    CHECK_THROWS_AS(decode(CoordinatorLog::offsets, s), FormatError);
  }
  SECTION("a value version the schema does not have") {
    (*r.value)[0] = 0;
    (*r.value)[1] = 2;  // TransactionLogValue: 0-1
    const auto [at, what] = failure([&] { decode(CoordinatorLog::transactions, r); });
    CHECK(at == 2000);
    CHECK(what.find("TransactionLogValue version 2") != std::string::npos);
  }
  SECTION("no key") {
    r.key.reset();
    const auto [at, what] = failure([&] { decode(CoordinatorLog::transactions, r); });
    CHECK(what.find("without a key") != std::string::npos);
  }
  SECTION("a tombstone: the key alone") {
    r.value.reset();
    const CoordinatorRecord t = decode(CoordinatorLog::transactions, r);
    CHECK(!t.value_version);
    CHECK(t.value.kind == SchemaValue::Kind::null);
    REQUIRE(t.key.members.size() == 1);
    CHECK(t.key.members[0].name == "transactional_id");
  }
  SECTION("bytes after the value's fields are noted, as Kafka reads past them") {
    r.value->push_back(0x42);
    const CoordinatorRecord t = decode(CoordinatorLog::transactions, r);
    REQUIRE(t.notes.size() == 1);
    CHECK(t.notes[0].find("1 byte(s) after the value") != std::string::npos);
  }
}

TEST_CASE("coordinator records: a length beyond the bytes is refused before any allocation",
          "[coordinator]") {
  // OffsetCommitKey (type 1): group string (int16 length), topic, partition. A group length of
  // 0x7fff with 3 bytes left.
  const Bytes key = {0x00, 0x01, 0x7f, 0xff, 'a', 'b', 'c'};
  const auto [at, what] = failure([&] {
    decode_coordinator_record(CoordinatorLog::offsets, std::span<const std::uint8_t>(key),
                              std::nullopt, 0, 0);
  });
  CHECK(at == 4);
  // OffsetCommitValue v4 (flexible): offset, leader epoch, metadata (compact string), commit
  // timestamp, then tagged fields: a tagged field of 2^32-1 bytes.
  const Bytes key_ok = {0x00, 0x01, 0x00, 0x01, 'g', 0x00, 0x01, 't', 0x00, 0x00, 0x00, 0x00};
  Bytes value = {0x00, 0x04, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 1};
  value.insert(value.end(), {0x01, 0x00, 0xff, 0xff, 0xff, 0xff, 0x0f});
  CHECK_THROWS_AS(
      decode_coordinator_record(CoordinatorLog::offsets, std::span<const std::uint8_t>(key_ok),
                                std::span<const std::uint8_t>(value), 0, 100),
      FormatError);
  // GroupMetadataValue v0 (not flexible): members array of length 0x7fffffff.
  const Bytes group_key = {0x00, 0x02, 0x00, 0x01, 'g'};
  const Bytes group_value = {0x00, 0x00, 0x00, 0x08, 'c',  'o',  'n',  's',  'u',
                             'm',  'e',  'r',  0x00, 0x00, 0x00, 0x01, 0x00, 0x01,
                             'r',  0x00, 0x01, 'l',  0x7f, 0xff, 0xff, 0xff};
  const auto [at2, what2] = failure([&] {
    decode_coordinator_record(CoordinatorLog::offsets, std::span<const std::uint8_t>(group_key),
                              std::span<const std::uint8_t>(group_value), 0, 100);
  });
  CHECK(what2.find("Tried to allocate a collection of size 2147483647") != std::string::npos);
  CHECK(at2 == 100 + group_value.size());
}

TEST_CASE(
    "coordinator records: a classic group's member subscription and assignment are "
    "decoded as DumpLogSegments decodes them",
    "[coordinator]") {
  const auto records =
      raw_records(fixture("4.4.0", "__consumer_offsets-0/00000000000000000000.log"));
  bool seen = false;
  for (const auto& r : records) {
    const CoordinatorRecord c = decode(CoordinatorLog::offsets, r);
    if (c.type->type != 2 || !c.value_version) continue;
    for (const auto& m : c.value.members) {
      if (m.name != "members") continue;
      for (const auto& member : m.value.items) {
        for (const auto& f : member.members) {
          if (f.name != "subscription") continue;
          REQUIRE(f.value.kind == SchemaValue::Kind::object);
          REQUIRE(!f.value.members.empty());
          CHECK(f.value.members[0].name == "topics");
          CHECK(f.value.members[0].value.items.at(0).text == "orders");
          seen = true;
        }
      }
    }
  }
  CHECK(seen);
}
