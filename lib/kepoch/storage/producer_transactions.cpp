#include "kepoch/storage/producer_transactions.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/storage/consumer_view.hpp"
#include "kepoch/storage/partition_dir.hpp"

namespace kepoch {

std::vector<OpenTransaction> replay_open_transactions(
    const std::vector<ProducerSnapshotEntry>& seed, const std::vector<TransactionBatch>& batches) {
  struct Producer {
    std::int16_t epoch = -1;
    std::int64_t last_timestamp = -1;
    std::optional<std::int64_t> txn_first_offset;
  };
  std::map<std::int64_t, Producer> producers;
  for (const auto& e : seed) {
    Producer& p = producers[e.producer_id];
    p.epoch = e.epoch;
    p.last_timestamp = e.timestamp;
    if (e.has_ongoing_txn()) p.txn_first_offset = e.current_txn_first_offset;
  }
  for (const auto& b : batches) {
    // RecordBatch.hasProducerId: NO_PRODUCER_ID (-1) batches carry no producer state.
    if (b.producer_id < 0) continue;
    if (!b.control && !b.transactional) {
      // An idempotent batch updates the entry but not its transaction.
      Producer& p = producers[b.producer_id];
      p.epoch = b.producer_epoch;
      p.last_timestamp = b.max_timestamp;
      continue;
    }
    Producer& p = producers[b.producer_id];
    p.epoch = b.producer_epoch;
    p.last_timestamp = b.max_timestamp;
    if (b.control)
      p.txn_first_offset.reset();  // appendEndTxnMarker: COMMIT and ABORT alike
    else if (!p.txn_first_offset)
      p.txn_first_offset = b.base_offset;  // updateCurrentTxnFirstOffset
  }
  std::vector<OpenTransaction> out;
  for (const auto& [id, p] : producers)
    if (p.txn_first_offset) out.push_back({id, p.epoch, *p.txn_first_offset, p.last_timestamp});
  std::sort(out.begin(), out.end(), [](const OpenTransaction& a, const OpenTransaction& b) {
    return a.first_offset < b.first_offset ||
           (a.first_offset == b.first_offset && a.producer_id < b.producer_id);
  });
  return out;
}

namespace {

// A producer snapshot is 10 bytes and 46 per producer: far below this for any real log.
constexpr std::uint64_t kMaxSnapshotBytes = 256u << 20;

struct Seed {
  std::int64_t offset = 0;
  std::string file;
  std::vector<ProducerSnapshotEntry> entries;
};

// The latest snapshot Kafka would load (see the header), newest first, skipping the ones it
// refuses.
std::optional<Seed> latest_snapshot(const PartitionReplica& replica) {
  std::vector<std::pair<std::int64_t, std::string>> candidates;
  for (const auto& f : partition_files(replica.dir)) {
    if (!f.is_file || f.parsed.kind != SegmentFileKind::snapshot ||
        f.parsed.state != LeftoverState::none || f.parsed.tmp || !f.parsed.offset)
      continue;
    const std::int64_t at = *f.parsed.offset;
    if (at <= replica.loaded.log_start_offset || at > replica.log_end_offset) continue;
    candidates.emplace_back(at, f.path_in(replica.dir).string());
  }
  std::sort(candidates.rbegin(), candidates.rend());
  for (const auto& [at, path] : candidates) {
    ReadOnlyFile file{std::filesystem::path(path)};
    if (file.size() > kMaxSnapshotBytes)
      throw InputError(path, fmt::format("a producer snapshot of {} bytes: more than {} "
                                         "(46 bytes a producer)",
                                         file.size(), kMaxSnapshotBytes));
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(file.size()));
    bytes.resize(file.read_at(0, bytes));
    ProducerSnapshot s = parse_producer_snapshot(bytes);
    if (!s.valid()) continue;  // CorruptSnapshotException: Kafka deletes it, tries the next
    return Seed{at, path, std::move(s.entries)};
  }
  return std::nullopt;
}

}  // namespace

ReplicaOpenTransactions replica_open_transactions(const PartitionReplica& replica) {
  ReplicaOpenTransactions out;
  if (replica.stored) {
    out.why =
        "read from a log dir snapshot, which keeps no producer snapshot: the open "
        "transactions are not known";
    return out;
  }
  std::optional<Seed> seed = latest_snapshot(replica);
  std::int64_t from = replica.loaded.log_start_offset;
  if (seed) {
    from = seed->offset;
    out.source = fmt::format("producer snapshot {}, then the log from offset {} to {}", seed->file,
                             from, replica.log_end_offset);
  } else if (replica.clean_shutdown) {
    // rebuildProducerState's upgrade shortcut: no snapshot after a clean shutdown, no scan.
    out.source =
        "no producer snapshot after a clean shutdown: Kafka assumes no producer "
        "state (UnifiedLog.rebuildProducerState) and holds no transaction open";
    out.open.emplace();
    return out;
  } else {
    out.source = fmt::format("no producer snapshot: the log replayed from its start {} to {}", from,
                             replica.log_end_offset);
  }
  std::vector<TransactionBatch> batches;
  if (from < replica.log_end_offset) {
    auto read = transaction_batches_from(replica, from);
    if (!read) {
      out.why = "the batches to replay could not be read";
      return out;
    }
    // The batch holding `from` may begin below it: Kafka reads from `from` (segment.read),
    // so only batches ending at or past it count; transaction_batches_from keeps those.
    batches = std::move(*read);
  }
  out.open = replay_open_transactions(seed ? seed->entries : std::vector<ProducerSnapshotEntry>{},
                                      batches);
  return out;
}

}  // namespace kepoch
