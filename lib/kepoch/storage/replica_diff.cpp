#include "kepoch/storage/replica_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "kepoch/storage/batch_merge.hpp"

namespace kepoch {
namespace {

// The offset before `limit`, never below `floor`: a log end that wrapped past INT64_MAX (a
// hostile batch at the largest base offset) has no offset before it to anchor on.
std::int64_t offset_before(std::int64_t limit, std::int64_t floor) {
  return limit > floor ? limit - 1 : floor;
}

constexpr std::size_t kMaxDifferingBatches = 100;

std::optional<std::int64_t> epoch_fork(const PartitionReplica& a, const PartitionReplica& b,
                                       std::vector<std::string>& notes) {
  // A replica without epochs (no leader-epoch-checkpoint, or an empty one, after a clean
  // shutdown) has nothing to compare: not a fork at its log start.
  bool empty = false;
  for (const auto* r : {&a, &b}) {
    if (!r->loaded.cache.empty()) continue;
    empty = true;
    notes.push_back(fmt::format(
        "{} has no leader epochs (its leader-epoch-checkpoint is missing or empty): the epoch "
        "histories are not compared, the fork is the batches'",
        r->dir.string()));
  }
  if (empty) return std::nullopt;
  const std::int64_t end = std::min(a.log_end_offset, b.log_end_offset);
  const std::int64_t start = std::max(a.loaded.log_start_offset, b.loaded.log_start_offset);
  // Epochs change only at entry start offsets: compare there (and at the common start).
  std::set<std::int64_t> points{start};
  for (const auto* r : {&a, &b})
    for (const auto& e : r->loaded.cache.entries())
      if (e.start_offset > start && e.start_offset < end) points.insert(e.start_offset);
  for (std::int64_t o : points) {
    if (o >= end) break;
    const auto ea = a.loaded.cache.epoch_for_offset(o), eb = b.loaded.cache.epoch_for_offset(o);
    // An offset below a cache's first entry has no epoch there: not comparable.
    if (ea && eb && *ea != *eb) return o;
  }
  return std::nullopt;
}

void record_difference(ReplicaComparison& c, std::int64_t base, std::int64_t last,
                       std::uint32_t crc, std::optional<std::uint32_t> other_crc) {
  if (c.differing_batches.size() < kMaxDifferingBatches)
    c.differing_batches.push_back(DifferingBatch{base, last, crc, other_crc});
}

// Every batch of the range known on both sides (replica dirs, or snapshots that kept them
// all): the first batch of `mine` the other does not hold identically is the fork.
void compare_all_batches(const BatchRange& mine, const BatchRange& theirs, ReplicaComparison& c) {
  std::map<std::int64_t, BatchRange::Batch> at;
  for (const auto& x : theirs.batches)
    at.emplace(x.base_offset, x);
  for (const auto& x : mine.batches) {
    const auto it = at.find(x.base_offset);
    const bool same =
        it != at.end() && it->second.last_offset == x.last_offset && it->second.crc == x.crc;
    if (same) continue;
    if (!c.fork_by_batches) c.fork_by_batches = x.base_offset;
    record_difference(c, x.base_offset, x.last_offset, x.crc,
                      it != at.end() ? std::optional(it->second.crc) : std::nullopt);
  }
}

// A snapshot's kept batches; for a replica dir, all of its batches.
StoredBatches kept_or_all(const PartitionReplica& r) {
  if (r.stored) return *r.stored;
  StoredBatches all;
  walk_batches(r, [&](const BatchSummary& b) {
    all.batches.push_back(b);
    ++all.batch_count;
  });
  return all;
}

// Where a snapshot kept only windows: batches are compared where both sides kept one. The
// first difference is the fork only when every batch of `mine` before it was compared: from
// the range's first batch, or from an anchor (a batch both sides kept at the same offset
// with the same ordinal and digest_before, which proves the batches before it identical)
// with no batch left out since. What stays open goes to `unanswered`.
void compare_kept_batches(const StoredBatches& mine, const StoredBatches& theirs,
                          std::int64_t start, std::int64_t end, ReplicaComparison& c) {
  std::map<std::int64_t, const BatchSummary*> at;
  for (const auto& y : theirs.batches)
    at.emplace(y.base_offset, &y);
  // Whether the other side's batch at `offset` is known: kept, or known not to exist (the
  // offset lies inside a kept batch, between two consecutive kept ones, or past its last).
  auto known_there = [&](std::int64_t offset) {
    if (at.count(offset)) return true;
    const auto next = at.upper_bound(offset);
    if (next == at.begin()) return next != at.end() && next->second->ordinal == 0;
    const BatchSummary& prev = *std::prev(next)->second;
    if (prev.last_offset >= offset) return true;
    if (next == at.end()) return prev.ordinal + 1 == theirs.batch_count;
    return next->second->ordinal == prev.ordinal + 1;
  };
  bool chain = true;  // every batch of `mine` in the range so far was compared
  const BatchSummary* prev = nullptr;
  const BatchSummary* last_in_range = nullptr;
  std::optional<std::int64_t> first_found;
  bool after_last_known = false;  // the batch after the last one in the range is known
  for (const auto& x : mine.batches) {
    const bool follows = prev ? prev->ordinal + 1 == x.ordinal : x.ordinal == 0;
    const bool right_after_range = prev && prev == last_in_range;
    prev = &x;
    if (x.base_offset >= end) {
      after_last_known = after_last_known || (right_after_range && follows);
      continue;
    }
    if (x.last_offset < start) continue;
    last_in_range = &x;
    chain = chain && follows;
    const auto it = at.find(x.base_offset);
    if (it != at.end() && it->second->ordinal == x.ordinal &&
        it->second->digest_before == x.digest_before)
      chain = true;  // an anchor: identical up to here
    if (!known_there(x.base_offset)) {
      chain = false;
      continue;
    }
    const bool same =
        it != at.end() && it->second->last_offset == x.last_offset && it->second->crc == x.crc;
    if (same) continue;
    if (!first_found) first_found = x.base_offset;
    if (!c.fork_by_batches && chain) c.fork_by_batches = x.base_offset;
    record_difference(c, x.base_offset, x.last_offset, x.crc,
                      it != at.end() ? std::optional(it->second->crc) : std::nullopt);
  }
  if (last_in_range && last_in_range->ordinal + 1 == mine.batch_count) after_last_known = true;
  const bool all_compared = chain && (after_last_known || !last_in_range);
  if (all_compared) return;
  if (c.fork_by_batches) {
    c.unanswered.push_back(
        "differing_batches lists the differing batches only where the snapshots kept both");
  } else if (first_found) {
    c.unanswered.push_back(fmt::format(
        "batches compared only where the snapshots kept both: the first differing one there "
        "is at offset {}, an earlier one may lie between the kept windows",
        *first_found));
  } else {
    c.unanswered.push_back(fmt::format(
        "batches compared only where the snapshots kept both (offsets {} to {}): none differs "
        "there, the batches between the kept windows are not known",
        start, end - 1));
  }
}

// The batches of `range` from `from` on.
BatchRange batches_above(const BatchRange& range, std::int64_t from) {
  BatchRange out = range;
  out.batches.clear();
  for (const auto& b : range.batches)
    if (b.base_offset >= from) out.batches.push_back(b);
  return out;
}

// Where a comparison from the common log start begins: above every batch the log cleaner
// rewrote (each replica's cleaner runs at its own time, so other batches or fewer records there
// are no divergence), with a note saying so. Sets batches_compared_from.
std::int64_t compare_from_above_cleaned(const PartitionReplica& a, const PartitionReplica& b,
                                        const BatchRange& mine, const BatchRange& theirs,
                                        std::int64_t start, std::int64_t end,
                                        ReplicaComparison& c) {
  const std::int64_t mine_cleaned = cleaned_until(mine, start);
  const std::int64_t theirs_cleaned = cleaned_until(theirs, start);
  const std::int64_t cleaned = std::max(mine_cleaned, theirs_cleaned);
  c.batches_compared_from = std::max(start, std::min(cleaned, end));
  if (cleaned > start) {
    c.notes.push_back(fmt::format(
        "batches below offset {} are not compared: the log cleaner rewrote {}'s there (records "
        "or whole batches missing: a compacted log), and each replica's cleaner runs on its own",
        c.batches_compared_from, mine_cleaned >= theirs_cleaned ? a.dir.string() : b.dir.string()));
  }
  return c.batches_compared_from;
}

// Every batch of two replica dirs from the common log start (above what the cleaner
// rewrote); by a lookup table when a log's offsets do not increase (the side-by-side walk
// needs them to).
void compare_from_log_start(const PartitionReplica& a, const PartitionReplica& b,
                            std::int64_t start, std::int64_t end, ReplicaComparison& c) {
  const BatchRange mine = batches_from(a, start, end);
  const BatchRange theirs = batches_from(b, start, end);
  const std::int64_t from = compare_from_above_cleaned(a, b, mine, theirs, start, end, c);
  MergeResult r = merge_batches(a, b, from, end, /*anchored=*/false, kMaxDifferingBatches);
  if (r.outcome == MergeOutcome::compared) {
    c.fork_by_batches = r.first_difference;
    c.differing_batches = std::move(r.differing);
    return;
  }
  compare_all_batches(batches_above(mine, from), batches_above(theirs, from), c);
}

// Nothing differs from the anchor on and the epoch caches agree: by Kafka's rule the batches
// below are the same too, but a cache that disagrees with its own batches, or a batch
// rewritten below the anchor, breaks that rule, and "identical" must not rest on it. So the
// batches below are compared as well; the comparison is kept only when it finds a
// difference (it costs one header walk of each log, never a different answer otherwise).
// The walk is side by side in constant memory; only when it sees a difference (or offsets
// that do not increase) is the comparison from the log start redone, with its lists and the
// cleaner's rule, to say what differs.
bool differs_below_anchor(const PartitionReplica& a, const PartitionReplica& b, std::int64_t start,
                          std::int64_t anchor, std::int64_t end, ReplicaComparison& c) {
  const MergeResult below = merge_batches(a, b, start, anchor, /*anchored=*/false, 1);
  if (below.outcome == MergeOutcome::compared && !below.first_difference && below.differing.empty())
    return false;
  ReplicaComparison whole;
  whole.replica = c.replica;
  whole.reference = c.reference;
  whole.fork_by_epochs = c.fork_by_epochs;
  whole.notes = c.notes;
  whole.batches_compared_from = start;
  compare_from_log_start(a, b, start, end, whole);
  if (!whole.fork_by_batches && whole.differing_batches.empty()) return false;
  whole.read_whole = fmt::format(
      "no batch differs from offset {} on and the epoch caches agree, but batches below it "
      "differ: batches compared from the common log start",
      anchor);
  c = std::move(whole);
  return true;
}

// Two replica dirs: side by side from the epoch fork when both were loaded to their tail
// (see the header), else from the common log start.
void compare_replica_dirs(const PartitionReplica& a, const PartitionReplica& b, std::int64_t start,
                          std::int64_t end, ReplicaComparison& c) {
  auto take = [&c](MergeResult r) {
    c.fork_by_batches = r.first_difference;
    c.differing_batches = std::move(r.differing);
  };
  if (a.depth == LoadDepth::whole || b.depth == LoadDepth::whole) {
    c.read_whole = "loaded whole: batches compared from the common log start";
  } else if (!a.loaded.cache.epoch_for_offset(start) || !b.loaded.cache.epoch_for_offset(start)) {
    const auto& uncovered = a.loaded.cache.epoch_for_offset(start) ? b : a;
    c.read_whole = fmt::format(
        "the epoch cache of {} does not cover offset {}: batches compared from the common log "
        "start",
        uncovered.dir.string(), start);
  } else if (const std::int64_t anchor = offset_before(c.fork_by_epochs.value_or(end), start);
             anchor > start) {
    MergeResult r = merge_batches(a, b, anchor, end, /*anchored=*/true, kMaxDifferingBatches);
    if (r.outcome == MergeOutcome::compared) {
      const bool same = !c.fork_by_epochs && !r.first_difference && r.differing.empty();
      if (same && differs_below_anchor(a, b, start, anchor, end, c)) return;
      return take(std::move(r));
    }
    if (r.outcome == MergeOutcome::anchor_differs) {
      c.read_whole = fmt::format(
          "the batches holding offset {} differ although the epoch caches agree there: batches "
          "compared from the common log start",
          anchor);
    }
  }
  compare_from_log_start(a, b, start, end, c);
}

}  // namespace

std::int64_t cleaned_until(const BatchRange& range, std::int64_t start) {
  std::int64_t until = start, expected = start;
  for (const auto& b : range.batches) {
    const bool gap = range.batches_complete && b.base_offset > expected;
    const bool dropped = b.records != b.last_offset - b.base_offset + 1;
    if (gap || dropped) until = b.last_offset + 1;
    expected = b.last_offset + 1;
  }
  return until;
}

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

namespace {

// Replica `a` (at `replica` in the caller's list) against the reference `b` (at `reference`).
ReplicaComparison compare_pair(const PartitionReplica& a, const PartitionReplica& b,
                               std::size_t replica, std::size_t reference) {
  ReplicaComparison c;
  c.replica = replica;
  c.reference = reference;
  c.fork_by_epochs = epoch_fork(a, b, c.notes);

  // A log start past the log end (log-start-offset-checkpoint and segments disagree): Kafka
  // deletes every segment when it loads the log (LogLoader.deleteSegmentsIfLogStartGreater-
  // ThanLogEnd), so neither "identical" nor a fork describes the replica Kafka will hold.
  for (const PartitionReplica* r : {&a, &b}) {
    if (r->loaded.log_start_offset > r->log_end_offset && !r->segments.empty())
      c.unanswered.push_back(fmt::format(
          "how {} compares: its log start {} is past its log end {}, and Kafka deletes all of "
          "its segments when it loads the log "
          "(LogLoader.deleteSegmentsIfLogStartGreaterThanLogEnd)",
          r->dir.string(), r->loaded.log_start_offset, r->log_end_offset));
  }
  const std::int64_t start = std::max(a.loaded.log_start_offset, b.loaded.log_start_offset);
  const std::int64_t end = std::min(a.log_end_offset, b.log_end_offset);
  c.batches_compared_from = start;  // raised above what a cleaner rewrote, where that is read
  if (!a.stored && !b.stored) {
    compare_replica_dirs(a, b, start, end, c);
  } else {
    const BatchRange mine = batches_from(a, start, end);
    const BatchRange theirs = batches_from(b, start, end);
    const std::int64_t from = compare_from_above_cleaned(a, b, mine, theirs, start, end, c);
    if (mine.batches_complete && theirs.batches_complete)
      compare_all_batches(batches_above(mine, from), batches_above(theirs, from), c);
    else
      compare_kept_batches(kept_or_all(a), kept_or_all(b), from, end, c);
  }
  // Offsets one replica holds beyond the other's log end (or after the fork).
  const std::int64_t fork =
      std::min(c.fork_by_batches.value_or(end), c.fork_by_epochs.value_or(end));
  if (a.log_end_offset > fork) c.only_here = OffsetRange{fork, a.log_end_offset - 1};
  if (b.log_end_offset > fork) c.only_there = OffsetRange{fork, b.log_end_offset - 1};
  return c;
}

}  // namespace

ReplicaComparison compare_replicas(const std::vector<PartitionReplica>& replicas,
                                   std::size_t replica, std::size_t reference) {
  return compare_pair(replicas[replica], replicas[reference], replica, reference);
}

ReplicaComparison compare_replicas(const std::vector<const PartitionReplica*>& replicas,
                                   std::size_t replica, std::size_t reference) {
  return compare_pair(*replicas[replica], *replicas[reference], replica, reference);
}

}  // namespace kepoch
