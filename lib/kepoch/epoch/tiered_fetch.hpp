#pragma once
// A follower whose fetch offset lies in the leader's remote tier (KIP-405): where it starts
// again, as Kafka's TierStateMachine.start / buildRemoteLogAuxState rebuilds it. Pure values.
//
// The leader (ReplicaManager.handleOffsetOutOfRangeError) answers a follower's fetch at an
// offset o with logStartOffset <= o < localLogStartOffset with OFFSET_MOVED_TO_TIERED_STORAGE.
// The follower then (TierStateMachine.start):
//   1. asks the leader's local log start L and its epoch E (ListOffsets EARLIEST_LOCAL,
//      UnifiedLog.fetchOffsetByTimestamp: LeaderEpochFileCache.epochForOffset(L));
//   2. the target epoch for offset L-1: E when E is 0; else the leader's
//      OffsetsForLeaderEpoch answer for E-1 (epoch e', end offset x): e' when x > L-1 (an
//      epoch without records between), E otherwise;
//   3. the remote segment holding (target epoch, L-1) in its own copy of __remote_log_metadata
//      (RemoteLogMetadataCache.remoteLogSegmentMetadata: per epoch the finished segments by the
//      offset the epoch starts at in them, RemoteLogLeaderEpochState; the floor entry, if L-1
//      is not past that epoch's end in the segment); none: RemoteStorageException ("Couldn't
//      build the state from remote store"), and the fetcher retries the same steps;
//   4. nextOffset = that segment's end offset + 1: Partition.truncateFullyAndStartAt(nextOffset,
//      leader's log start): the follower's whole local log goes, its log start becomes the
//      leader's; the epoch cache is assigned the leader-epoch checkpoint uploaded with the
//      segment (RemoteLogManager.copyLogSegment: the uploading leader's cache below the next
//      segment's base offset); the producer snapshot of the segment is restored; fetching
//      resumes at nextOffset.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kepoch/epoch/epoch_entry.hpp"
#include "kepoch/epoch/leader_epoch_cache.hpp"
#include "kepoch/epoch/remote_segment_state.hpp"

namespace kepoch {

// A remote segment as its RemoteLogSegmentMetadataRecord describes it.
struct RemoteSegment {
  std::string segment_id;
  std::int64_t start_offset = 0;
  std::int64_t end_offset = 0;
  std::vector<EpochEntry> leader_epochs;  // epoch -> first offset of it in the segment
  RemoteSegmentState state = RemoteSegmentState::copy_segment_started;
  std::int64_t max_timestamp_ms = -1;
  std::int32_t size_in_bytes = 0;
};

// RemoteLogSegmentState.isValidTransition: an event that breaks it is dropped by the cache.
bool remote_segment_transition_valid(std::optional<RemoteSegmentState> from, RemoteSegmentState to);

// One partition's __remote_log_metadata replayed as RemoteLogMetadataCache replays it, in
// the topic's order: what a broker's own metadata manager answers.
class RemoteLogIndex {
 public:
  // RemoteLogMetadataCache.addCopyInProgressSegment (a RemoteLogSegmentMetadataRecord).
  void add_copy_started(RemoteSegment segment);
  // RemoteLogMetadataCache.updateRemoteLogSegmentMetadata (a ...MetadataUpdateRecord): an
  // update of a segment it does not hold is ignored (Kafka throws
  // RemoteResourceNotFoundException and the consumer task logs it).
  void update(const std::string& segment_id, RemoteSegmentState state);

  // RemoteLogMetadataCache.remoteLogSegmentMetadata(leaderEpoch, offset).
  const RemoteSegment* segment_for(std::int32_t epoch, std::int64_t offset) const;
  std::size_t segment_count() const { return segments_.size(); }

  // RemoteLogMetadataCache.listRemoteLogSegments(leaderEpoch): the epoch's finished segments
  // by offset and its unreferenced ones (copies started, deletes started, and those a later
  // copy displaced), sorted by start offset. A finished segment that a later copy of the same
  // epoch and start offset replaced is in neither (RemoteLogLeaderEpochState's
  // offsetToId.put drops the old id): it is not listed under that epoch any more.
  std::vector<const RemoteSegment*> segments_of_epoch(std::int32_t epoch) const;
  // listAllRemoteLogSegments: every segment not yet DELETE_SEGMENT_FINISHED, by id.
  std::vector<const RemoteSegment*> all_segments() const;
  const RemoteSegment* find(const std::string& segment_id) const;

