#pragma once
// How replicas of one partition differ: where their epoch histories fork, confirmed by the
// batches themselves (the same offsets holding different bytes is the "inconsistent data"
// an unclean election leaves), and which offset ranges only one of them holds. Replicas read
// from a snapshot are compared where the snapshot kept their batches; what that leaves open
// is said in `unanswered`, never guessed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/storage/partition_replica.hpp"

namespace kepoch {

struct OffsetRange {
  std::int64_t first = 0;
  std::int64_t last = 0;  // inclusive
};

struct DifferingBatch {
  std::int64_t base_offset = 0;
  std::int64_t last_offset = 0;
  std::uint32_t crc = 0;
  std::optional<std::uint32_t> other_crc;  // the other replica's batch at that offset, if any
};

struct ReplicaComparison {
  std::size_t replica = 0;    // index into the compared replicas
  std::size_t reference = 0;  // compared against this one
  // First offset below both log ends whose leader epoch differs in the two epoch caches.
  std::optional<std::int64_t> fork_by_epochs;
  // First offset (below both log ends) where the batches differ (offsets or CRC).
  std::optional<std::int64_t> fork_by_batches;
  std::vector<DifferingBatch> differing_batches;  // at the same offsets, up to 100
  std::optional<OffsetRange> only_here;           // offsets this replica holds and the other not
  std::optional<OffsetRange> only_there;
  // What could not be answered exactly, in sentences: a replica read from a snapshot keeps
  // only windows of its batches, and batches between them cannot be compared. Empty for
  // replica dirs.
  std::vector<std::string> unanswered;
  // Comparisons left out because they mean nothing, and why, in sentences: an empty epoch
  // cache (no epochs to compare), batches the log cleaner rewrote (a compacted log: another
  // CRC there is no divergence).
  std::vector<std::string> notes;
  // Batches are compared from this offset on (above every batch the cleaner rewrote).
  std::int64_t batches_compared_from = 0;
  // Why the batches were compared from the common log start although both replicas were
  // loaded to their tail (no epoch cache to start from, or batches differing where the
  // caches agree), or that they were loaded whole; unset when only the tail was read.
  std::optional<std::string> read_whole;
  bool identical() const {
    return !fork_by_epochs && !fork_by_batches && !only_here && !only_there && unanswered.empty();
  }
};

// Where the log cleaner has rewritten a replica's batches, as far as they show it: the
// offset after the last batch of `range` (from `start`) that lost records (fewer records
// than its offsets span: LogCleaner's MemoryRecords.filterTo keeps a batch's base and last
// offset, and an emptied batch kept for its producer's state, with fewer records) or that
// follows a gap (a batch, or the offsets before the first, removed whole). Gaps count only
// when `range` lists every batch. `start` when nothing shows.
std::int64_t cleaned_until(const BatchRange& range, std::int64_t start);

// Replica dirs loaded to their tail (LoadDepth::tail) are compared from the batch holding
// the offset before the epoch fork (before both log ends when the caches agree): Kafka's
// replicas hold the same batches where their epoch caches agree (the log matching that
// OffsetsForLeaderEpoch truncation relies on), so only the batches from there on are read,
// side by side (batch_merge.hpp). The first compared batch must be identical on both sides;
// when it is not, or a cache does not cover the common log start, every batch is compared
// and `read_whole` says why.
//
// The reference is the replica with the highest latest epoch (ties: the longest log): the
// one most likely to lead. Each other replica is compared with it.
std::size_t pick_reference(const std::vector<PartitionReplica>& replicas);
ReplicaComparison compare_replicas(const std::vector<PartitionReplica>& replicas,
                                   std::size_t replica, std::size_t reference);
// The same over replicas held elsewhere (no copy of them).
ReplicaComparison compare_replicas(const std::vector<const PartitionReplica*>& replicas,
                                   std::size_t replica, std::size_t reference);

}  // namespace kepoch
