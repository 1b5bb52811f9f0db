// Pins MetadataRecordSerde (AbstractApiMessageSerde: frame version, api key, version, no
// garbage after the body) and the generated readers of TopicRecord, PartitionRecord,
// PartitionChangeRecord, RegisterBrokerRecord, BrokerRegistrationChangeRecord,
// FeatureLevelRecord, ConfigRecord and NoOpRecord on the values Kafka 4.1.1 wrote to the
// controller's metadata log (tests/data/metadata; the expected fields are what DumpLogSegments
// --cluster-metadata-decoder printed, tests/data/metadata/dump-log-records.txt), and on
// damaged copies of those bytes.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/metadata_record.hpp"
#include "kepoch/format/record.hpp"
#include "kepoch/format/record_batch.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;
using namespace kepoch;

// The value of every record of the data batches of the fixture's metadata log, by offset,
// read with kepoch's own batch and record readers.
const std::map<std::int64_t, Bytes>& fixture_values() {
  static const std::map<std::int64_t, Bytes> values = [] {
    std::ifstream in(std::string(KEPOCH_SOURCE_DIR) +
                         "/tests/data/metadata/__cluster_metadata-0/00000000000000000000.log",
                     std::ios::binary);
    const Bytes log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::map<std::int64_t, Bytes> out;
    std::size_t pos = 0;
    while (pos + kBatchHeaderSize <= log.size()) {
      const auto entry = std::span<const std::uint8_t>(log).subspan(pos);
      const auto h = read_batch_header(entry, pos);
      if (!h.is_control() && h.codec() == 0) {
        for_each_record(h, entry.subspan(kBatchHeaderSize, h.size_in_bytes() - kBatchHeaderSize),
                        pos + kBatchHeaderSize, [&](const Record& r) {
                          out[r.offset] = Bytes(r.value->begin(), r.value->end());
                        });
      }
      pos += h.size_in_bytes();
    }
    return out;
  }();
  return values;
}

const Bytes& value_at(std::int64_t offset) {
  const auto& v = fixture_values();
  REQUIRE(v.count(offset) == 1);
  return v.at(offset);
}

MetadataRecord decode(const Bytes& b) {
  return decode_metadata_record(b, 1000);
}

template <typename T>
const T& body(const MetadataRecord& r) {
  REQUIRE(std::holds_alternative<T>(r.body));
  return std::get<T>(r.body);
}

}  // namespace

TEST_CASE("TopicRecord and PartitionRecord v2 as Kafka wrote them", "[format][MetadataRecord]") {
  const auto topic = decode(value_at(37));
  CHECK(metadata_record_type_name(topic.api_key) == "TOPIC_RECORD");
  CHECK(body<TopicRecord>(topic).name == "lc");
  CHECK(body<TopicRecord>(topic).topic_id.to_string() == "jHCv2dyMRo6LTdOknqosGQ");

  const auto rec = decode(value_at(38));
  CHECK(rec.api_key == 3);
  CHECK(rec.version == 2);
  const auto& p = body<PartitionRecord>(rec);
  CHECK(p.partition_id == 0);
  CHECK(p.topic_id.to_string() == "jHCv2dyMRo6LTdOknqosGQ");
  CHECK(p.replicas == BrokerIds{1, 2, 3});
  CHECK(p.isr == BrokerIds{1, 2, 3});
  CHECK(p.removing_replicas.empty());
  CHECK(p.adding_replicas.empty());
  CHECK(p.leader == 1);
  CHECK(p.leader_epoch == 0);
  CHECK(p.partition_epoch == 0);
  REQUIRE(p.directories.size() == 3);
  CHECK(p.directories[0].to_string() == "2SHy-gUsZCoSFGEMjF5Zcw");
  CHECK(p.leader_recovery_state == 0);
  CHECK_FALSE(p.eligible_leader_replicas);
  CHECK(rec.notes.empty());
}

TEST_CASE("PartitionChangeRecord carries only the tagged fields that changed",
          "[format][MetadataRecord]") {
  const auto shrink_record = decode(value_at(66));
  const auto& shrink = body<PartitionChangeRecord>(shrink_record);  // isr [2,3] leader 2
  CHECK(shrink.topic_id.to_string() == "jHCv2dyMRo6LTdOknqosGQ");
  CHECK(shrink.isr == BrokerIds{2, 3});
  CHECK(shrink.leader == 2);
  CHECK_FALSE(shrink.replicas);
  CHECK(shrink.leader_recovery_state == kNoLeaderRecoveryChange);

  const auto expand_record = decode(value_at(99));
  const auto& expand = body<PartitionChangeRecord>(expand_record);  // isr [2,3,1]
  CHECK(expand.isr == BrokerIds{2, 3, 1});
  CHECK(expand.leader == kNoLeaderChange);

  const auto elect_record = decode(value_at(135));
  const auto& elect = body<PartitionChangeRecord>(elect_record);  // leader 1
  CHECK_FALSE(elect.isr);
  CHECK(elect.leader == 1);
}

