#include "kepoch/epoch/remote_retention.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "kepoch/epoch/leader_epoch_cache.hpp"
#include "kepoch/epoch/remote_lineage.hpp"

namespace kepoch {
namespace {

std::int32_t max_epoch(const RemoteSegment& s) {
  std::int32_t m = s.leader_epochs.empty() ? -1 : s.leader_epochs.front().epoch;
  for (const auto& e : s.leader_epochs)
    m = std::max(m, e.epoch);
  return m;
}

std::string epochs_text(const RemoteSegment& s) {
  std::string out;
  for (const auto& e : s.leader_epochs)
    out += fmt::format("{}{}", out.empty() ? "" : ", ", e.epoch);
  return "[" + out + "]";
}

bool listed(const RemoteLogIndex& index, const RemoteSegment& s) {
  for (const auto& e : s.leader_epochs)
    for (const auto* l : index.segments_of_epoch(e.epoch))
      if (l->segment_id == s.segment_id) return true;
  return false;
}

void remove(RemoteLogIndex& index, const std::string& id) {
  // deleteRemoteLogSegment: DELETE_SEGMENT_STARTED, the files, DELETE_SEGMENT_FINISHED (the
  // metadata manager waits until its own cache has consumed each event).
  index.update(id, RemoteSegmentState::delete_segment_started);
  index.update(id, RemoteSegmentState::delete_segment_finished);
}

}  // namespace

std::string_view remote_fate_name(RemoteFate fate) {
  switch (fate) {
    case RemoteFate::retention:
      return "retention";
    case RemoteFate::log_start:
      return "log_start";
    case RemoteFate::delete_retried:
      return "delete_retried";
    case RemoteFate::epoch_cache_truncation:
      return "epoch_cache_truncation";
    case RemoteFate::awaits_truncation:
      return "awaits_truncation";
    case RemoteFate::leaked:
      return "leaked";
    case RemoteFate::kept:
      return "kept";
  }
  return "kept";
}

bool remote_fate_deleted(RemoteFate fate) {
  return fate == RemoteFate::retention || fate == RemoteFate::log_start ||
         fate == RemoteFate::delete_retried || fate == RemoteFate::epoch_cache_truncation;
}

RetentionForecast forecast_remote_retention(RemoteLogIndex index,
                                            const std::vector<EpochEntry>& leader_epochs,
                                            std::int64_t log_start, std::int64_t log_end,
                                            RetentionRules rules) {
  RetentionForecast out;
  LeaderEpochCache cache = LeaderEpochCache::load(leader_epochs);
  std::map<std::string, RemoteSegmentFate> fates;
  std::vector<RemoteSegment> all;  // as first held, for the order of the answer
  for (const auto* s : index.all_segments())
    all.push_back(*s);
  std::sort(all.begin(), all.end(), [](const RemoteSegment& a, const RemoteSegment& b) {
    return std::tie(a.start_offset, a.end_offset, a.segment_id) <
           std::tie(b.start_offset, b.end_offset, b.segment_id);
  });

  // Each pass deletes at least one segment or is the last.
  for (int pass = 1; pass <= static_cast<int>(all.size()) + 1; ++pass) {
    const auto held = index.all_segments();
    if (held.empty()) break;
    std::set<std::int32_t> remote_epochs;  // step 1
    for (const auto* s : held)
      for (const auto& e : s->leader_epochs)
        remote_epochs.insert(e.epoch);
    const std::vector<EpochEntry> lineage = filtered_leader_epochs(cache.entries());
    // Step 2.
    std::vector<std::pair<std::string, RemoteSegmentFate>> to_delete;
    auto queued = [&](const std::string& id) {
      return std::any_of(to_delete.begin(), to_delete.end(),
                         [&](const auto& d) { return d.first == id; });
    };
    std::optional<std::int64_t> new_log_start;
    bool can_process = true;
    for (const auto& le : lineage) {
      if (!can_process) break;
      for (const auto* s : index.segments_of_epoch(le.epoch)) {
        if (!can_process) break;
        if (rules == RetentionRules::kafka_4 &&
            s->state == RemoteSegmentState::delete_segment_started) {
          if (!queued(s->segment_id))
            to_delete.push_back(
                {s->segment_id,
                 {s->segment_id, RemoteFate::delete_retried, pass, std::nullopt,
                  "its delete had started (DELETE_SEGMENT_STARTED): the expiration task "
                  "deletes it again"}});
          continue;
        }
        if (queued(s->segment_id)) continue;
        // isSegmentBreachByLogStartOffset
        bool all_at_or_below_first = true;
        for (const auto& e : s->leader_epochs)
          all_at_or_below_first = all_at_or_below_first && e.epoch <= lineage.front().epoch;
        if (all_at_or_below_first && s->end_offset < log_start) {
          to_delete.push_back(
              {s->segment_id,
               {s->segment_id, RemoteFate::log_start, pass, std::nullopt,
                fmt::format("its end {} is below the log start {} and its epochs {} are at or "
                            "below the leader's first epoch {}: deleted as a log-start-offset "
                            "breach",
                            s->end_offset, log_start, epochs_text(*s), lineage.front().epoch)}});
          continue;
        }
        const auto check =
            remote_segment_within_leader_epochs(s->leader_epochs, s->end_offset, log_end, lineage);
        if (check.within) {  // retention time or size reaches it
          to_delete.push_back({s->segment_id,
                               {s->segment_id, RemoteFate::retention, pass, std::nullopt,
                                "within the leader's epoch lineage: deleted by retention time "
                                "or size when they reach it"}});
          new_log_start = std::max(new_log_start.value_or(s->end_offset + 1), s->end_offset + 1);
        }
        // Outside the lineage: skipped, and the pass goes on.
      }
    }
    // Step 3.
    if (new_log_start && *new_log_start > log_start) {
      log_start = *new_log_start;
      cache.truncate_from_start(log_start);
    }
    for (auto& [id, fate] : to_delete) {
      remove(index, id);
      fates.emplace(id, std::move(fate));
    }
    // Step 4.
    std::size_t truncated = 0;
    if (const auto earliest = cache.earliest_entry()) {
      std::vector<RemoteSegment> listed_now;
      for (const std::int32_t e : remote_epochs) {
        if (e >= earliest->epoch) continue;
        for (const auto* s : index.segments_of_epoch(e))
          listed_now.push_back(*s);
      }
      for (const auto& s : listed_now) {
        if (fates.count(s.segment_id) || max_epoch(s) >= earliest->epoch) continue;
        remove(index, s.segment_id);
        ++truncated;
        fates.emplace(
            s.segment_id,
            RemoteSegmentFate{
                s.segment_id, RemoteFate::epoch_cache_truncation, pass, std::nullopt,
                fmt::format("outside the leader's epoch lineage; its epochs {} are all below the "
                            "leader's earliest epoch {} (from offset {}) once the log start "
                            "reaches {}: deleted due to leader-epoch-cache truncation",
                            epochs_text(s), earliest->epoch, earliest->start_offset, log_start)});
      }
    }
    if (to_delete.empty() && truncated == 0) break;
    out.passes = pass;
  }

  // What stays.
  const std::vector<EpochEntry> lineage = filtered_leader_epochs(cache.entries());
  for (const auto& s : all) {
    const auto it = fates.find(s.segment_id);
    if (it != fates.end()) {
      out.segments.push_back(it->second);
      continue;
    }
    RemoteSegmentFate f{s.segment_id, RemoteFate::kept, 0, std::nullopt, ""};
    const auto check =
        remote_segment_within_leader_epochs(s.leader_epochs, s.end_offset, log_end, lineage);
    if (!listed(index, s)) {
      f.fate = RemoteFate::leaked;
      f.reason = fmt::format(
          "Kafka's metadata cache lists it under none of its epochs {} (a later copy of the same "
          "epoch from the same start offset replaced it: "
          "RemoteLogLeaderEpochState.handleSegmentWithCopySegmentFinishedState), so neither "
          "retention nor the leader-epoch-cache truncation finds it: it stays in remote storage "
          "while the partition lives",
          epochs_text(s));
    } else if (check.within) {
      f.reason = "within the leader's epoch lineage; retention has not reached it";
    } else {
      f.fate = RemoteFate::awaits_truncation;
      std::optional<EpochEntry> above;
      for (const auto& e : cache.entries())
        if (e.epoch > max_epoch(s)) {
          above = e;
          break;
        }
      if (above) f.truncation_after = above->start_offset;
      f.reason = above ? fmt::format(
                             "outside the leader's epoch lineage ({}); retention skips it, and "
                             "the leader-epoch-cache truncation deletes it only once the log "
                             "start reaches {} (epoch {}'s start), after newer segments are "
                             "uploaded and expire",
                             check.reason, above->start_offset, above->epoch)
                       : fmt::format(
                             "outside the leader's epoch lineage ({}); retention skips it, and "
                             "the leader-epoch-cache truncation deletes it only once the "
                             "leader's earliest epoch is above {}",
                             check.reason, max_epoch(s));
    }
    out.segments.push_back(std::move(f));
  }
  out.log_start_after = log_start;
  out.epochs_after = cache.entries();
  return out;
}

}  // namespace kepoch