 private:
  struct EpochState {  // RemoteLogLeaderEpochState
    std::map<std::int64_t, std::string> offset_to_id;
    std::set<std::string> unreferenced;  // unreferencedSegmentIds
    std::optional<std::int64_t> highest_log_offset;
  };
  std::map<std::string, RemoteSegment> segments_;  // idToSegmentMetadata
  std::map<std::int32_t, EpochState> epochs_;      // leaderEpochEntries
};

// What the tier state machine learns from the leader, and the remote metadata it reads.
struct TierAnswers {
  std::int64_t local_log_start_offset = 0;        // ListOffsets EARLIEST_LOCAL
  std::optional<std::int32_t> local_start_epoch;  // its epoch: none without an entry
  // OffsetsForLeaderEpoch(local_start_epoch - 1): the leader's (epoch, end offset).
  EpochEntry earlier_epoch_end{kUndefinedEpoch, kUndefinedEpochOffset};
  // The leader's epoch cache, for the rebuilt cache kepoch derives (Kafka reads the one
  // uploaded with the segment, which __remote_log_metadata does not carry).
  std::vector<EpochEntry> leader_entries;
  // The partition's __remote_log_metadata; null when not given: the path is then unknown.
  std::shared_ptr<const RemoteLogIndex> remote;
};

// The leader's answers for a tiered leader: `leader` is its cache (its log start the whole
// log's), `local_log_start` its first local offset.
TierAnswers tier_answers_of(const LeaderEpochCache& leader, std::int64_t leader_log_end,
                            std::int64_t local_log_start,
                            std::shared_ptr<const RemoteLogIndex> remote);

// A live leader's answers, for a follower that cannot read the leader's files: its epoch cache
// entries up to epoch `upto` rebuilt from its OffsetsForLeaderEpoch answers (`answers`: epoch
// asked -> (epoch, end offset), every epoch 0..upto asked), by LeaderEpochFileCache.endOffsetFor:
// for an epoch e of the cache its own end is the next entry's start and the answer for e-1 ends
// at e's start; an epoch not in the cache is answered with the floor epoch (another number), or,
// below the first entry, with e itself and the first entry's start (so its answer ends where
// e-1's does). So e is an entry iff answer(e) names e and ends past answer(e-1)'s end; its
// start is answer(e-1)'s end, for e = 0 `log_start` (LeaderEpochFileCache.truncateFromStart
// keeps the first entry at the log start). nullopt when an epoch up to `upto` is not answered.
std::optional<std::vector<EpochEntry>> leader_entries_from_answers(
    const std::map<std::int32_t, EpochEntry>& answers, std::int32_t upto, std::int64_t log_start);

enum class TierOutcome {
  rebuilt,            // a segment found: truncate fully, start at its end + 1
  no_remote_segment,  // none holds (target epoch, L-1): Kafka retries without end
  remote_unknown,     // no __remote_log_metadata given
  no_epoch,           // the leader has no epoch for its local log start: no segment is found
};

struct TierRebuild {
  std::int64_t refused_offset = 0;  // the fetch offset the leader answered with the error
  std::int64_t leader_log_start = 0;
  std::int64_t leader_local_start = 0;
  std::optional<std::int32_t> local_start_epoch;
  std::optional<std::int32_t> target_epoch;
  bool earlier_epoch_used = false;  // the target came from the OffsetsForLeaderEpoch answer
  TierOutcome outcome = TierOutcome::remote_unknown;
  std::optional<RemoteSegment> segment;
  std::optional<std::int64_t> next_offset;  // segment end + 1: the fetch resumes here
  // rebuilt: the leader's entries below next_offset (kepoch's derivation: exact where the
  // uploading leader's cache then and the leader's now agree below the segment's end).
  std::vector<EpochEntry> rebuilt_cache;
  std::string note;
};

// Steps 1-4 for a fetch refused at `fetch_offset`.
TierRebuild build_remote_log_aux_state(const TierAnswers& tier, std::int64_t leader_log_start,
                                       std::int64_t fetch_offset);

// Which offsets of [from, until) of a replica's lineage (its epoch cache `entries`) finished
// remote segments hold: every segment listAllRemoteLogSegments gives in COPY_SEGMENT_FINISHED,
// including those the cache no longer lists under an epoch (a later copy of the same epoch
// from the same offset displaced them: the records are still in remote storage), each epoch's
// offsets in it (the next epoch's start - 1, else its end) where the replica's cache gives the
// same epoch (one (epoch, offset) is one record: the leader of an epoch writes each offset
// once). `held`: so held; `not_described`: no finished segment of the lineage holds them.
struct RemoteCoverage {
  std::uint64_t held_offsets = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> held;           // [first, last], merged
  std::vector<std::pair<std::int64_t, std::int64_t>> not_described;  // [first, last], merged
};
RemoteCoverage remote_lineage_coverage(const std::vector<EpochEntry>& entries,
                                       const RemoteLogIndex& index, std::int64_t from,
                                       std::int64_t until);

// Whether remote storage holds offset `offset` of the leader's lineage for a consumer
// (RemoteLogManager.read: the leader's epoch for the offset, then segment_for): nullopt when
// no metadata is given.
std::optional<bool> remote_holds(const TierAnswers& tier, std::int64_t offset);

}  // namespace kepoch