TEST_CASE("Broker registrations, their changes and feature levels", "[format][MetadataRecord]") {
  const auto reg = decode(value_at(10));
  CHECK(reg.version == 3);
  const auto& b = body<RegisterBrokerRecord>(reg);
  CHECK(b.broker_id == 3);
  CHECK(b.incarnation_id.to_string() == "mlNk_ootRCibV4Cyqqt7WQ");
  CHECK(b.broker_epoch == 10);
  REQUIRE(b.endpoints.size() == 1);
  CHECK(b.endpoints[0].name == "PLAINTEXT");
  CHECK(b.endpoints[0].host == "127.0.0.1");
  CHECK(b.endpoints[0].port == 42637);
  CHECK_FALSE(b.features.empty());
  CHECK(b.fenced);
  CHECK(b.log_dirs.size() == 1);

  const auto unfenced_record = decode(value_at(16));
  const auto& unfenced = body<BrokerRegistrationChangeRecord>(unfenced_record);
  CHECK(unfenced.broker_id == 3);
  CHECK(unfenced.broker_epoch == 10);
  CHECK(unfenced.fenced == -1);
  const auto shutdown = decode(value_at(158));
  CHECK(shutdown.version == 1);
  CHECK(body<BrokerRegistrationChangeRecord>(shutdown).in_controlled_shutdown == 1);
  CHECK(body<BrokerRegistrationChangeRecord>(shutdown).fenced == 0);

  const auto level_record = decode(value_at(2));
  const auto& level = body<FeatureLevelRecord>(level_record);
  CHECK(level.name == "metadata.version");
  CHECK(level.feature_level == 27);

  const auto noop = decode(value_at(20));
  CHECK(metadata_record_type_name(noop.api_key) == "NO_OP_RECORD");
  CHECK(noop.decoded());
}

TEST_CASE("ConfigRecord: a topic's config as Kafka wrote it", "[format][MetadataRecord]") {
  // offset 573: {"resourceType":2,"resourceName":"__transaction_state",
  //              "name":"min.insync.replicas","value":"2"}
  const auto record = decode(value_at(573));
  CHECK(metadata_record_type_name(record.api_key) == "CONFIG_RECORD");
  const auto& c = body<ConfigRecord>(record);
  CHECK(c.resource_type == 2);
  CHECK(c.resource_name == "__transaction_state");
  CHECK(c.name == "min.insync.replicas");
  CHECK(c.value == std::optional<std::string>("2"));
  // offset 311: {"resourceType":2,"resourceName":"t","name":"index.interval.bytes",
  //              "value":"100"}
  const auto t_record = decode(value_at(311));
  const auto& t = body<ConfigRecord>(t_record);
  CHECK(t.resource_name == "t");
  CHECK(t.value == std::optional<std::string>("100"));
}

TEST_CASE("Record types and versions kepoch does not know are named, not errors",
          "[format][MetadataRecord]") {
  // REGISTER_CONTROLLER_RECORD is read by the schema table (test_metadata_schemas.cpp holds
  // every type to Kafka's own vectors).
  const auto controller = decode(value_at(8));
  CHECK(metadata_record_type_name(controller.api_key) == "REGISTER_CONTROLLER_RECORD");
  CHECK(controller.decoded());
  CHECK(controller.notes.empty());

  Bytes unknown = value_at(38);
  unknown[1] = 99;  // api key
  const auto u = decode(unknown);
  CHECK(metadata_record_type_name(u.api_key) == "UNKNOWN(99)");
  CHECK_FALSE(u.decoded());
  REQUIRE(u.notes.size() == 1);
  CHECK(u.notes[0] ==
        "UNKNOWN(99): a record type kepoch does not know (not in Kafka's metadata schemas "
        "through 4.4)");

  Bytes newer = value_at(38);
  newer[2] = 9;  // PartitionRecord version 9
  const auto n = decode(newer);
  CHECK(n.version == 9);
  CHECK_FALSE(n.decoded());
  REQUIRE(n.notes.size() == 1);
  CHECK(n.notes[0] == "version 9 of PARTITION_RECORD is newer than kepoch reads (0-2)");
}

