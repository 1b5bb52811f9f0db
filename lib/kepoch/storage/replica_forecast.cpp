#include "kepoch/storage/replica_forecast.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>

#include "kepoch/storage/batch_cursor.hpp"
#include "kepoch/storage/consumer_view.hpp"

namespace kepoch {

bool leader_holds_committed(const PartitionReplica& leader, bool elected_clean) {
  return elected_clean &&
         !(leader.high_watermark && *leader.high_watermark > leader.log_end_offset);
}

std::vector<CommittedDoubt> high_watermark_doubts(const PartitionReplica& follower,
                                                  const PartitionReplica* leader,
                                                  bool leader_clean) {
  std::vector<CommittedDoubt> doubts;
  if (leader_clean && (!leader || leader_holds_committed(*leader, true))) return doubts;
  if (!follower.clean_shutdown) {
    doubts.push_back(
        {std::numeric_limits<std::int64_t>::max(),
         fmt::format("the broker of {} did not shut down cleanly (no .kafka_cleanshutdown), so its "
                     "replication-offset-checkpoint can be older than the high watermark it held "
                     "(Kafka writes it every replica.high.watermark.checkpoint.interval.ms)",
                     follower.dir.string())});
  }
  if (leader && leader->high_watermark && *leader->high_watermark > leader->log_end_offset) {
    doubts.push_back(
        {*leader->high_watermark,
         fmt::format("the leader {} recorded a high watermark of {}, above its log end {}: the "
                     "records committed there are gone from it",
                     leader->dir.string(), *leader->high_watermark, leader->log_end_offset),
         leader->log_end_offset});
  }
  return doubts;
}

ReplicaForecast forecast_replica(const PartitionReplica& leader, const PartitionReplica& follower,
                                 TruncationMode mode, bool leader_clean) {
  const LeaderBatchLookup batches = [&leader](std::int64_t from, std::int64_t until) {
    return batches_from(leader, from, until);
  };
  LeaderAnswers answers = answers_of(leader.as_leader, follower.loaded.cache);
  add_tier_answers(answers, leader, leader.as_leader);
  return forecast_replica(
      answers, batches, "the snapshot of " + leader.dir.string() + " did not keep", follower, mode,
      std::nullopt, high_watermark_doubts(follower, &leader, leader_clean));
}

namespace {

// The recorded high watermark (replication-offset-checkpoint), as written: even above the
// replica's own log end (what was committed there is gone from it). None recorded: its log
// start (what Kafka's load takes).
std::int64_t recorded_high_watermark(const PartitionReplica& r) {
  return r.high_watermark.value_or(r.loaded.log_start_offset);
}

// Where `follower`'s log stops being `other`'s: the first offset where their epoch caches
// give the records different leader epochs (each (epoch, offset) is one record: the leader of
// an epoch writes each of its offsets once), or where the shorter log ends. Its whole log when
// `other` is itself. Offsets below a cache's first entry (deleted by retention, or a log of
// the message formats before epochs) are taken as shared; a replica without any epoch shares
// nothing that can be told.
std::int64_t shared_prefix(const PartitionReplica& follower, const PartitionReplica& other) {
  if (&follower == &other) return follower.log_end_offset;
  const LeaderEpochCache& f = follower.loaded.cache;
  const LeaderEpochCache& o = other.loaded.cache;
  const std::int64_t end = std::min(follower.log_end_offset, other.log_end_offset);
  if (f.empty() || o.empty())
    return std::min(end, std::max(follower.loaded.log_start_offset, other.loaded.log_start_offset));
  std::vector<std::int64_t> starts;
  for (const auto& e : f.entries())
    starts.push_back(e.start_offset);
  for (const auto& e : o.entries())
    starts.push_back(e.start_offset);
  std::sort(starts.begin(), starts.end());
  for (const auto at : starts) {
    if (at >= end) break;
    const auto a = f.epoch_for_offset(at), b = o.epoch_for_offset(at);
    if (a && b && *a != *b) return at;
  }
  return end;
}

}  // namespace

CommittedBound committed_bound(const PartitionReplica& follower,
                               const std::vector<const PartitionReplica*>& known,
                               bool leader_clean) {
  CommittedBound out;
  std::vector<const PartitionReplica*> all = known;
  if (std::find(all.begin(), all.end(), &follower) == all.end()) all.push_back(&follower);
  std::vector<std::pair<const PartitionReplica*, std::int64_t>> shared;
  for (const PartitionReplica* r : all) {
    const std::int64_t prefix = shared_prefix(follower, *r);
    shared.emplace_back(r, prefix);
    out.below = std::max(out.below, std::min(recorded_high_watermark(*r), prefix));
  }
  if (leader_clean) return out;
  for (const auto& [r, prefix] : shared) {
    const bool self = r == &follower;
    // The follower's own records count up to its log end; another's only where they are
    // the follower's too.
    const std::int64_t until =
        self ? std::numeric_limits<std::int64_t>::max() : std::min(prefix, r->log_end_offset);
    if (!r->clean_shutdown) {
      out.doubts.push_back(
          {until,
           fmt::format(
               "the broker of {} did not shut down cleanly (no .kafka_cleanshutdown), so "
               "its replication-offset-checkpoint can be older than the high watermark "
               "it held (Kafka writes it every replica.high.watermark.checkpoint.interval.ms)",
               r->dir.string())});
    }
    if (!r->high_watermark) {
      out.doubts.push_back(
          {until, fmt::format("{} has no high watermark recorded (replication-offset-checkpoint "
                              "missing, unreadable or without the partition)",
                              r->dir.string())});
    }
    if (r->high_watermark && *r->high_watermark > r->log_end_offset &&
        (self || prefix >= r->log_end_offset)) {
      out.doubts.push_back(
          {*r->high_watermark,
           fmt::format("{} recorded a high watermark of {}, above its log end {}: the records "
                       "committed there are gone from it",
                       r->dir.string(), *r->high_watermark, r->log_end_offset),
           r->log_end_offset});
    }
  }
  return out;
}

ReplicaForecast forecast_follower(const PartitionReplica& leader, const ReplicaLog& leader_log,
                                  const PartitionReplica& follower,
                                  const std::vector<const PartitionReplica*>& known,
                                  TruncationMode mode, bool leader_clean,
                                  const LeaderBatchLookup* leader_batches, RemovedTailRead tail) {
  return forecast_follower(leader, leader_log, follower,
                           committed_bound(follower, known, leader_clean), mode, leader_batches,
                           tail);
}

ReplicaForecast forecast_follower(const PartitionReplica& leader, const ReplicaLog& leader_log,
                                  const PartitionReplica& follower, const CommittedBound& bound,
                                  TruncationMode mode, const LeaderBatchLookup* leader_batches,
                                  RemovedTailRead tail) {
  const LeaderBatchLookup from_segments = [&leader](std::int64_t from, std::int64_t until) {
    return batches_from(leader, from, until);
  };
  const LeaderBatchLookup& batches = leader_batches ? *leader_batches : from_segments;
  LeaderAnswers answers = answers_of(leader_log, follower.loaded.cache);
  add_tier_answers(answers, leader, leader_log);
  return forecast_replica(answers, batches,
                          "the snapshot of " + leader.dir.string() + " did not keep", follower,
                          mode, bound.below, bound.doubts, tail);
}

namespace {

// The leader's end: at or past its log end offset (the next offset it assigns; the end
// offset of its own epoch, UnifiedLog.endOffsetForEpoch) it holds no record. An undefined
// answer (-1: a leader whose cache has no epoch) says nothing about its end.
std::int64_t leader_end_of(const LeaderAnswers& answers) {
  return answers.log_end_offset >= 0 ? answers.log_end_offset
                                     : std::numeric_limits<std::int64_t>::max();
}

// The batches a truncation at `cut` removes (batches_from(follower, cut)) and, for a replica
// read from its segments, in the same walk, its transactional and control batches with their
// markers: all that consumer_kinds needs (a batch that is neither is data), so the removed
// tail is read once, not once for the counts and again for the kinds.
struct RemovedTail {
  BatchRange range;
  std::optional<std::vector<TransactionBatch>> transactions;  // nullopt: a snapshot's
};

RemovedTail removed_tail(const PartitionReplica& follower, std::int64_t cut) {
  RemovedTail out;
  if (follower.stored) {
    out.range = batches_from(follower, cut);
    return out;
  }
  out.transactions.emplace();
  BatchCursor cursor(follower, cut);
  constexpr std::size_t kMaxBatches = 1u << 20;  // batches_from's default
  while (const auto* b = cursor.next()) {
    out.range.records += static_cast<std::uint64_t>(b->records);
    out.range.bytes += b->size;
    if (out.range.batches.size() < kMaxBatches)
      out.range.batches.push_back({b->base_offset, b->last_offset, b->records, b->crc});
    if (!b->transactional && !b->control) continue;
    TransactionBatch t;
    t.base_offset = b->base_offset;
    t.last_offset = b->last_offset;
    t.records = b->records;
    t.transactional = b->transactional;
    t.control = b->control;
    t.producer_id = b->producer_id;
    t.producer_epoch = b->producer_epoch;
    t.max_timestamp = b->max_timestamp;
    if (b->control) t.marker = cursor.control_marker();
    out.transactions->push_back(t);
  }
  return out;
}

// Each removed batch's kind as a consumer reads it, by base offset (all data when unknown;
// a batch not listed is data): from the walk's transaction batches, or for a snapshot its
// stored ones.
std::map<std::int64_t, RecordKind> removed_kinds(ReplicaForecast& f,
                                                 const PartitionReplica& follower,
                                                 const RemovedTail& tail, std::int64_t cut) {
  std::map<std::int64_t, RecordKind> out;
  std::optional<std::vector<TransactionBatch>> stored;
  const std::vector<TransactionBatch>* batches = tail.transactions ? &*tail.transactions : nullptr;
  if (!batches) {
    stored = transaction_batches_from(follower, cut);
    if (!stored) {
      f.transactions_known = false;
      return out;
    }
    batches = &*stored;
  }
  const std::vector<RecordKind> kinds = consumer_kinds(*batches);
  for (std::size_t i = 0; i < batches->size(); ++i)
    out.emplace((*batches)[i].base_offset, kinds[i]);
  return out;
}

// The records of batch `b` at offsets in [from, until), at most its record count (a compacted
// batch holds fewer records than offsets).
std::uint64_t records_between(const BatchRange::Batch& b, std::int64_t from, std::int64_t until) {
  const std::int64_t lo = std::max(b.base_offset, from);
  const std::int64_t hi = std::min(b.last_offset + 1, until);
  if (hi <= lo) return 0;
  return static_cast<std::uint64_t>(std::min<std::int64_t>(hi - lo, b.records));
}

// The follower's remote part the truncation forks off (ReplicaForecast::remote_*). Where its
// log stops being the leader's: the lowest offset the OffsetsForLeaderEpoch rounds (or an
// out-of-range reset) truncate it to; the tier step that may follow (TierStateMachine) is not
// a divergence: what lies below its refused fetch offset is the leader's lineage too, in the
// same remote segments. Below the leader's log start the leader deleted those offsets itself.
// Not for --mode hw (before 0.11: a truncation to the high watermark keeps no lineage to
// compare, and tiered storage needs 3.6).
void count_remote_removed(ReplicaForecast& f, const LeaderAnswers& answers,
                          const PartitionReplica& follower) {
  if (f.mode == TruncationMode::hw) return;
  if (!follower.remote_tier && !shows_remote_tier(follower)) return;
  std::int64_t diverged = follower.log_end_offset;
  for (const auto& r : f.prediction.rounds)
    if (r.branch != TruncationBranch::tiered) diverged = std::min(diverged, r.truncate_to);
  const std::int64_t local_start = follower.loaded.log_start_offset;
  // Its whole log's start: log-start-offset-checkpoint's; a partition without an entry
  // starts at 0 (LogManager.loadLog: logStartOffsets.getOrDefault(topicPartition, 0L)), and
  // what the metadata does not describe above it is unknown, not safe.
  const std::int64_t log_start = std::min(follower.log_start_checkpoint.value_or(0), local_start);
  const std::int64_t from = std::max({diverged, log_start, answers.log_start_offset});
  if (from >= local_start) return;
  f.remote_removed_range = std::pair{from, local_start - 1};
  const RemoteLogIndex* index = follower.remote_tier && follower.remote_tier->remote_log
                                    ? follower.remote_tier->remote_log.get()
                                    : nullptr;
  std::string why;
  if (index) {
    const RemoteCoverage c =
        remote_lineage_coverage(follower.loaded.cache.entries(), *index, from, local_start);
    f.remote_lost_records = c.held_offsets;
    f.remote_lost_ranges = c.held;
    f.remote_undescribed = c.not_described;
    why = "the remote log metadata names no finished segment of its lineage there";
  } else {
    f.remote_undescribed.emplace_back(from, local_start - 1);
    why = follower.remote_tier ? follower.remote_tier->source
                               : std::string("no __remote_log_metadata given");
    why += " (--remote-log-metadata)";
  }
  if (f.remote_undescribed.empty()) return;
  f.lost_known = false;
  f.committed_loss_unknown = true;
  std::string ranges;
  for (const auto& [a, b] : f.remote_undescribed)
    ranges += fmt::format("{}{} to {}", ranges.empty() ? "" : ", ", a, b);
  f.unanswered.push_back(fmt::format(
      "what {} removes from remote storage at offsets {} (below its local log start {}, "
      "uploaded below a last stable offset, so committed if there): {}",
      follower.dir.string(), ranges, local_start, why));
}

void count_removed(ReplicaForecast& f, const LeaderAnswers& answers,
                   const LeaderBatchLookup& leader_batches, std::string_view leader_source,
                   const PartitionReplica& follower, std::int64_t committed_below,
                   const std::vector<CommittedDoubt>& doubts, RemovedTailRead tail_read) {
  // UnifiedLog.truncateFullyAndStartAt deletes every segment: the whole log goes, although
  // the new log end (the leader's log start) lies past the old one.
  const std::int64_t cut = f.prediction.truncated_fully
                               ? std::min(follower.loaded.log_start_offset, follower.log_end_offset)
                               : f.prediction.truncate_to;
  count_remote_removed(f, answers, follower);
  if (cut >= follower.log_end_offset) return;

  // Deferred: the caller's walk from the truncation offset reads the tail; its first batch
  // alone tells the removed range (as the counted walk below does). When that batch begins
  // past the truncation offset, the caller walks from there, not from the truncation offset:
  // counted here then, as without deferring.
  if (tail_read == RemovedTailRead::deferred && !follower.stored &&
      follower.depth == LoadDepth::tail) {
    BatchCursor cursor(follower, cut);
    const BatchCursor::Batch* first = cursor.next();
    if (!first) return;  // no batch from the cut on: nothing removed, as the walk below counts
    if (first->base_offset <= cut) {
      f.removed_range = {cut, follower.log_end_offset - 1};
      f.removed_deferred = true;
      return;
    }
  }

  const RemovedTail tail = removed_tail(follower, cut);
  const BatchRange& removed = tail.range;
  f.removed_records = removed.records;
  f.removed_bytes = removed.bytes;
  if (!removed.counts_known) {
    f.removed_known = false;
    f.unanswered.push_back(fmt::format(
        "records and bytes removed from offset {}: the snapshot of {} did not keep the batch "
        "holding it",
        cut, follower.dir.string()));
  }
  if (removed.counts_known && !removed.batches.empty()) {
    f.removed_range = {std::max(cut, removed.batches.front().base_offset),
                       follower.log_end_offset - 1};
  }
  if (!removed.batches_complete) {
    f.lost_counted = f.lost_known = false;
    f.lost_unknown_range = std::pair{cut, follower.log_end_offset - 1};
    f.committed_loss_unknown = cut < committed_below;
    f.unanswered.push_back(
        fmt::format("which removed records are lost: the snapshot of {} did not keep every "
                    "batch from offset {} to {}",
                    follower.dir.string(), cut, follower.log_end_offset));
    return;
  }

  // Where the leader can hold a removed batch: from its log start to its log end; a removed
  // batch reaching its log end is lost without asking.
  const std::int64_t leader_end = leader_end_of(answers);
  // A tiered leader's batches: from its local log start (below, remote segments).
  const std::int64_t leader_start =
      answers.tier ? answers.tier->local_log_start_offset : answers.log_start_offset;
  // The tier step (TierStateMachine): what the follower removes below the refused fetch
  // offset agrees with the leader's epoch lineage (the divergence check passed it), so it is
  // held where remote storage holds that lineage's offsets.
  const TierRebuild* tier =
      f.prediction.tier && (f.prediction.tier->outcome == TierOutcome::rebuilt ||
                            f.prediction.tier->outcome == TierOutcome::remote_unknown)
          ? &*f.prediction.tier
          : nullptr;
  std::uint64_t remote_unknown_committed = 0;
  std::optional<std::pair<std::int64_t, std::int64_t>> remote_unknown_range;
  const auto may_be_held = [&](const BatchRange::Batch& b) {
    return b.last_offset < leader_end && b.last_offset >= leader_start;
  };
  const std::int64_t from = std::max(cut, leader_start);
  const std::int64_t until = std::min(follower.log_end_offset, leader_end);
  BatchRange at_leader;
  std::int64_t read_until = from;  // the leader's batches ending below this were all read
  if (from < until && std::any_of(removed.batches.begin(), removed.batches.end(), may_be_held)) {
    at_leader = leader_batches(from, until);
    read_until = at_leader.batches_complete ? until : at_leader.complete_until;
  }
  // The leader's batches by base offset (the first of equal ones): a sorted list, not a map
  // node per batch (a removed tail of 100,000 batches is as many of the leader's).
  std::vector<BatchRange::Batch>& held = at_leader.batches;
  const auto by_base = [](const BatchRange::Batch& a, const BatchRange::Batch& b) {
    return a.base_offset < b.base_offset;
  };
  if (!std::is_sorted(held.begin(), held.end(), by_base))
    std::stable_sort(held.begin(), held.end(), by_base);

  // Records of a batch below the high watermark were acknowledged to acks=all producers and
  // may have been consumed.
  const auto committed_part = [&](const BatchRange::Batch& b) -> std::uint64_t {
    if (b.base_offset >= committed_below) return 0;
    const std::int64_t below = std::min(b.last_offset + 1, committed_below) - b.base_offset;
    return static_cast<std::uint64_t>(std::min<std::int64_t>(below, b.records));
  };
  // Read (a second walk of the removed range, control batches loaded) only when a removed
  // batch is not held by the leader.
  std::optional<std::map<std::int64_t, RecordKind>> kinds;
  const auto kind_of = [&](const BatchRange::Batch& b) {
    if (!kinds) kinds = removed_kinds(f, follower, tail, cut);
    const auto it = kinds->find(b.base_offset);
    return it == kinds->end() ? RecordKind::data : it->second;
  };
  // Lost data records above the committed bound that a doubt covers: maybe committed.
  const auto doubted_in = [&](const BatchRange::Batch& b) {
    std::uint64_t most = 0;
    for (const auto& d : doubts)
      most = std::max(most, records_between(b, std::max(committed_below, d.from), d.below));
    return most;
  };
  std::uint64_t doubted = 0;
  std::uint64_t committed_unknown = 0;
  for (const auto& b : removed.batches) {
    const auto records = static_cast<std::uint64_t>(b.records);
    if (tier && b.last_offset < leader_start) {
      if (b.last_offset < answers.log_start_offset) {
        f.below_leader_start_records += records;
        continue;
      }
      if (b.last_offset < tier->refused_offset) {
        const auto first = remote_holds(*answers.tier, std::max(cut, b.base_offset));
        const auto last = remote_holds(*answers.tier, b.last_offset);
        if (first && last && *first && *last) {
          f.remote_held_records += records;
          continue;
        }
        if (first && last) {  // the metadata says no finished segment holds them: lost
          f.remote_missing_records += records;
        } else {
          f.lost_unknown_records += records;
          remote_unknown_committed += committed_part(b);
          remote_unknown_range = std::pair{
              remote_unknown_range ? remote_unknown_range->first : std::max(cut, b.base_offset),
              b.last_offset};
          f.lost_unknown_range = std::pair{
              f.lost_unknown_range ? f.lost_unknown_range->first : std::max(cut, b.base_offset),
              b.last_offset};
          continue;
        }
      }
      // else: removed by the divergence step, below the leader's local start: another
      // branch than the leader's, lost (counted below)
    } else if (b.last_offset < leader_start) {
      f.below_leader_start_records += records;
      continue;
    }
    if (may_be_held(b) && b.last_offset >= read_until) {
      f.lost_unknown_records += records;
      if (committed_part(b) > 0 && kind_of(b) == RecordKind::data)
        committed_unknown += committed_part(b);
      if (doubted_in(b) > 0 && kind_of(b) == RecordKind::data) doubted += doubted_in(b);
      const std::int64_t first = std::max(cut, b.base_offset);
      f.lost_unknown_range =
          std::pair{f.lost_unknown_range ? f.lost_unknown_range->first : first, b.last_offset};
      continue;
    }
    if (may_be_held(b)) {
      const auto it = std::lower_bound(held.begin(), held.end(), b, by_base);
      if (it != held.end() && it->base_offset == b.base_offset &&
          it->last_offset == b.last_offset && it->crc == b.crc)
        continue;  // fetched again
    }
    const RecordKind kind = kind_of(b);
    if (kind == RecordKind::aborted) {
      f.lost_aborted_records += records;
      continue;
    }
    if (kind == RecordKind::control) {
      f.lost_control_records += records;
      continue;
    }
    f.lost_records += records;
    if (!f.first_lost_offset) f.first_lost_offset = std::max(cut, b.base_offset);
    f.committed_lost_records += committed_part(b);
    doubted += doubted_in(b);
  }
  // A leader whose log start lies past its own log end: its log-start-offset-checkpoint and
  // its segments disagree (segment files deleted from the file system, or a recovery that
  // cut below the log start). Kafka deletes all of its segments when it loads the log
  // (LogLoader.deleteSegmentsIfLogStartGreaterThanLogEnd), so the offsets below that log
  // start were never deleted on purpose: what the followers remove there may be committed.
  if (remote_unknown_range) {
    f.lost_known = false;
    f.committed_loss_unknown = f.committed_loss_unknown || remote_unknown_committed > 0;
    f.unanswered.push_back(fmt::format(
        "whether remote storage holds offsets {} to {}, which the follower removes when it "
        "rebuilds from the remote tier ({} below the high watermark): {}",
        remote_unknown_range->first, remote_unknown_range->second, remote_unknown_committed,
        answers.tier->remote ? "the remote log metadata names no segment of the leader's "
                               "lineage for part of them"
                             : "no __remote_log_metadata given (--remote-log-metadata)"));
  }
  if (f.below_leader_start_records > 0 && answers.log_end_offset >= 0 &&
      leader_start > answers.log_end_offset) {
    f.lost_counted = f.lost_known = false;
    f.committed_loss_unknown = true;
    f.unanswered.push_back(fmt::format(
        "whether the {} record(s) removed below the leader's log start {} are lost: that log "
        "start is past the leader's own log end {} (its log-start-offset-checkpoint disagrees "
        "with its segments; Kafka deletes them all when it loads the log, "
        "LogLoader.deleteSegmentsIfLogStartGreaterThanLogEnd)",
        f.below_leader_start_records, leader_start, answers.log_end_offset));
  }
  if (doubted > 0) {
    f.committed_loss_unknown = true;
    std::string why;
    for (const auto& d : doubts)
      if (d.below > std::max(committed_below, d.from)) why += (why.empty() ? "" : "; ") + d.why;
    f.unanswered.push_back(fmt::format(
        "whether {} lost record(s) at or above the high watermark {} were committed: {}", doubted,
        committed_below, why));
  }
  if (f.lost_unknown_records > 0) {
    f.lost_known = false;
    f.committed_loss_unknown = f.committed_loss_unknown || committed_unknown > 0;
    f.unanswered.push_back(fmt::format(
        "which removed records at offsets {} to {} are lost ({} record(s), {} below the high "
        "watermark): {} every batch from offset {} to {}",
        f.lost_unknown_range->first, f.lost_unknown_range->second, f.lost_unknown_records,
        committed_unknown, leader_source, read_until, until));
  }
}

// Whether the fetch offset can lie inside one of the leader's batches. The leader's batches
// begin at the offsets its epochs start at, and a follower's log end after a truncation to
// the leader's answer, or without one, sits where a batch of the leader's ends, except in
// two cases: a truncation to the follower's own high watermark (no epoch to ask with; a
// leader elected since may hold that offset inside a longer batch), and the leader's log
// start offset (DeleteRecords moves it, and the first entry of its epoch cache, to any
// offset). Only then is the leader's batch read (one consumer Fetch, live).
bool may_land_inside_batch(const ReplicaForecast& f, const LeaderAnswers& answers) {
  const TruncationPrediction& p = f.prediction;
  if (p.fetch_from >= leader_end_of(answers) || p.truncated_fully) return false;
  const bool to_high_watermark = std::any_of(
      p.rounds.begin(), p.rounds.end(),
      [](const TruncationRound& r) { return r.branch == TruncationBranch::high_watermark; });
  return to_high_watermark || p.fetch_from == answers.log_start_offset;
}

void judge_first_append(ReplicaForecast& f, const LeaderAnswers& answers,
                        const LeaderBatchLookup& leader_batches, std::string_view leader_source,
                        const PartitionReplica& follower) {
  const TruncationPrediction& p = f.prediction;
  if (!may_land_inside_batch(f, answers)) return;
  const std::int64_t at = p.fetch_from;
  const BatchRange holding = leader_batches(at, at + 1);
  const BatchRange::Batch* batch = nullptr;
  for (const auto& b : holding.batches)
    if (b.base_offset <= at && b.last_offset >= at) batch = &b;
  if (!batch && !holding.batches_complete) {
    f.first_append_known = false;
    f.unanswered.push_back(fmt::format(
        "whether the follower's first fetch at offset {} appends: {} the leader's batch "
        "holding it",
        at, leader_source));
    return;
  }
  if (!batch) return;  // no batch holds it (a compacted gap): the next one starts above
  f.leader_batch = std::pair{batch->base_offset, batch->last_offset};
  f.first_append = first_append(p.after, batch->base_offset, batch->last_offset);
  if (!f.fails()) return;

  // What stays: the follower's batches below the fetch offset (LogSegment.truncateTo cut
  // the batch holding the truncation offset whole), against the leader's from its first
  // batch (the one holding its log start; below it the leader deleted its records).
  const std::int64_t leader_start = answers.log_start_offset;
  // (up to the batch holding the fetch offset: when that is the log start, it is the first)
  const BatchRange leader_side = leader_batches(leader_start, at + 1);
  const std::int64_t compare_from =
      std::max(follower.loaded.log_start_offset,
               leader_side.batches.empty()
                   ? leader_start
                   : std::min(leader_start, leader_side.batches.front().base_offset));
  f.divergent_compared_from = compare_from;
  const BatchRange kept = batches_from(follower, compare_from, at);
  const std::int64_t read_until =
      leader_side.batches_complete ? at : std::max(leader_start, leader_side.complete_until);
  std::map<std::int64_t, BatchRange::Batch> held;
  for (const auto& b : leader_side.batches)
    held.emplace(b.base_offset, b);
  std::uint64_t divergent = 0;
  bool known = kept.batches_complete;
  for (const auto& b : kept.batches) {
    if (b.last_offset >= at || b.base_offset < compare_from) continue;  // cut, or not compared
    const auto it = held.find(b.base_offset);
    if (it != held.end() && it->second.last_offset == b.last_offset && it->second.crc == b.crc)
      continue;
    if (it == held.end() && b.last_offset >= read_until) known = false;
    divergent += static_cast<std::uint64_t>(b.records);
    f.divergent_range =
        std::pair{f.divergent_range ? f.divergent_range->first : b.base_offset, b.last_offset};
  }
  if (known)
    f.divergent_records = divergent;
  else
    f.unanswered.push_back(fmt::format(
        "which records the follower keeps below offset {} differ from the leader's: {} every "
        "batch from offset {}",
        at, leader_source, compare_from));
  f.action = fmt::format(
      "stop its broker, delete {} (the broker fetches the partition again from the leader), "
      "then start it; or move the replica to another broker (kafka-reassign-partitions)",
      follower.dir.string());
}

}  // namespace

ReplicaForecast forecast_replica(const LeaderAnswers& answers,
                                 const LeaderBatchLookup& leader_batches,
                                 std::string_view leader_source, const PartitionReplica& follower,
                                 TruncationMode mode,
                                 std::optional<std::int64_t> committed_below_override,
                                 const std::vector<CommittedDoubt>& doubts,
                                 RemovedTailRead tail_read) {
  ReplicaForecast f;
  f.mode = mode;
  f.prediction = predict_truncation(answers, follower.loaded, mode);
  if (f.prediction.unanswered_epoch) {
    // The exchange stopped before its end: where the follower truncates is not known, so
    // nothing it holds below its high watermark is safe.
    f.removed_known = f.lost_counted = f.lost_known = false;
    f.committed_loss_unknown = committed_below_override.value_or(follower.loaded.high_watermark) >
                               follower.loaded.log_start_offset;
    f.unanswered.push_back(f.prediction.note);
    return f;
  }
  count_removed(f, answers, leader_batches, leader_source, follower,
                committed_below_override.value_or(follower.loaded.high_watermark), doubts,
                tail_read);
  // Its log start past its log end: Kafka deletes all of its segments when it loads the log
  // (LogLoader.deleteSegmentsIfLogStartGreaterThanLogEnd), before any fetch; those records,
  // committed or not, go without a truncation to count them.
  if (follower.loaded.log_start_offset > follower.log_end_offset && !follower.segments.empty()) {
    f.committed_loss_unknown = true;
    f.unanswered.push_back(fmt::format(
        "what {} loses when it loads its log: its log start {} is past its log end {}, and Kafka "
        "deletes all of its segments then (LogLoader.deleteSegmentsIfLogStartGreaterThanLogEnd)",
        follower.dir.string(), follower.loaded.log_start_offset, follower.log_end_offset));
  }
  // Committed means below the follower's high watermark. Without one recorded (its log dir's
  // replication-offset-checkpoint missing, unreadable to Kafka or without the partition)
  // the load takes the log start, which would call every lost record uncommitted: unknown,
  // and never safe.
  if (!committed_below_override && !follower.high_watermark &&
      (f.lost_records > 0 || f.lost_unknown_records > 0 || !f.lost_counted) &&
      f.committed_lost_records == 0) {
    f.committed_loss_unknown = true;
    f.unanswered.push_back(
        fmt::format("whether the lost records were committed: {} has no high watermark recorded "
                    "(replication-offset-checkpoint missing, unreadable or without the partition)",
                    follower.dir.string()));
  }
  // Before 0.11 (--mode hw) the append failed otherwise (IllegalArgumentException, "Out of
  // order offsets"), ending the fetcher thread: not predicted there.
  if (mode != TruncationMode::hw)
    judge_first_append(f, answers, leader_batches, leader_source, follower);
  return f;
}

}  // namespace kepoch
