#pragma once
// What happens to a follower replica when it fetches from a leader replica: the truncation
// Kafka performs (epoch/truncation.hpp) applied to real replica directories, and what that
// truncation costs: records and bytes removed, which of them are lost (the leader does not
// hold the same batch at that offset), and whether any was committed (below the high
// watermark that follower had recorded).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/epoch/follower_append.hpp"
#include "kepoch/epoch/truncation.hpp"
#include "kepoch/format/record_batch.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch {

struct ReplicaForecast {
  TruncationMode mode = TruncationMode::fetch;
  TruncationPrediction prediction;
  // What the truncation deletes: from the truncation offset to the log end, or, when the
  // follower truncates fully (truncateFullyAndStartAt), its whole log.
  std::uint64_t removed_records = 0;
  std::uint64_t removed_bytes = 0;
  std::optional<std::pair<std::int64_t, std::int64_t>> removed_range;  // [first, last]
  // RemovedTailRead::deferred: the removed tail was not walked (removed_range is set, from its
  // first batch alone): removed_records and removed_bytes are 0 and the lost counts are not
  // made; the caller walks the tail itself and counts (salvage: RemovedTailCount).
  bool removed_deferred = false;
  // Each removed batch is, at the leader:
  //   held     the very same batch (offsets, CRC): fetched again, nothing lost;
  //   lost     another batch, or none: at or past the leader's log end offset (no offset
  //            there is on the leader), or read and different;
  //   unknown  not read: below the leader's log end but past what its batches could be
  //            read to (a consumer reads only below the high watermark);
  //   below the leader's log start: the leader deleted those offsets itself (retention,
  //            DeleteRecords), so the truncation does not take them from the cluster.
  std::uint64_t lost_records = 0;            // known lost
  std::uint64_t committed_lost_records = 0;  // of those, below the follower's high watermark
  std::optional<std::int64_t> first_lost_offset;
  std::uint64_t lost_unknown_records = 0;  // removed, and not known whether held
  std::optional<std::pair<std::int64_t, std::int64_t>> lost_unknown_range;  // [first, last]
  std::uint64_t below_leader_start_records = 0;
  // A tiered leader (LeaderAnswers::tier), the follower rebuilding from its remote tier:
  // removed records of the leader's lineage that finished remote segments hold (not lost),
  // and those the metadata says no segment holds (no copy left in the cluster: counted in
  // lost_records too).
  std::uint64_t remote_held_records = 0;
  std::uint64_t remote_missing_records = 0;
  // A tiered follower (its log start below its first local segment, PartitionReplica's
  // log_start_checkpoint) truncating below its local log start: UnifiedLog.truncateTo then
  // takes truncateFullyAndStartAt(target), and the offsets of its lineage from there up to its
  // local start live only in remote segments, which the new leader's lineage does not take
  // (at and past the truncation offset its epochs differ, or it holds none). Counted from the
  // partition's __remote_log_metadata (remote_lineage_coverage over the follower's epochs):
  //   remote_removed_range  [max(truncation offset, its log start, the leader's), local start)
  //                         as [first, last];
  //   remote_lost_records   the offsets finished segments of its lineage hold there: each a
  //                         record (a tiered topic is never compacted: LogConfig refuses
  //                         remote.storage.enable with cleanup.policy=compact), committed
  //                         (RLMCopyTask.copyLogSegmentsToRemote uploads only segments below
  //                         the last stable offset), control and aborted records not told
  //                         apart (the metadata does not say);
  //   remote_undescribed    ranges no finished segment of its lineage describes (or all of
  //                         it, without metadata): unknown, so a committed loss cannot be
  //                         ruled out.
  std::optional<std::pair<std::int64_t, std::int64_t>> remote_removed_range;
  std::uint64_t remote_lost_records = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> remote_lost_ranges;
  std::vector<std::pair<std::int64_t, std::int64_t>> remote_undescribed;
  // Transactions as consumers see them (storage/consumer_view): lost records of aborted
  // transactions and lost control records (COMMIT/ABORT markers) are counted here, not in
  // lost_records and committed_lost_records, which count the data a consumer reads
  // (non-transactional records, committed and still open transactions). False for a
  // follower read from a snapshot (it keeps no batch attributes): every record counts as data.
  std::uint64_t lost_aborted_records = 0;
  std::uint64_t lost_control_records = 0;
  bool transactions_known = true;
  // The follower's first append after the truncation (epoch/follower_append): `fails` when
  // the leader's batch holding the fetch offset begins below it and the follower's log is
  // not empty (UnexpectedAppendOffsetException; the fetcher marks the partition failed).
  FollowerAppend first_append = FollowerAppend::appends;
  bool first_append_known = true;  // false: that batch could not be read
  std::optional<std::pair<std::int64_t, std::int64_t>> leader_batch;  // [base, last] of it
  // fails: the records the follower keeps (below the fetch offset) in batches the leader
  // does not hold the same (offsets and CRC), compared from divergent_compared_from (the
  // leader's first batch: below it the leader deleted its records) up to the fetch offset;
  // nullopt when the leader's batches there could not all be read.
  std::optional<std::uint64_t> divergent_records;
  std::optional<std::pair<std::int64_t, std::int64_t>> divergent_range;  // [first, last]
  std::int64_t divergent_compared_from = 0;
  std::string action;  // what an operator does about a failure, in a sentence
  // False when a replica read from a snapshot did not keep the batches needed: the removed
  // counts (the batch holding the truncation offset), or every removed batch (then no lost
  // count at all: lost_counted is false). `unanswered` says which, in sentences.
  bool removed_known = true;
  bool lost_counted = true;  // lost_records and committed_lost_records count what is known
  bool lost_known = true;    // and nothing removed is unknown
  // Removed records below the follower's high watermark are unknown: unless a committed
  // loss is known anyway, it cannot be ruled out.
  bool committed_loss_unknown = false;
  // Batches below the truncation offset that differ from the leader's and stay (the epoch
  // caches do not tell them apart, so Kafka's truncation keeps them): [first, last] offsets.
  // Set with committed_loss_unknown; the verdict reads this, not the sentence in unanswered.
  std::optional<std::pair<std::int64_t, std::int64_t>> kept_divergent_range;
  std::vector<std::string> unanswered;
  // Committed records are certainly lost.
  bool committed_loss() const {
    return (lost_counted && committed_lost_records > 0) || remote_lost_records > 0;
  }
  // Committed records are lost, or may be: what an exit code must not call safe.
  bool committed_loss_possible() const { return committed_loss() || committed_loss_unknown; }
  // The follower will be marked failed, or that cannot be ruled out.
  bool fails() const { return first_append == FollowerAppend::fails; }
  bool fails_possible() const { return fails() || !first_append_known; }
};

