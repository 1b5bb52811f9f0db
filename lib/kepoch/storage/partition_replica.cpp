#include "kepoch/storage/partition_replica.hpp"

#include <algorithm>
#include <iterator>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/batch_cursor.hpp"
#include "kepoch/storage/replica_loader.hpp"

namespace kepoch {
namespace fs = std::filesystem;

PartitionReplica load_partition_replica(const fs::path& dir, const ReplicaOverrides& overrides,
                                        LoadDepth depth) {
  ReplicaLoader loader(dir, overrides);
  if (depth == LoadDepth::tail)
    loader.walk_tail();
  else
    loader.walk();
  return std::move(loader).finish();
}

namespace {

std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finaliser
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

std::uint64_t chain_batch_digest(std::uint64_t digest, const BatchSummary& b) {
  std::uint64_t h = mix64(digest ^ static_cast<std::uint64_t>(b.base_offset));
  h = mix64(h ^ static_cast<std::uint64_t>(b.last_offset));
  return mix64(h ^ b.crc);
}

void walk_batches(const PartitionReplica& replica,
                  const std::function<void(const BatchSummary&)>& visit) {
  if (replica.stored)
    throw InputError(replica.dir.string(), "a replica read from a snapshot has no segments");
  BatchSummary b;
  for (const auto& s : replica.segments) {
    LogSegmentReader reader(s.file, /*load_batches=*/false);
    while (auto e = reader.next()) {
      const BatchHeader& h = e->header;
      if (h.next_offset() > replica.log_end_offset) return;  // cut by recovery
      b.base_offset = h.base_offset;
      b.last_offset = h.last_offset();
      b.records = h.is_v2() ? h.records_count : 1;
      b.size = static_cast<std::uint32_t>(h.size_in_bytes());
      b.crc = h.crc;
      b.epoch = h.is_v2() ? h.partition_leader_epoch : -1;
      visit(b);
      b.digest_before = chain_batch_digest(b.digest_before, b);
      ++b.ordinal;
      b.records_before += static_cast<std::uint64_t>(b.records);
      b.bytes_before += b.size;
    }
  }
}

namespace {

// Where the first batch for which `starts_range` holds sits in the loaded log, when the
// snapshot's windows tell: its ordinal and the records and bytes before it (the log's batch
// count and totals when no batch does).
struct StoredBoundary {
  std::uint64_t ordinal = 0;
  std::uint64_t records_before = 0;
  std::uint64_t bytes_before = 0;
};

template <typename Pred>
std::optional<StoredBoundary> stored_boundary(const StoredBatches& s, bool past_the_end,
                                              Pred starts_range) {
  const StoredBoundary end{s.batch_count, s.records, s.bytes};
  if (past_the_end) return end;
  const auto& b = s.batches;
  const auto it = std::find_if(b.begin(), b.end(), starts_range);
  if (it == b.end()) {
    // No kept batch qualifies: known only when the log's last batch was kept.
    if (s.batch_count == 0 || (!b.empty() && b.back().ordinal + 1 == s.batch_count)) return end;
    return std::nullopt;
  }
  // The batch before it must be kept too (or not exist), else an earlier one may qualify.
  const bool previous_known =
      it->ordinal == 0 || (it != b.begin() && std::prev(it)->ordinal + 1 == it->ordinal);
  if (!previous_known) return std::nullopt;
  return StoredBoundary{it->ordinal, it->records_before, it->bytes_before};
}

BatchRange stored_batches_from(const PartitionReplica& replica, std::int64_t from,
                               std::int64_t until, std::size_t max_batches) {
  const StoredBatches& s = *replica.stored;
  BatchRange range;
  const auto first = stored_boundary(s, from >= replica.log_end_offset,
                                     [&](const BatchSummary& b) { return b.last_offset >= from; });
  const auto stop = stored_boundary(s, until >= replica.log_end_offset,
                                    [&](const BatchSummary& b) { return b.base_offset >= until; });
  std::uint64_t kept = 0;
  for (const auto& b : s.batches) {
    if (b.last_offset < from || b.base_offset >= until) continue;
    ++kept;
    if (range.batches.size() < max_batches)
      range.batches.push_back({b.base_offset, b.last_offset, b.records, b.crc});
  }
  range.counts_known = first && stop;
  if (range.counts_known && stop->ordinal > first->ordinal) {
    range.records = stop->records_before - first->records_before;
    range.bytes = stop->bytes_before - first->bytes_before;
  }
  range.batches_complete =
      range.counts_known &&
      kept == (stop->ordinal > first->ordinal ? stop->ordinal - first->ordinal : 0);
  if (!range.batches_complete) {
    // The kept batches that follow the boundary batch without a gap in ordinals.
    range.complete_until = from;
    if (first) {
      std::uint64_t next = first->ordinal;
      for (const auto& b : s.batches) {
        if (b.ordinal < next || b.last_offset < from) continue;
        if (b.ordinal != next || b.base_offset >= until) break;
        range.complete_until = b.last_offset + 1;
        ++next;
      }
    }
  }
  return range;
}

}  // namespace

BatchRange batches_from(const PartitionReplica& replica, std::int64_t from, std::int64_t until,
                        std::size_t max_batches) {
  if (replica.stored) return stored_batches_from(replica, from, until, max_batches);
  BatchRange range;
  BatchCursor cursor(replica, from, until);
  while (const auto* b = cursor.next()) {
    range.records += static_cast<std::uint64_t>(b->records);
    range.bytes += b->size;
    if (range.batches.size() < max_batches)
      range.batches.push_back({b->base_offset, b->last_offset, b->records, b->crc});
  }
  return range;
}

std::vector<BatchSummary> recycle_replica(PartitionReplica& r) {
  PartitionReplica fresh;
  const auto keep = [](auto& from, auto& to) {
    from.clear();
    to = std::move(from);
  };
  keep(r.recorded_dir, fresh.recorded_dir);
  keep(r.topic, fresh.topic);
  keep(r.segments, fresh.segments);
  keep(r.checkpoint_entries, fresh.checkpoint_entries);
  keep(r.rebuilt_entries, fresh.rebuilt_entries);
  keep(r.notes, fresh.notes);
  std::vector<BatchSummary> batches;
  if (r.stored) keep(r.stored->batches, batches);
  r = std::move(fresh);
  return batches;
}

bool shows_remote_tier(const PartitionReplica& r) {
  return r.log_start_checkpoint && !r.segments.empty() &&
         *r.log_start_checkpoint < r.segments.front().base_offset;
}

void add_tier_answers(LeaderAnswers& answers, const PartitionReplica& leader,
                      const ReplicaLog& leader_log) {
  if (!leader.remote_tier) return;
  // The first local offset: the first segment's base (an empty log: its end).
  const std::int64_t local_start =
      leader.segments.empty()
          ? leader_log.log_end_offset
          : std::max(leader.segments.front().base_offset, leader.log_start_checkpoint.value_or(0));
  // LogLoader with remote storage enabled: logStartOffset = the checkpoint's value.
  answers.log_start_offset = std::min(leader.log_start_checkpoint.value_or(0), local_start);
  answers.tier = tier_answers_of(leader_log.cache, leader_log.log_end_offset, local_start,
                                 leader.remote_tier->remote_log);
}

}  // namespace kepoch
