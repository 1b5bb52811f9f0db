// The record data of a Fetch answer read batch header by batch header, as Kafka's
// ByteBufferLogInputStream.nextBatch reads it: on real segment bytes written by Kafka (a
// leader sends its log file's bytes unchanged), on the records Kafka's own FetchResponseData
// carried in the protocol vectors (two whole batches and a third cut short), and on the
// entries the consumer stops at (a partial batch, a legacy message, a corrupt one).
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <string>
#include <vector>

#include "kepoch/base/crc32c.hpp"
#include "kepoch/cluster/fetched_batches.hpp"
#include "kepoch/cluster/protocol/fetch.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "protocol/kafka_vectors.hpp"
#include "support/scratch_files.hpp"

namespace {

using namespace kepoch;
using namespace kepoch::cluster;
using Stop = FetchedBatches::Stop;
using Bytes = std::vector<std::uint8_t>;

Bytes fixture(const std::string& relative) {
  return test::slurp(std::string(KEPOCH_SOURCE_DIR) + "/tests/data/" + relative);
}

const std::string kLeaderChanges = "leader-changes/broker-1/lc-0/00000000000000000000.log";

struct Expected {
  std::int64_t base, last;
  std::int32_t records, epoch;
};

// The lc-0 fixture (tests/data/README.md): three records per leader epoch 0..3, then five
// in epoch 4, one produce call per batch.
const std::vector<Expected> kLeaderChangesBatches = {{0, 2, 3, 0},  {3, 5, 3, 1},   {6, 8, 3, 2},
                                                     {9, 11, 3, 3}, {12, 14, 3, 4}, {15, 16, 2, 4}};

void check_batches(const FetchedBatches& got, const std::vector<Expected>& want,
                   const Bytes& bytes) {
  REQUIRE(got.batches.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("batch " << i);
    const auto& h = got.batches[i];
    CHECK(h.base_offset == want[i].base);
    CHECK(h.last_offset() == want[i].last);
    CHECK(h.records_count == want[i].records);
    CHECK(h.partition_leader_epoch == want[i].epoch);
    // The CRC is the batch's own: CRC-32C from the attributes to the batch's end.
    const auto entry = std::span(bytes).subspan(h.position, h.size_in_bytes());
    CHECK(h.crc == crc32c(entry.subspan(21)));
  }
}

}  // namespace

TEST_CASE("A leader's segment bytes read as its batch headers", "[cluster][fetch]") {
  const Bytes log = fixture(kLeaderChanges);
  const auto got = read_fetched_batches(log);
  CHECK(got.stop == Stop::kEnd);
  CHECK(got.stop_offset == -1);
  check_batches(got, kLeaderChangesBatches, log);
  CHECK(got.batches.back().next_offset() == 17);  // the log end offset

  // A fetch from offset 7 starts at the batch holding it: the bytes from its position.
  const auto from_7 = read_fetched_batches(std::span(log).subspan(got.batches[2].position));
  check_batches(
      from_7, {kLeaderChangesBatches.begin() + 2, kLeaderChangesBatches.end()},
      Bytes(log.begin() + static_cast<std::ptrdiff_t>(got.batches[2].position), log.end()));
}

TEST_CASE("Compressed batches are read by their headers alone", "[cluster][fetch]") {
  const Bytes log = fixture("codecs/codec-zstd-0/00000000000000000000.log");
  const auto got = read_fetched_batches(log);
  CHECK(got.stop == Stop::kEnd);
  check_batches(got, {{0, 3, 4, 0}, {4, 4, 1, 0}}, log);
  CHECK(got.batches[0].codec() == 4);  // zstd, not decompressed
}