// The leader's batches from offset `from` up to `until` (BatchRange's meaning, with
// complete_until where they stop short), for telling which removed batches the follower
// fetches again. Offline they are read from the leader replica's segments; live, fetched
// from the leader broker. Asked only over [max(truncation offset, leader's log start),
// min(follower's log end, leader's log end)), and only when a removed batch lies there.
using LeaderBatchLookup = std::function<BatchRange(std::int64_t from, std::int64_t until)>;

// How a forecast reads the follower's removed tail:
//   counted   its batches walked (headers), for the removed counts and the lost counts;
//   deferred  for a caller that walks the removed tail itself anyway (salvage, whose archive
//             walk counts what it reads: RemovedTailCount): the tail's first batch alone is
//             read, for removed_range, and the forecast is marked removed_deferred; where
//             the caller's walk would not start at the truncation offset itself (the first
//             removed batch begins past it), or the replica is a snapshot or loaded whole,
//             the tail is counted as with `counted`. Where the follower truncates does not
//             depend on it (the epoch caches, log ends and high watermarks decide that).
enum class RemovedTailRead { counted, deferred };

// The removed records of a deferred tail, counted by the caller's walk as the counted
// forecast counts them (BatchCursor from the truncation offset): each batch's record count
// (1 for a legacy entry), in log order, from its segment's batches up to the first one that
// reaches past the log end (recovery cut it and everything after it in that segment).
struct RemovedTailCount {
  std::uint64_t records = 0;
  std::uint64_t bytes = 0;
  // A batch of the walk, `segment` its segment's index in the replica; batches whose last
  // offset is below the truncation offset are not passed.
  void see(const BatchHeader& h, std::size_t segment, std::int64_t log_end_offset) {
    if (segment != segment_) {
      segment_ = segment;
      cut_ = false;
    }
    if (cut_) return;
    if (h.next_offset() > log_end_offset) {
      cut_ = true;
      return;
    }
    records += static_cast<std::uint64_t>(h.is_v2() ? h.records_count : 1);
    bytes += h.size_in_bytes();
  }

 private:
  std::size_t segment_ = static_cast<std::size_t>(-1);
  bool cut_ = false;
};

// A recorded high watermark is a lower bound of what was committed, not the bound itself:
// lost records above it, from `from` up to `below`, may have been committed too, for the
// reason `why` (a sentence). Such records make a committed loss one that cannot be ruled out.
struct CommittedDoubt {
  std::int64_t below = 0;
  std::string why;
  std::int64_t from = 0;
};

// The doubts over a follower's own high watermark:
//   - its broker did not shut down cleanly (no .kafka_cleanshutdown; a running broker's
//     copy too): ReplicaManager writes replication-offset-checkpoint every
//     replica.high.watermark.checkpoint.interval.ms (5 s) and at a clean shutdown, so the
//     high watermark it held may be above the recorded one, up to its log end (Kafka's own
//     "Non-monotonic update of high watermark from (offset=8 ...) to (offset=5 ...)" on the
//     divergence fixture's broker 1, whose checkpoint says 5);
//   - `leader` (when given) recorded a high watermark above its own log end: the records
//     committed there are gone from it (unflushed writes lost in a crash), and a follower
//     holding those offsets holds what was committed.
// None when the new leader was elected cleanly (`leader_clean`: from the ISR, or the ELR):
// Kafka's guarantee is that such a leader holds every committed record (unless its own
// checkpoint says otherwise: leader_holds_committed).
std::vector<CommittedDoubt> high_watermark_doubts(const PartitionReplica& follower,
                                                  const PartitionReplica* leader,
                                                  bool leader_clean);

