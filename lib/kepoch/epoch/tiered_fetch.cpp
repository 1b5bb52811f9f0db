#include "kepoch/epoch/tiered_fetch.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace kepoch {
namespace {

// RemoteLogMetadataCache.highestOffsetForEpoch / the epoch's end inside a segment: the next
// epoch's start - 1, else the segment's end.
std::int64_t epoch_end_in(const RemoteSegment& s, std::int32_t epoch) {
  for (const auto& e : s.leader_epochs)
    if (e.epoch > epoch) return e.start_offset - 1;
  return s.end_offset;
}

// LeaderEpochFileCache.epochForOffset over entries in epoch order.
std::optional<std::int32_t> epoch_for_offset(const std::vector<EpochEntry>& entries,
                                             std::int64_t offset) {
  std::optional<std::int32_t> previous;
  for (const auto& e : entries) {
    if (e.start_offset == offset) return e.epoch;
    if (e.start_offset > offset) return previous;
    previous = e.epoch;
  }
  return previous;
}

}  // namespace

bool remote_segment_transition_valid(std::optional<RemoteSegmentState> from,
                                     RemoteSegmentState to) {
  using S = RemoteSegmentState;
  if (!from) return to == S::copy_segment_started;
  if (*from == to) return true;  // retries and failover repeat an event
  switch (*from) {
    case S::copy_segment_started:
      return to == S::copy_segment_finished || to == S::delete_segment_started;
    case S::copy_segment_finished:
      return to == S::delete_segment_started;
    case S::delete_segment_started:
      return to == S::delete_segment_finished;
    case S::delete_segment_finished:
      return false;
  }
  return false;
}

void RemoteLogIndex::add_copy_started(RemoteSegment segment) {
  // checkStateTransition: a segment id seen before is not added again (its state is not
  // null), unless it is still COPY_SEGMENT_STARTED (a self transition: the same record again).
  const auto existing = segments_.find(segment.segment_id);
  if (existing != segments_.end() &&
      existing->second.state != RemoteSegmentState::copy_segment_started)
    return;
  segment.state = RemoteSegmentState::copy_segment_started;
  std::sort(segment.leader_epochs.begin(), segment.leader_epochs.end(),
            [](const EpochEntry& a, const EpochEntry& b) { return a.epoch < b.epoch; });
  // handleSegmentWithCopySegmentStartedState: unreferenced under each of its epochs.
  for (const auto& e : segment.leader_epochs)
    epochs_[e.epoch].unreferenced.insert(segment.segment_id);
  segments_[segment.segment_id] = std::move(segment);
}

void RemoteLogIndex::update(const std::string& segment_id, RemoteSegmentState state) {
  const auto it = segments_.find(segment_id);
  if (it == segments_.end()) return;
  RemoteSegment& s = it->second;
  if (!remote_segment_transition_valid(s.state, state)) return;  // "Dropping the event"
  switch (state) {
    case RemoteSegmentState::copy_segment_finished:
      // RemoteLogLeaderEpochState.handleSegmentWithCopySegmentFinishedState: a later copy of
      // the same epoch from an offset at or below the last one's start, reaching at least the
      // highest offset known for the epoch, moves those entries to the unreferenced ones
      // (duplicates and overlaps after a leader change); then put(start, id), whose old value
      // (a copy of the same epoch from the same offset) is dropped, not kept unreferenced.
      for (const auto& [epoch, start] : s.leader_epochs) {
        EpochState& es = epochs_[epoch];
        const std::int64_t end = epoch_end_in(s, epoch);
        while (!es.offset_to_id.empty() && es.offset_to_id.rbegin()->first >= start &&
               es.highest_log_offset && *es.highest_log_offset <= end) {
          es.unreferenced.insert(es.offset_to_id.rbegin()->second);
          es.offset_to_id.erase(std::prev(es.offset_to_id.end()));
        }
        es.offset_to_id[start] = s.segment_id;
        es.unreferenced.erase(s.segment_id);
        if (!es.highest_log_offset || end > *es.highest_log_offset) es.highest_log_offset = end;
      }
      break;
    case RemoteSegmentState::delete_segment_started:
      // handleSegmentWithDeleteSegmentStartedState: offsetToId.remove(startOffset, id), and
      // unreferenced so that a retry finds it.
      for (const auto& [epoch, start] : s.leader_epochs) {
        EpochState& es = epochs_[epoch];
        auto at = es.offset_to_id.find(start);
        if (at != es.offset_to_id.end() && at->second == s.segment_id) es.offset_to_id.erase(at);
        es.unreferenced.insert(s.segment_id);
      }
      break;
    case RemoteSegmentState::delete_segment_finished:
      for (const auto& [epoch, start] : s.leader_epochs)
        epochs_[epoch].unreferenced.erase(s.segment_id);
      segments_.erase(it);
      return;
    case RemoteSegmentState::copy_segment_started:
      break;
  }
  s.state = state;
}

