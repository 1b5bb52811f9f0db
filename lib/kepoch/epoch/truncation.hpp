#pragma once
// Where a follower truncates when it starts fetching from a leader, as Kafka's
// AbstractFetcherThread runs it (shared/spec kafka-formats 4.3-4.7). Pure: both replicas are
// values (epoch cache, log end offset, high watermark, log start offset).
//
// The leader is seen only through its answers (LeaderAnswers): a follower learns nothing
// else from it, so the same engine runs on a leader replica read from disk and on a live
// leader broker asked over the wire.
//
// Modes:
//   fetch  Fetch with LastFetchedEpoch / DivergingEpoch (IBP >= 2.7; every KRaft broker)
//   ofle   OffsetsForLeaderEpoch rounds (0.11.0-IV2 <= IBP < 2.7; KIP-101 / KIP-279)
//   hw     the pre-0.11 rule: truncate to the follower's own high watermark

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/epoch/leader_epoch_cache.hpp"
#include "kepoch/epoch/tiered_fetch.hpp"

namespace kepoch {

struct ReplicaLog {
  LeaderEpochCache cache;
  std::int64_t log_end_offset = 0;
  std::int64_t high_watermark = 0;
  std::int64_t log_start_offset = 0;
};

// What a follower learns from the leader it fetches from: for each epoch it asks about, the
// leader's UnifiedLog.endOffsetForEpoch (the divergence check of a Fetch and an
// OffsetsForLeaderEpoch request run the same lookup), and, when its fetch offset is out of
// range, the leader's log end and log start offsets (fetchOffsetAndTruncate asks them with
// ListOffsets).
struct LeaderAnswers {
  std::map<std::int32_t, EpochEntry> end_offsets;  // epoch asked -> (epoch, end offset)
  std::int64_t log_end_offset = 0;
  std::int64_t log_start_offset = 0;
  // A tiered leader (KIP-405): its local log starts above log_start_offset (the whole log's,
  // remote segments included), and a fetch between the two is refused with
  // OFFSET_MOVED_TO_TIERED_STORAGE (epoch/tiered_fetch.hpp). Unset: not tiered, no new work.
  std::optional<TierAnswers> tier;
};

// The answers a leader replica gives to every epoch of `asked` (the follower's cache: a
// follower only ever asks for one of its own epochs).
LeaderAnswers answers_of(const ReplicaLog& leader, const LeaderEpochCache& asked);

enum class TruncationMode { fetch, ofle, hw };

// Which rule decided a round. Its letter (branch_letter) is what reports print: the branches
// A-E of AbstractFetcherThread.getOffsetTruncationState, H the high-watermark rule, O the
// out-of-range handling, N the fetch that finds no divergence.
enum class TruncationBranch : char {
  none = '-',
  a_leader_offset_undefined = 'A',  // the leader has no end offset for the epoch
  b_leader_epoch_undefined = 'B',   // an old leader: no epoch in its reply
  c_follower_lacks_epoch = 'C',     // the follower has no epoch at or below the leader's
  d_follower_older_epoch = 'D',     // the follower's is an older epoch: another round
  e_same_epoch = 'E',               // both know the epoch: the smaller end offset
  high_watermark = 'H',
  out_of_range = 'O',
  no_divergence = 'N',
  tiered = 'T',  // OFFSET_MOVED_TO_TIERED_STORAGE: TierStateMachine.start
};
constexpr char branch_letter(TruncationBranch b) {
  return static_cast<char>(b);
}
// One of getOffsetTruncationState's branches (A-E), not the HW rule nor a confirming fetch.
constexpr bool is_epoch_branch(TruncationBranch b) {
  return b >= TruncationBranch::a_leader_offset_undefined && b <= TruncationBranch::e_same_epoch;
}

// One exchange with the leader and what the follower made of it.
struct TruncationRound {
  std::int32_t requested_epoch = kUndefinedEpoch;                   // the follower's latest epoch
  EpochEntry leader_reply{kUndefinedEpoch, kUndefinedEpochOffset};  // (epoch, end offset)
  std::optional<EpochEntry> follower_lookup;  // follower's endOffsetFor(leader epoch)
  TruncationBranch branch = TruncationBranch::none;
  std::int64_t truncate_to = 0;
  bool completed = true;
};

struct TruncationPrediction {
  std::vector<TruncationRound> rounds;
  std::int64_t truncate_to = 0;  // the final log end offset after truncation
  bool truncated_fully = false;  // truncateFullyAndStartAt (out of range, low)
  std::int64_t fetch_from = 0;   // where fetching resumes
  ReplicaLog after;              // the follower after truncation
  std::string note;              // why it stopped, in a sentence
  // Set when the answers lacked an epoch the follower asks about: the prediction stopped
  // there (the rounds so far are kept); ask the leader and run again.
  std::optional<std::int32_t> unanswered_epoch;
  // Set when the fetch offset fell in a tiered leader's remote tier (mode fetch): the
  // follower's path through it. truncate_to and fetch_from are then its next offset when
  // rebuilt; otherwise the refused offset (the follower does not get past it).
  std::optional<TierRebuild> tier;
};

// getOffsetTruncationState: the truncation offset for a leader reply (le, lo), and whether
// it is final. `fetch_offset` is the partition's fetch offset (used by branch A).
TruncationRound offset_truncation_state(const ReplicaLog& follower, EpochEntry leader_reply,
                                        std::int64_t fetch_offset);

// UnifiedLog.truncateTo(x) on the follower's values (x >= 0).
void truncate_to(ReplicaLog& follower, std::int64_t x);

// Partition.makeLeader: a replica that becomes leader at `leader_epoch` assigns
// (leader_epoch, its LEO) to its cache (UnifiedLog.maybeAssignEpochStartOffset), so it
// answers OffsetsForLeaderEpoch and divergence checks with that entry.
void become_leader(ReplicaLog& log, std::int32_t leader_epoch);

TruncationPrediction predict_truncation(const LeaderAnswers& leader, const ReplicaLog& follower,
                                        TruncationMode mode);
// The same against a leader replica's values (answers_of(leader, follower.cache)).
TruncationPrediction predict_truncation(const ReplicaLog& leader, const ReplicaLog& follower,
                                        TruncationMode mode);

}  // namespace kepoch