// Whether `leader`, elected cleanly (`elected_clean`: from the ISR, or the ELR), holds every
// committed record, as Kafka's guarantee says: not when its own replication-offset-checkpoint
// records a high watermark above its log end. Such a leader lost committed records (unflushed
// writes gone in a crash: Kafka flushes the checkpoint, not the log, so a power loss keeps the
// one and loses the other; UnifiedLog then clamps the high watermark to the log end), so what
// a follower loses to it may have been committed: the follower's high watermark doubts stand.
bool leader_holds_committed(const PartitionReplica& leader, bool elected_clean);

// The truncation against the leader's answers, what it removes, and, asking `leader_batches`
// only when something is removed, which removed records are lost. `leader_source` says how
// the leader's batches fell short when they did ("the snapshot of X did not keep").
// Removed records count as committed below `committed_below`, by default the follower's own
// high watermark; a recovery plan passes the highest high watermark any replica recorded.
// Lost records above it that a `doubts` entry covers make the committed loss unknown.
ReplicaForecast forecast_replica(const LeaderAnswers& answers,
                                 const LeaderBatchLookup& leader_batches,
                                 std::string_view leader_source, const PartitionReplica& follower,
                                 TruncationMode mode,
                                 std::optional<std::int64_t> committed_below = std::nullopt,
                                 const std::vector<CommittedDoubt>& doubts = {},
                                 RemovedTailRead tail = RemovedTailRead::counted);

// Against a leader replica read from disk (or a snapshot): its answers and its batches, with
// high_watermark_doubts(follower, &leader, leader_clean).
ReplicaForecast forecast_replica(const PartitionReplica& leader, const PartitionReplica& follower,
                                 TruncationMode mode, bool leader_clean = false);

// What of `follower` is committed, given every replica of the partition whose state is known
// (`known`, the follower and the leader among them). Committed is a property of records, not
// of offsets: a replica's high watermark commits the records of its own log below it
// (Partition.maybeIncrementLeaderHW advances it over records every ISR member holds; a
// follower takes min(leader's high watermark, its own log end), ReplicaFetcherThread), so it
// commits a follower's record only where the follower's log is the same as that replica's:
// the same epoch lineage, the prefix below where the follower would truncate if it fetched
// from that replica (AbstractFetcherThread's divergence check against its epoch cache; a
// leader writes each offset of its epoch once, so one (epoch, offset) is one record).
//   below   the most, over the known replicas R, of min(R's recorded high watermark, the
//           prefix the follower shares with R); the follower's own high watermark counts
//           over its whole log;
//   doubts  where that is a lower bound, each naming its reason: R's broker did not shut
//           down cleanly or R has no high watermark recorded (its high watermark may have
//           been as high as its log end: up to the shared prefix), or R recorded a high
//           watermark above its own log end and the follower shares all of R's log (the
//           records committed above R's log end are gone from R, and the follower's records
//           there may be them). None when the leader was elected cleanly (`leader_clean`:
//           from the ISR, or the ELR): Kafka's guarantee is that it holds every committed
//           record, so what a follower loses to it was not committed.
struct CommittedBound {
  std::int64_t below = 0;
  std::vector<CommittedDoubt> doubts;
};
CommittedBound committed_bound(const PartitionReplica& follower,
                               const std::vector<const PartitionReplica*>& known,
                               bool leader_clean);

// The one forecast `predict` and `plan` both make: `follower` fetching from `leader`, whose
// answers come from `leader_log` (its as_leader, or that log after become_leader at a new
// epoch), with the committed records those of committed_bound(follower, known, leader_clean).
ReplicaForecast forecast_follower(const PartitionReplica& leader, const ReplicaLog& leader_log,
                                  const PartitionReplica& follower,
                                  const std::vector<const PartitionReplica*>& known,
                                  TruncationMode mode, bool leader_clean,
                                  const LeaderBatchLookup* leader_batches = nullptr,
                                  RemovedTailRead tail = RemovedTailRead::counted);
// The same with the follower's committed_bound already made (it does not depend on the
// leader: a plan makes it once per follower for all its candidates; a clean leader's is the
// bound without its doubts).
// `leader_batches`, when given, answers for the leader's segments instead of batches_from
// (salvage reads the leader's tail once, for this and for what the leader holds).
ReplicaForecast forecast_follower(const PartitionReplica& leader, const ReplicaLog& leader_log,
                                  const PartitionReplica& follower, const CommittedBound& bound,
                                  TruncationMode mode,
                                  const LeaderBatchLookup* leader_batches = nullptr,
                                  RemovedTailRead tail = RemovedTailRead::counted);

}  // namespace kepoch