TEST_CASE("A batch cut short at the end of a Fetch answer stops the read at its base offset",
          "[cluster][fetch]") {
  const Bytes log = fixture(kLeaderChanges);
  const auto whole = read_fetched_batches(log).batches;
  const std::size_t last = whole.back().position;  // the batch of offsets 15-16

  for (std::size_t keep : {std::size_t{61}, std::size_t{17}, std::size_t{12}, std::size_t{8},
                           whole.back().size_in_bytes() - 1}) {
    INFO("the last batch's first " << keep << " bytes");
    const Bytes cut(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(last + keep));
    const auto got = read_fetched_batches(cut);
    CHECK(got.stop == Stop::kPartial);
    CHECK(got.stop_offset == 15);
    check_batches(got, {kLeaderChangesBatches.begin(), kLeaderChangesBatches.end() - 1}, log);
  }
  // Fewer than 8 bytes do not even say the base offset.
  const Bytes stub(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(last + 5));
  const auto got = read_fetched_batches(stub);
  CHECK(got.stop == Stop::kPartial);
  CHECK(got.stop_offset == -1);
  CHECK(got.batches.size() == 5);
  // Nothing at all: nothing read, nothing wrong.
  const auto empty = read_fetched_batches({});
  CHECK(empty.stop == Stop::kEnd);
  CHECK(empty.batches.empty());
}

TEST_CASE("The records of Kafka's FetchResponseData: two batches and a third cut short",
          "[cluster][fetch]") {
  using namespace kepoch::cluster::protocol;
  for (int version : {4, 11, 12, 13, 18}) {
    INFO("FetchResponse v" << version);
    const auto& v = testing::kafka_vector("Fetch", "response", version);
    const auto response = FetchResponse::from(
        decode_body(ApiKey::kFetch, MessageKind::kResponse, v.version, v.bytes));
    const auto& records = response.partitions.at(0).records;
    const auto got = read_fetched_batches(records);
    CHECK(got.stop == Stop::kPartial);
    CHECK(got.stop_offset == 45);
    check_batches(got, {{42, 43, 2, 7}, {44, 44, 1, 7}}, records);
    CHECK(got.batches[0].producer_id == 1000);
    CHECK(got.batches[1].base_sequence == 2);
  }
}

TEST_CASE("A legacy message set entry stops the read", "[cluster][fetch]") {
  const Bytes log = fixture(kLeaderChanges);
  Bytes data(log.begin(), log.begin() + 124);  // the first batch, offsets 0-2
  // A v1 message at offset 3: offset, size 14 + 8, crc, magic 1, attributes, timestamp,
  // null key, null value (its CRC is not checked: reading stops at its magic).
  const Bytes legacy = {0, 0, 0, 0, 0, 0, 0, 3, 0, 0,    0,    22,   0,    0,    0,    0,    1,
                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  data.insert(data.end(), legacy.begin(), legacy.end());
  const auto got = read_fetched_batches(data);
  CHECK(got.stop == Stop::kLegacy);
  CHECK(got.stop_offset == 3);
  CHECK(got.stop_magic == 1);
  check_batches(got, {kLeaderChangesBatches.front()}, log);
}

TEST_CASE("A corrupt batch stops the read with Kafka's message", "[cluster][fetch]") {
  Bytes log = fixture(kLeaderChanges);
  SECTION("a byte of the third batch's records flipped") {
    const std::uint32_t stored = read_fetched_batches(log).batches.at(2).crc;
    log[248 + 100] ^= 0x01;
    const auto got = read_fetched_batches(log);
    CHECK(got.stop == Stop::kCorrupt);
    CHECK(got.stop_offset == 6);
    CHECK_THAT(got.damage, Catch::Matchers::StartsWith("Record is corrupt (stored crc = " +
                                                       std::to_string(stored) + ", computed"));
    CHECK(got.batches.size() == 2);
  }
  SECTION("a size below the minimum record overhead") {
    log[124 + 8] = 0;
    log[124 + 9] = 0;
    log[124 + 10] = 0;
    log[124 + 11] = 13;
    const auto got = read_fetched_batches(log);
    CHECK(got.stop == Stop::kCorrupt);
    CHECK(got.damage == "Record size 13 is less than the minimum record overhead (14)");
    CHECK(got.batches.size() == 1);
  }
  SECTION("a v2 batch shorter than its 61-byte header") {
    log[124 + 11] = 40;  // 52 bytes in all; the rest of the data follows it
    log[124 + 10] = 0;
    const auto got = read_fetched_batches(log);
    CHECK(got.stop == Stop::kCorrupt);
    CHECK_THAT(got.damage,
               Catch::Matchers::Contains("is smaller than the minimum allowed overhead 61"));
  }
}
