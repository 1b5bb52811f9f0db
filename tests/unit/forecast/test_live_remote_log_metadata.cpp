// __remote_log_metadata read live (forecast/live_remote_log_metadata): the batch entries a
// Fetch returns are the log's bytes, so the entries of a segment Kafka 4.4.0 wrote
// (tests/data/tiered/kafka-4.4.0, the oracle remote-log-metadata-vs-kafka's fixture) fed as
// fetched must replay into the same RemoteLogIndex per partition as offline `predict
// --remote-log-metadata` builds from the dir (read_remote_log_indexes), record for record; a
// value that does not decode is an error and a problem, never a silent skip. The live read
// itself is pinned on a real tiered cluster by tests/oracle/tiered-unclean-vs-kafka.sh.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "kepoch/cluster/fetched_batches.hpp"
#include "kepoch/forecast/live_remote_log_metadata.hpp"
#include "kepoch/storage/segment_dump.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;
namespace fs = std::filesystem;

namespace {

std::vector<std::uint8_t> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Each whole batch entry of `bytes`, as read_live_remote_log_metadata hands them on.
void feed(forecast::LiveRemoteLogMetadata& out, std::int32_t partition,
          const std::vector<std::uint8_t>& bytes) {
  const cluster::FetchedBatches batches = cluster::read_fetched_batches(bytes);
  REQUIRE(batches.stop == cluster::FetchedBatches::Stop::kEnd);
  for (const auto& h : batches.batches)
    forecast::add_fetched_entry(
        out, partition, std::span<const std::uint8_t>(bytes).subspan(h.position, h.size_in_bytes()),
        true);
}

fs::path fixture() {
  return fs::path(KEPOCH_SOURCE_DIR) / "tests/data/tiered/kafka-4.4.0";
}

}  // namespace

TEST_CASE("live __remote_log_metadata entries replay as the offline dir does",
          "[forecast][tiered]") {
  forecast::LiveRemoteLogMetadata live;
  std::vector<fs::path> dirs;
  for (std::int32_t p : {0, 1}) {
    const fs::path dir = fixture() / ("__remote_log_metadata-" + std::to_string(p));
    dirs.push_back(dir);
    feed(live, p, read_bytes(dir / "00000000000000000000.log"));
  }
  const RemoteLogIndexes offline = read_remote_log_indexes(dirs);
  REQUIRE(offline.problems.empty());
  CHECK(live.errors == 0);
  CHECK(live.complete);
  REQUIRE_FALSE(offline.partitions.empty());
  REQUIRE(live.indexes.partitions.size() == offline.partitions.size());
  std::size_t segments = 0;
  for (const auto& [key, index] : offline.partitions) {
    const auto it = live.indexes.partitions.find(key);
    REQUIRE(it != live.indexes.partitions.end());
    const auto want = index->all_segments();
    const auto got = it->second->all_segments();
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      CHECK(got[i]->segment_id == want[i]->segment_id);
      CHECK(got[i]->start_offset == want[i]->start_offset);
      CHECK(got[i]->end_offset == want[i]->end_offset);
      CHECK(got[i]->leader_epochs == want[i]->leader_epochs);
      CHECK(got[i]->state == want[i]->state);
    }
    segments += want.size();
  }
  CHECK(segments > 0);
  // Every record kept, in order, each decoded.
  CHECK(live.records.size() == live.record_count);
  for (const auto& r : live.records)
    CHECK(r.record.has_value());
}

TEST_CASE("a live record that does not decode is an error, not a skip", "[forecast][tiered]") {
  std::vector<std::uint8_t> bytes =
      read_bytes(fixture() / "__remote_log_metadata-0" / "00000000000000000000.log");
  const cluster::FetchedBatches batches = cluster::read_fetched_batches(bytes);
  REQUIRE_FALSE(batches.batches.empty());
  const auto& h = batches.batches.front();
  REQUIRE(h.codec() == 0);
  // The first record's value starts with frameVersion 1; 9 is a frame Kafka cannot read.
  // (The batch CRC is not checked here: a Fetch answer's batches were, by read_fetched_batches.)
  std::span<std::uint8_t> entry(bytes.data() + h.position, h.size_in_bytes());
  bool changed = false;
  {
    DumpedBatch batch;
    batch.header = read_batch_header(entry, 0);
    batch.unwalked = std::span<const std::uint8_t>(entry);
    walk_records(batch, [&](const Record& r, const DumpedControl*, const DumpedCoordinator*) {
      if (changed || !r.value || r.value->empty()) return;
      const auto at = static_cast<std::size_t>(r.value->data() - entry.data());
      REQUIRE(entry[at] == 0x01);  // frameVersion 1
      entry[at] = 0x09;
      changed = true;
    });
  }
  REQUIRE(changed);
  forecast::LiveRemoteLogMetadata live;
  forecast::add_fetched_entry(live, 0, entry, true);
  CHECK(live.errors >= 1);
  REQUIRE_FALSE(live.records.empty());
  CHECK_FALSE(live.records.front().record);
  CHECK_FALSE(live.records.front().error.empty());
  CHECK_FALSE(live.indexes.problems.empty());
}
