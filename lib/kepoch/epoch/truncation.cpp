#include "kepoch/epoch/truncation.hpp"

#include <algorithm>

namespace kepoch {
namespace {

// UnifiedLog.endOffsetForEpoch: the cache's answer, with an offset of -1 meaning "none".
std::optional<EpochEntry> end_offset_for_epoch(const ReplicaLog& log, std::int32_t epoch) {
  const EpochEntry e = log.cache.end_offset_for(epoch, log.log_end_offset);
  if (e.start_offset == kUndefinedEpochOffset) return std::nullopt;
  return e;
}

// fetchOffsetAndTruncate (4.6): the leader cannot place the follower's fetch position.
// The leader's answer for `epoch`; nullopt (and the prediction marked) when the answers
// lack it.
std::optional<EpochEntry> ask(const LeaderAnswers& leader, std::int32_t epoch,
                              TruncationPrediction& p) {
  const auto it = leader.end_offsets.find(epoch);
  if (it == leader.end_offsets.end()) {
    p.unanswered_epoch = epoch;
    p.note = "the leader has not answered for epoch " + std::to_string(epoch);
    return std::nullopt;
  }
  return it->second;
}

void out_of_range(const LeaderAnswers& leader, ReplicaLog& f, TruncationPrediction& p) {
  TruncationRound r;
  r.branch = TruncationBranch::out_of_range;
  if (leader.log_end_offset < f.log_end_offset) {
    truncate_to(f, leader.log_end_offset);
    r.truncate_to = p.fetch_from = leader.log_end_offset;
    p.note =
        "out of range: the leader's log ends below the follower's; truncate to the leader's "
        "log end offset";
  } else if (leader.log_start_offset > f.log_end_offset) {
    f.cache.clear();
    f.log_end_offset = f.log_start_offset = f.high_watermark = leader.log_start_offset;
    r.truncate_to = p.fetch_from = leader.log_start_offset;
    p.truncated_fully = true;
    p.note =
        "out of range: the follower's log ends below the leader's log start; it is emptied "
        "and starts at the leader's log start offset";
  } else {
    r.truncate_to = p.fetch_from = f.log_end_offset;
    p.note = "out of range, then resume at the follower's log end offset";
  }
  p.rounds.push_back(r);
}

void fetch_mode(const LeaderAnswers& leader, TruncationPrediction& p) {
  ReplicaLog& f = p.after;
  if (!f.cache.latest_epoch()) {
    // No epoch known: Truncating state, which truncates to the high watermark.
    TruncationRound r;
    r.branch = TruncationBranch::high_watermark;
    r.truncate_to = f.high_watermark;
    truncate_to(f, f.high_watermark);
    p.rounds.push_back(r);
    p.fetch_from = f.log_end_offset;
    p.note = "the follower knows no leader epoch: truncate to its high watermark";
    // Its fetch carries no last fetched epoch, so the leader checks only the range
    // (Partition.fetchRecords -> LocalLog.read): past its log end or below its log start,
    // OFFSET_OUT_OF_RANGE and fetchOffsetAndTruncate.
    if ((leader.log_end_offset >= 0 && f.log_end_offset > leader.log_end_offset) ||
        f.log_end_offset < leader.log_start_offset)
      out_of_range(leader, f, p);
    return;
  }
  for (;;) {
    const auto latest = f.cache.latest_epoch();
    if (!latest) {
      p.fetch_from = f.log_end_offset;
      p.note = "fetch without a last fetched epoch";
      return;
    }
    const auto answer = ask(leader, *latest, p);
    if (!answer) return;
    const EpochEntry reply = *answer;
    if (reply.start_offset == kUndefinedEpochOffset || reply.epoch == kUndefinedEpoch ||
        f.log_end_offset < leader.log_start_offset) {
      out_of_range(leader, f, p);
      return;
    }
    if (reply.epoch < *latest || reply.start_offset < f.log_end_offset) {
      TruncationRound r = offset_truncation_state(f, reply, f.log_end_offset);
      r.requested_epoch = *latest;
      truncate_to(f, r.truncate_to);
      p.rounds.push_back(r);
      continue;  // the next fetch carries the new last fetched epoch
    }
    TruncationRound r;
    r.requested_epoch = *latest;
    r.leader_reply = reply;
    r.branch = TruncationBranch::no_divergence;
    r.truncate_to = f.log_end_offset;
    p.rounds.push_back(r);
    p.fetch_from = f.log_end_offset;
    p.note = p.rounds.size() > 1 ? "the logs agree below the truncation point; fetch from there"
                                 : "no divergence: fetch from the follower's log end offset";
    return;
  }
}

void ofle_mode(const LeaderAnswers& leader, TruncationPrediction& p) {
  ReplicaLog& f = p.after;
  std::int64_t fetch_offset = f.high_watermark;
  for (;;) {
    const auto latest = f.cache.latest_epoch();
    if (!latest) {
      TruncationRound r;
      r.branch = TruncationBranch::high_watermark;
      r.truncate_to = fetch_offset;
      truncate_to(f, fetch_offset);
      p.rounds.push_back(r);
      p.fetch_from = fetch_offset;
      p.note = "no epoch left in the follower's cache: truncate to the fetch offset";
      return;
    }
    const auto reply = ask(leader, *latest, p);
    if (!reply) return;
    TruncationRound r = offset_truncation_state(f, *reply, fetch_offset);
    r.requested_epoch = *latest;
    truncate_to(f, r.truncate_to);
    fetch_offset = r.truncate_to;
    p.rounds.push_back(r);
    if (r.completed) {
      p.fetch_from = r.truncate_to;
      p.note = "OffsetsForLeaderEpoch rounds completed";
      return;
    }
  }
}

// ReplicaManager.handleOffsetOutOfRangeError: a follower's fetch at an offset in
// [logStartOffset, localLogStartOffset) of a tiered leader is refused with
// OFFSET_MOVED_TO_TIERED_STORAGE, and AbstractFetcherThread.handleOffsetsMovedToTieredStorage
// runs TierStateMachine.start.
void tier_step(const LeaderAnswers& leader, TruncationPrediction& p) {
  const TierAnswers& tier = *leader.tier;
  if (p.fetch_from < leader.log_start_offset || p.fetch_from >= tier.local_log_start_offset) return;
  TierRebuild t = build_remote_log_aux_state(tier, leader.log_start_offset, p.fetch_from);
  TruncationRound r;
  r.branch = TruncationBranch::tiered;
  r.truncate_to = p.fetch_from;
  if (t.outcome == TierOutcome::rebuilt) {
    // Partition.truncateFullyAndStartAt(nextOffset, leader's log start), then the cache
    // assigned the segment's epochs.
    ReplicaLog& f = p.after;
    f.cache.clear();
    for (const auto& e : t.rebuilt_cache)
      f.cache.assign(e);
    f.log_end_offset = f.high_watermark = *t.next_offset;
    f.log_start_offset = leader.log_start_offset;
    r.truncate_to = p.fetch_from = *t.next_offset;
    p.truncated_fully = true;
  } else if (t.outcome == TierOutcome::remote_unknown) {
    // Which segment, and so where the follower starts, is unknown; that it truncates fully
    // once it finds one is not: truncateFullyAndStartAt comes with every segment.
    r.completed = false;
    p.truncated_fully = true;
    r.truncate_to = p.fetch_from = tier.local_log_start_offset;  // at least this
  } else {
    // RemoteStorageException before any truncation: the follower keeps its log and retries.
    r.completed = false;
  }
  p.note = t.note;
  p.rounds.push_back(r);
  p.tier = std::move(t);
}

}  // namespace

void truncate_to(ReplicaLog& f, std::int64_t x) {
  if (x >= f.log_end_offset) {
    f.cache.truncate_from_end(f.log_end_offset);
    return;
  }
  f.cache.truncate_from_end(x);
  f.log_end_offset = x;
  f.high_watermark = std::min(f.high_watermark, x);
  f.log_start_offset = std::min(f.log_start_offset, x);
}

TruncationRound offset_truncation_state(const ReplicaLog& f, EpochEntry reply,
                                        std::int64_t fetch_offset) {
  TruncationRound r;
  r.leader_reply = reply;
  const std::int64_t le = reply.epoch, lo = reply.start_offset;
  if (lo == kUndefinedEpochOffset) {  // A
    r.branch = TruncationBranch::a_leader_offset_undefined;
    r.truncate_to = fetch_offset;
    return r;
  }
  if (le == kUndefinedEpoch) {  // B: old protocol, no epoch in the reply
    r.branch = TruncationBranch::b_leader_epoch_undefined;
    r.truncate_to = std::min(lo, f.log_end_offset);
    return r;
  }
  r.follower_lookup = end_offset_for_epoch(f, reply.epoch);
  if (!r.follower_lookup) {  // C
    r.branch = TruncationBranch::c_follower_lacks_epoch;
    r.truncate_to = std::min(lo, f.log_end_offset);
    return r;
  }
  if (r.follower_lookup->epoch != reply.epoch) {  // D: another round is needed
    r.branch = TruncationBranch::d_follower_older_epoch;
    r.truncate_to = std::min(r.follower_lookup->start_offset, f.log_end_offset);
    r.completed = false;
    return r;
  }
  r.branch = TruncationBranch::e_same_epoch;
  r.truncate_to = std::min({r.follower_lookup->start_offset, lo, f.log_end_offset});
  return r;
}

LeaderAnswers answers_of(const ReplicaLog& leader, const LeaderEpochCache& asked) {
  LeaderAnswers a;
  a.log_end_offset = leader.log_end_offset;
  a.log_start_offset = leader.log_start_offset;
  for (const auto& e : asked.entries())
    a.end_offsets.emplace(e.epoch, leader.cache.end_offset_for(e.epoch, leader.log_end_offset));
  return a;
}

TruncationPrediction predict_truncation(const ReplicaLog& leader, const ReplicaLog& follower,
                                        TruncationMode mode) {
  return predict_truncation(answers_of(leader, follower.cache), follower, mode);
}

TruncationPrediction predict_truncation(const LeaderAnswers& leader, const ReplicaLog& follower,
                                        TruncationMode mode) {
  TruncationPrediction p;
  p.after = follower;
  switch (mode) {
    case TruncationMode::fetch:
      fetch_mode(leader, p);
      if (leader.tier && !p.unanswered_epoch) tier_step(leader, p);
      break;
    case TruncationMode::ofle:
      ofle_mode(leader, p);
      break;
    case TruncationMode::hw: {
      // ReplicaManager.makeFollowers (before 0.11): truncate to the high watermark, then
      // fetch from the log end offset that leaves.
      TruncationRound r;
      r.branch = TruncationBranch::high_watermark;
      r.truncate_to = follower.high_watermark;
      truncate_to(p.after, follower.high_watermark);
      p.rounds.push_back(r);
      p.fetch_from = p.after.log_end_offset;
      p.note = "pre-0.11 rule: truncate to the follower's own high watermark";
      // The leader's Log.read refuses a fetch offset past its log end or below its log
      // start (OFFSET_OUT_OF_RANGE), and ReplicaFetcherThread.handleOffsetOutOfRange
      // (0.10) truncates to the leader's log end, or truncates fully and starts at the
      // leader's log start.
      if (p.after.log_end_offset > leader.log_end_offset ||
          p.after.log_end_offset < leader.log_start_offset)
        out_of_range(leader, p.after, p);
      break;
    }
  }
  p.truncate_to = p.after.log_end_offset;
  return p;
}

void become_leader(ReplicaLog& log, std::int32_t leader_epoch) {
  log.cache.assign({leader_epoch, log.log_end_offset});
}

}  // namespace kepoch
