#pragma once
// What the leader's remote-log retention does to each remote segment of a tiered partition
// (KIP-405), as Kafka's RemoteLogManager.RLMExpirationTask.cleanupExpiredRemoteLogSegments
// decides it, pass after pass, when retention (time or size) has reached every segment of
// the leader's lineage: which segments go, by which path, and which are never deleted.
//
// One pass, on the leader, over its metadata cache (RemoteLogIndex) and its epoch cache:
//   1. remoteLeaderEpochs: every epoch of every segment the cache lists (listAllRemoteLogSegments).
//   2. For each epoch of the leader's cache (buildFilteredLeaderEpochMap), the segments
//      listRemoteLogSegments(epoch) gives, in offset order, while the pass goes on:
//      - (Kafka 4.0 and later) a DELETE_SEGMENT_STARTED segment is deleted again (a retry);
//      - isSegmentBreachByLogStartOffset: all its epochs <= the cache's first epoch and its
//        end below the log start: deleted ("log-start-offset breach");
//      - else isRemoteSegmentWithinLeaderEpochs (epoch/remote_lineage.hpp): within, it is
//        deleted by retention time or size once they reach it (assumed here: every one), and
//        the log start moves past its end; outside, it is skipped (KAFKA-16511) and the pass
//        goes on. A segment within the lineage that retention has not reached stops the pass.
//   3. The log start moves (UnifiedLog.maybeIncrementLogStartOffset), truncating the leader's
//      epoch cache from the start (LeaderEpochFileCache.truncateFromStart); the segments of
//      step 2 are deleted.
//   4. deleteLogSegmentsDueToLeaderEpochCacheTruncation: for each epoch of step 1 below the
//      cache's earliest epoch now, listRemoteLogSegments(epoch) again; each segment all of
//      whose epochs are below it is deleted ("due to leader-epoch-cache truncation").
// The passes repeat (remote.log.manager.task.interval.ms) until one deletes nothing.
//
// What is left then: a segment listed under one of its epochs that is outside the lineage
// waits for the truncation path, which takes it once the log start passes the start of the
// leader's first epoch above all its epochs (new segments must be uploaded and expire for
// that); a segment listed under none of its epochs is found by no path and leaks for as long
// as the partition lives: RemoteLogLeaderEpochState.handleSegmentWithCopySegmentFinishedState
// drops the id a later copy of the same epoch and start offset replaces (offsetToId.put),
// which happens when a new leader re-uploads a segment of an epoch it shares with the losing
// branch from the same base offset.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/epoch/epoch_entry.hpp"
#include "kepoch/epoch/tiered_fetch.hpp"

namespace kepoch {

enum class RetentionRules {
  kafka_3_9,  // 3.9: no retry of DELETE_SEGMENT_STARTED segments in step 2
  kafka_4,    // 4.0 and later
};

enum class RemoteFate {
  retention,               // within the lineage: deleted by retention time or size
  log_start,               // below the log start: deleted as a log-start-offset breach
  delete_retried,          // its delete had started: deleted again (4.0 and later)
  epoch_cache_truncation,  // outside the lineage: deleted once the epoch cache is truncated
  awaits_truncation,       // outside the lineage: deleted only once the log start passes
                           // `truncation_after` (the truncation path); until then it stays
  leaked,                  // listed under none of its epochs: no path deletes it
  kept,                    // none of the above (it stays; see reason)
};

std::string_view remote_fate_name(RemoteFate fate);
bool remote_fate_deleted(RemoteFate fate);  // retention, log_start, delete_retried, truncation

struct RemoteSegmentFate {
  std::string segment_id;
  RemoteFate fate = RemoteFate::kept;
  int pass = 0;  // the pass that deletes it (1 = the first); 0 when it stays
  std::optional<std::int64_t> truncation_after;  // awaits_truncation: that log start
  std::string reason;
};

struct RetentionForecast {
  std::vector<RemoteSegmentFate> segments;  // every segment the cache held, by start offset
  std::int64_t log_start_after = 0;
  std::vector<EpochEntry> epochs_after;  // the leader's epoch cache after the passes
  int passes = 0;                        // passes that deleted something
};

// The passes on the leader: `leader_epochs` its leader-epoch-checkpoint, `log_start` its log
// start offset (the whole log's), `log_end` its log end offset. Pure.
RetentionForecast forecast_remote_retention(RemoteLogIndex index,
                                            const std::vector<EpochEntry>& leader_epochs,
                                            std::int64_t log_start, std::int64_t log_end,
                                            RetentionRules rules);

}  // namespace kepoch