std::vector<const RemoteSegment*> RemoteLogIndex::segments_of_epoch(std::int32_t epoch) const {
  std::vector<const RemoteSegment*> out;
  const auto es = epochs_.find(epoch);
  if (es == epochs_.end()) return out;
  for (const auto& [start, id] : es->second.offset_to_id)
    if (const auto* s = find(id)) out.push_back(s);
  for (const auto& id : es->second.unreferenced)
    if (const auto* s = find(id)) out.push_back(s);
  std::stable_sort(out.begin(), out.end(), [](const RemoteSegment* a, const RemoteSegment* b) {
    return a->start_offset < b->start_offset;
  });
  return out;
}

std::vector<const RemoteSegment*> RemoteLogIndex::all_segments() const {
  std::vector<const RemoteSegment*> out;
  for (const auto& [id, s] : segments_)
    out.push_back(&s);
  return out;
}

const RemoteSegment* RemoteLogIndex::find(const std::string& segment_id) const {
  const auto it = segments_.find(segment_id);
  return it == segments_.end() ? nullptr : &it->second;
}

const RemoteSegment* RemoteLogIndex::segment_for(std::int32_t epoch, std::int64_t offset) const {
  const auto es = epochs_.find(epoch);
  if (es == epochs_.end()) return nullptr;
  // floorEntry(offset)
  auto it = es->second.offset_to_id.upper_bound(offset);
  if (it == es->second.offset_to_id.begin()) return nullptr;
  --it;
  const auto s = segments_.find(it->second);
  if (s == segments_.end()) return nullptr;
  return offset > epoch_end_in(s->second, epoch) ? nullptr : &s->second;
}

TierAnswers tier_answers_of(const LeaderEpochCache& leader, std::int64_t leader_log_end,
                            std::int64_t local_log_start,
                            std::shared_ptr<const RemoteLogIndex> remote) {
  TierAnswers t;
  t.local_log_start_offset = local_log_start;
  t.local_start_epoch = leader.epoch_for_offset(local_log_start);
  if (t.local_start_epoch && *t.local_start_epoch != 0)
    t.earlier_epoch_end = leader.end_offset_for(*t.local_start_epoch - 1, leader_log_end);
  t.leader_entries = leader.entries();
  t.remote = std::move(remote);
  return t;
}

std::optional<std::vector<EpochEntry>> leader_entries_from_answers(
    const std::map<std::int32_t, EpochEntry>& answers, std::int32_t upto, std::int64_t log_start) {
  std::vector<EpochEntry> out;
  std::int64_t previous_end = log_start;
  for (std::int32_t e = 0; e <= upto; ++e) {
    const auto it = answers.find(e);
    if (it == answers.end()) return std::nullopt;
    const EpochEntry& a = it->second;
    if (a.epoch == e && a.start_offset != kUndefinedEpochOffset &&
        (e == 0 ? a.start_offset > log_start : a.start_offset > previous_end))
      out.push_back({e, previous_end});
    if (a.start_offset != kUndefinedEpochOffset) previous_end = a.start_offset;
  }
  return out;
}