TEST_CASE("Damaged metadata records fail as Kafka's serde does", "[format][MetadataRecord]") {
  const Bytes good = value_at(38);
  SECTION("truncated body") {
    const Bytes cut(good.begin(), good.end() - 5);
    CHECK_THROWS_AS(decode(cut), FormatError);
  }
  SECTION("a compact array length larger than the bytes left") {
    Bytes lying = good;
    // frame(3) + PartitionId(4) + TopicId(16): Replicas' length varint.
    REQUIRE(lying[23] == 4);  // 3 replicas + 1
    lying[23] = 0x7f;
    try {
      decode(lying);
      FAIL("no throw");
    } catch (const FormatError& e) {
      CHECK(std::string(e.what()) ==
            "Tried to allocate a collection of size 126, but there are only 89 bytes remaining.");
      CHECK(e.position() == 1024);
    }
  }
  SECTION("bytes after the body") {
    Bytes longer = good;
    longer.push_back(0);
    CHECK_THROWS_WITH(decode(longer), "Found 1 byte(s) of garbage after 3");
  }
  SECTION("frame version 0 and 2") {
    Bytes v0 = good;
    v0[0] = 0;
    CHECK_THROWS_WITH(decode(v0), Catch::Contains("frame version 0"));
    Bytes v2 = good;
    v2[0] = 2;
    CHECK_THROWS_WITH(decode(v2), Catch::Contains("unknown frame version 2"));
  }
  SECTION("an api key above 32767") {
    const Bytes big = {1, 0x80, 0x80, 0x02, 0};
    CHECK_THROWS_WITH(decode(big), "Value for type was too large.");
  }
}

TEST_CASE(
    "PartitionChangeRecord v2 tagged fields: ELR, last known ELR, recovery state, unknown tags",
    "[format][MetadataRecord]") {
  Bytes b = {1, 5, 2, 0, 0, 0, 7};              // frame, PartitionChangeRecord v2, partition 7
  b.insert(b.end(), 16, 0xab);                  // TopicId
  b.insert(b.end(), {5,                         // 5 tagged fields
                     1, 4, 0,    0,   0, 3,     // Leader 3
                     5, 1, 1,                   // LeaderRecoveryState RECOVERING
                     6, 5, 2,    0,   0, 0, 2,  // ELR [2]
                     7, 1, 0,                   // LastKnownElr null
                     9, 2, 0xde, 0xad});        // unknown tag 9
  const auto r = decode(b);
  const auto& c = body<PartitionChangeRecord>(r);
  CHECK(c.partition_id == 7);
  CHECK(c.leader == 3);
  CHECK(c.leader_recovery_state == 1);
  CHECK(c.eligible_leader_replicas == BrokerIds{2});
  CHECK_FALSE(c.last_known_elr);
  CHECK_FALSE(c.isr);
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0] == "unknown tagged field 9 (2 bytes) in PartitionChangeRecord skipped");

  SECTION("v0 has no ELR: tag 6 is unknown") {
    b[2] = 0;
    const auto v0 = decode(b);
    CHECK_FALSE(body<PartitionChangeRecord>(v0).eligible_leader_replicas);
    CHECK(v0.notes.size() == 3);  // tags 6, 7, 9
  }
}

TEST_CASE(
    "A count the bytes left allow but cannot fill fails at its first missing element, without "
    "room made for every element first",
    "[metadata]") {
  // RegisterBrokerRecord v0: BrokerId, IncarnationId, BrokerEpoch, then EndPoints counted
  // 20,000,000 (the bytes left: Kafka's check passes) over zero bytes, whose first element's
  // Name is a null. kepoch once resized the array first: ~1.6 GB of endpoints touched.
  constexpr std::size_t kCount = 20'000'000;
  Bytes b = {0x01, 0x00, 0x00, 0, 0, 0, 1};
  b.insert(b.end(), 16 + 8, 0);
  for (std::size_t n = kCount + 1; n; n >>= 7)  // the compact length, uvarint
    b.push_back(static_cast<std::uint8_t>((n & 0x7f) | (n > 0x7f ? 0x80 : 0)));
  b.resize(b.size() + kCount, 0);
  try {
    decode(b);
    FAIL("a null Name was read");
  } catch (const FormatError& e) {
    CHECK(std::string(e.what()).find("non-nullable field Name was serialized as null") !=
          std::string::npos);
  }
}
