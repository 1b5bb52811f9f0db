#pragma once
// Whether a remote (tiered) segment lies within a replica's leader epoch lineage, as Kafka's
// RemoteLogManager.isRemoteSegmentWithinLeaderEpochs decides (with buildFilteredLeaderEpochMap
// applied to both maps first). Kafka asks it when it deletes remote segments by retention
// (RLMExpirationTask: retention by time or size skips a segment outside the lineage, which
// leaks until the log start passes all its epochs: KAFKA-16511) and when it finds the highest
// remote offset; a segment outside the lineage holds records of a branch the log no longer has.
//
// The rule, for a segment with epochs S (epoch -> start offset) and end offset E, a replica
// with leader epochs L and log end offset LEO (both maps filtered: an epoch whose start offset
// equals the next epoch's holds no records and is dropped):
//   1. the segment's last epoch must lie in [first of L, last of L];
//   2. the segment's first epoch at or after L's first epoch must exist;
//   3. for every segment epoch e from that first one on: e is in L; for the first one, when L
//      has an epoch below it, S[e] >= L[e]; for the last one, E <= (next epoch in L's start) - 1;
//      for the others, the next entry after e is the same in L and in S;
//   4. E < LEO.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kepoch/epoch/epoch_entry.hpp"

namespace kepoch {

// buildFilteredLeaderEpochMap: entries sorted by epoch (later entries of a repeated epoch
// win, as the Java map's put), then the epochs whose start offset equals the next's dropped.
std::vector<EpochEntry> filtered_leader_epochs(std::vector<EpochEntry> entries);

struct LineageCheck {
  bool within = false;
  std::string reason;  // why not (Kafka's debug line, reworded); empty when within
};

LineageCheck remote_segment_within_leader_epochs(const std::vector<EpochEntry>& segment_epochs,
                                                 std::int64_t segment_end_offset,
                                                 std::int64_t log_end_offset,
                                                 const std::vector<EpochEntry>& leader_epochs);

}  // namespace kepoch
