#include "kepoch/storage/replica_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

namespace kepoch {
namespace {

constexpr std::size_t kMaxDifferingBatches = 100;

std::optional<std::int64_t> epoch_fork(const PartitionReplica& a, const PartitionReplica& b) {
  const std::int64_t end = std::min(a.log_end_offset, b.log_end_offset);
  const std::int64_t start = std::max(a.loaded.log_start_offset, b.loaded.log_start_offset);
  // Epochs change only at entry start offsets: compare there (and at the common start).
  std::set<std::int64_t> points{start};
  for (const auto* r : {&a, &b})
    for (const auto& e : r->loaded.cache.entries())
      if (e.start_offset > start && e.start_offset < end) points.insert(e.start_offset);
  for (std::int64_t o : points) {
    if (o >= end) break;
    if (a.loaded.cache.epoch_for_offset(o) != b.loaded.cache.epoch_for_offset(o)) return o;
  }
  return std::nullopt;
}

}  // namespace

std::size_t pick_reference(const std::vector<PartitionReplica>& replicas) {
  std::size_t best = 0;
  auto key = [&](std::size_t i) {
    const auto latest = replicas[i].loaded.cache.latest_epoch();
    return std::pair{latest.value_or(-1), replicas[i].log_end_offset};
  };
  for (std::size_t i = 1; i < replicas.size(); ++i)
    if (key(i) > key(best)) best = i;
  return best;
}

ReplicaComparison compare_replicas(const std::vector<PartitionReplica>& replicas,
                                   std::size_t replica, std::size_t reference) {
  const PartitionReplica& a = replicas[replica];
  const PartitionReplica& b = replicas[reference];
  ReplicaComparison c;
  c.replica = replica;
  c.reference = reference;
  c.fork_by_epochs = epoch_fork(a, b);

  const std::int64_t start = std::max(a.loaded.log_start_offset, b.loaded.log_start_offset);
  const std::int64_t end = std::min(a.log_end_offset, b.log_end_offset);
  const BatchRange mine = batches_from(a, start, end);
  const BatchRange theirs = batches_from(b, start, end);
  std::map<std::int64_t, BatchRange::Batch> at;
  for (const auto& x : theirs.batches)
    at.emplace(x.base_offset, x);
  const bool complete = mine.batches_complete && theirs.batches_complete;
  // Up to where the other replica's batches are known without a gap from `start`.
  const std::int64_t theirs_known_to = complete ? INT64_MAX
                                       : theirs.known_prefix == 0
                                           ? start - 1
                                           : theirs.batches[theirs.known_prefix - 1].last_offset;
  // Whether the other replica's batch at `offset` is known (kept, or known not to exist).
  auto known_there = [&](std::int64_t offset,
                         std::map<std::int64_t, BatchRange::Batch>::const_iterator it) {
    if (complete || it != at.end() || offset <= theirs_known_to) return true;
    auto holder = at.upper_bound(offset);
    return holder != at.begin() && std::prev(holder)->second.last_offset >= offset;
  };
  bool certain = true;  // every batch so far compared: the first difference is the fork
  std::optional<std::int64_t> first_found;
  for (std::size_t i = 0; i < mine.batches.size(); ++i) {
    const auto& x = mine.batches[i];
    const auto it = at.find(x.base_offset);
    if (i >= mine.known_prefix) certain = false;
    if (!known_there(x.base_offset, it)) {
      certain = false;
      continue;
    }
    const bool same =
        it != at.end() && it->second.last_offset == x.last_offset && it->second.crc == x.crc;
    if (same) continue;
    if (!first_found) first_found = x.base_offset;
    if (!c.fork_by_batches && certain) c.fork_by_batches = x.base_offset;
    if (c.differing_batches.size() < kMaxDifferingBatches) {
      DifferingBatch d{x.base_offset, x.last_offset, x.crc, std::nullopt};
      if (it != at.end()) d.other_crc = it->second.crc;
      c.differing_batches.push_back(d);
    }
  }
  if (!complete && !c.fork_by_batches) {
    c.unanswered.push_back(
        first_found
            ? fmt::format("batches compared only where the snapshots kept both: the first "
                          "differing one there is at offset {}, an earlier one may lie between "
                          "the kept windows",
                          *first_found)
            : fmt::format("batches compared only where the snapshots kept both (offsets {} to "
                          "{}): none differs there, the batches between the kept windows are "
                          "not known",
                          start, end - 1));
  }
  // Offsets one replica holds beyond the other's log end (or after the fork).
  const std::int64_t fork =
      std::min(c.fork_by_batches.value_or(end), c.fork_by_epochs.value_or(end));
  if (a.log_end_offset > fork) c.only_here = OffsetRange{fork, a.log_end_offset - 1};
  if (b.log_end_offset > fork) c.only_there = OffsetRange{fork, b.log_end_offset - 1};
  return c;
}

}  // namespace kepoch