TierRebuild build_remote_log_aux_state(const TierAnswers& tier, std::int64_t leader_log_start,
                                       std::int64_t fetch_offset) {
  TierRebuild r;
  r.refused_offset = fetch_offset;
  r.leader_log_start = leader_log_start;
  r.leader_local_start = tier.local_log_start_offset;
  r.local_start_epoch = tier.local_start_epoch;
  const std::int64_t previous = tier.local_log_start_offset - 1;
  if (!tier.local_start_epoch) {
    // No epoch in the ListOffsets answer (-1): fetchEarlierEpochEndOffset(-1) asks epoch -2,
    // and no segment is found for epoch -1 or what answers it.
    r.outcome = TierOutcome::no_epoch;
    r.note = "the leader's epoch cache has no epoch at its local log start " +
             std::to_string(tier.local_log_start_offset) +
             ": no remote segment is found for it, and the follower retries without end";
    return r;
  }
  // TierStateMachine.buildRemoteLogAuxState's target epoch.
  if (*tier.local_start_epoch == 0) {
    r.target_epoch = 0;
  } else if (tier.earlier_epoch_end.start_offset > previous) {
    r.target_epoch = tier.earlier_epoch_end.epoch;
    r.earlier_epoch_used = true;
  } else {
    r.target_epoch = tier.local_start_epoch;
  }
  if (!tier.remote) {
    r.outcome = TierOutcome::remote_unknown;
    r.note = "the leader's local log starts at " + std::to_string(tier.local_log_start_offset) +
             ": the follower rebuilds from the remote tier the segment holding offset " +
             std::to_string(previous) + " of epoch " + std::to_string(*r.target_epoch) +
             ", which is unknown without __remote_log_metadata; it fetches from that segment's "
             "end + 1 (at least " +
             std::to_string(tier.local_log_start_offset) + ")";
    return r;
  }
  const RemoteSegment* s = tier.remote->segment_for(*r.target_epoch, previous);
  if (!s) {
    r.outcome = TierOutcome::no_remote_segment;
    r.note = "no finished remote segment holds offset " + std::to_string(previous) + " of epoch " +
             std::to_string(*r.target_epoch) +
             ": Kafka's RemoteStorageException (\"Couldn't build the state from remote store\"); "
             "the follower retries until one does";
    return r;
  }
  r.outcome = TierOutcome::rebuilt;
  r.segment = *s;
  r.next_offset = s->end_offset + 1;
  for (const auto& e : tier.leader_entries)
    if (e.start_offset < *r.next_offset) r.rebuilt_cache.push_back(e);
  r.note = "offset " + std::to_string(fetch_offset) +
           " moved to tiered storage: the follower truncates fully, rebuilds its epoch cache "
           "and producer state from remote segment " +
           s->segment_id + " (offsets " + std::to_string(s->start_offset) + "-" +
           std::to_string(s->end_offset) + ") and fetches from " + std::to_string(*r.next_offset);
  return r;
}

namespace {
void add_range(std::vector<std::pair<std::int64_t, std::int64_t>>& ranges, std::int64_t first,
               std::int64_t last) {
  if (!ranges.empty() && ranges.back().second + 1 == first)
    ranges.back().second = last;
  else
    ranges.emplace_back(first, last);
}
}  // namespace

RemoteCoverage remote_lineage_coverage(const std::vector<EpochEntry>& entries,
                                       const RemoteLogIndex& index, std::int64_t from,
                                       std::int64_t until) {
  std::vector<std::pair<std::int64_t, std::int64_t>> spans;  // [first, last + 1)
  for (const RemoteSegment* s : index.all_segments()) {
    if (s->state != RemoteSegmentState::copy_segment_finished) continue;
    for (const auto& [epoch, start] : s->leader_epochs) {
      // The replica's own range of this epoch: [its start, the next entry's start).
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (entries[i].epoch != epoch) continue;
        const std::int64_t end_in_cache =
            i + 1 < entries.size() ? entries[i + 1].start_offset : until;
        const std::int64_t lo = std::max({start, entries[i].start_offset, from});
        const std::int64_t hi = std::min({epoch_end_in(*s, epoch) + 1, end_in_cache, until});
        if (lo < hi) spans.emplace_back(lo, hi);
      }
    }
  }
  std::sort(spans.begin(), spans.end());
  RemoteCoverage out;
  std::int64_t at = from;
  for (const auto& [lo, hi] : spans) {
    if (hi <= at) continue;
    const std::int64_t first = std::max(lo, at);
    if (first > at) add_range(out.not_described, at, first - 1);
    add_range(out.held, first, hi - 1);
    out.held_offsets += static_cast<std::uint64_t>(hi - first);
    at = hi;
  }
  if (at < until) add_range(out.not_described, at, until - 1);
  return out;
}

std::optional<bool> remote_holds(const TierAnswers& tier, std::int64_t offset) {
  if (!tier.remote) return std::nullopt;
  const auto epoch = epoch_for_offset(tier.leader_entries, offset);
  if (!epoch) return false;
  return tier.remote->segment_for(*epoch, offset) != nullptr;
}

}  // namespace kepoch
