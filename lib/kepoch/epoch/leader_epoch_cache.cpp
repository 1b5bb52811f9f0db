#include "kepoch/epoch/leader_epoch_cache.hpp"

#include <fmt/format.h>

#include <iterator>

namespace kepoch {

InvalidEpochEntry::InvalidEpochEntry(const EpochEntry& e)
    : std::invalid_argument(fmt::format("Received invalid partition leader epoch entry "
                                        "EpochEntry(epoch={}, startOffset={})",
                                        e.epoch, e.start_offset)),
      entry(e) {}

LeaderEpochCache LeaderEpochCache::load(const std::vector<EpochEntry>& file_entries) {
  LeaderEpochCache cache;
  for (const auto& e : file_entries)
    cache.assign(e);
  return cache;
}

bool LeaderEpochCache::is_update_needed(const EpochEntry& entry) const {
  if (epochs_.empty()) return true;
  const auto& [epoch, start] = *epochs_.rbegin();
  return entry.epoch != epoch || entry.start_offset < start;
}

bool LeaderEpochCache::assign(EpochEntry entry, std::vector<EpochEntry>* removed) {
  if (entry.epoch < 0 || entry.start_offset < 0) throw InvalidEpochEntry(entry);
  if (!is_update_needed(entry)) return false;
  // maybeTruncateNonMonotonicEntries: from the highest epoch down, drop entries that would
  // break either ordering; stop at the first that breaks neither.
  while (!epochs_.empty()) {
    auto last = std::prev(epochs_.end());
    if (last->first < entry.epoch && last->second < entry.start_offset) break;
    if (removed) removed->push_back({last->first, last->second});
    epochs_.erase(last);
  }
  epochs_[entry.epoch] = entry.start_offset;
  return true;
}

void assign_in_order(std::vector<EpochEntry>& entries, EpochEntry entry) {
  if (entry.epoch < 0 || entry.start_offset < 0) throw InvalidEpochEntry(entry);
  // is_update_needed
  if (!entries.empty() && entries.back().epoch == entry.epoch &&
      entry.start_offset >= entries.back().start_offset)
    return;
  // maybeTruncateNonMonotonicEntries
  while (!entries.empty() &&
         !(entries.back().epoch < entry.epoch && entries.back().start_offset < entry.start_offset))
    entries.pop_back();
  entries.push_back(entry);
}

std::vector<EpochEntry> LeaderEpochCache::truncate_from_end(std::int64_t end_offset) {
  std::vector<EpochEntry> removed;
  if (end_offset < 0 || epochs_.empty() || epochs_.rbegin()->second < end_offset) return removed;
  while (!epochs_.empty() && std::prev(epochs_.end())->second >= end_offset) {
    auto last = std::prev(epochs_.end());
    removed.push_back({last->first, last->second});
    epochs_.erase(last);
  }
  return removed;
}

std::vector<EpochEntry> LeaderEpochCache::truncate_from_start(std::int64_t start_offset) {
  std::vector<EpochEntry> removed;
  auto it = epochs_.begin();
  for (; it != epochs_.end() && it->second <= start_offset; ++it)
    removed.push_back({it->first, it->second});
  if (removed.empty()) return removed;
  // Kafka removes them all and puts the last epoch back at start_offset: its node is kept.
  const auto last = std::prev(it);
  epochs_.erase(epochs_.begin(), last);
  last->second = start_offset;
  return removed;
}

EpochEntry LeaderEpochCache::end_offset_for(std::int32_t requested_epoch,
                                            std::int64_t log_end_offset) const {
  const EpochEntry undefined{kUndefinedEpoch, kUndefinedEpochOffset};
  // Branch 1: the undefined epoch.
  if (requested_epoch == kUndefinedEpoch) return undefined;
  // Branch 2: the latest epoch ends at the log end offset.
  if (!epochs_.empty() && epochs_.rbegin()->first == requested_epoch) {
    return {requested_epoch, log_end_offset};
  }
  const auto higher = epochs_.upper_bound(requested_epoch);
  // Branch 3: nothing above the requested epoch (includes an empty cache).
  if (higher == epochs_.end()) return undefined;
  // Branch 4: only higher epochs: echo the requested epoch with the first higher start.
  if (higher == epochs_.begin()) return {requested_epoch, higher->second};
  // Branch 5: the greatest epoch <= requested, ending where the next one starts.
  return {std::prev(higher)->first, higher->second};
}

std::optional<std::int32_t> LeaderEpochCache::epoch_for_offset(std::int64_t offset) const {
  std::optional<std::int32_t> previous;
  for (const auto& [epoch, start] : epochs_) {
    if (start == offset) return epoch;
    if (start > offset) return previous;
    previous = epoch;
  }
  return previous;
}

std::optional<EpochEntry> LeaderEpochCache::latest_entry() const {
  if (epochs_.empty()) return std::nullopt;
  return EpochEntry{epochs_.rbegin()->first, epochs_.rbegin()->second};
}

std::optional<EpochEntry> LeaderEpochCache::earliest_entry() const {
  if (epochs_.empty()) return std::nullopt;
  return EpochEntry{epochs_.begin()->first, epochs_.begin()->second};
}

std::optional<std::int32_t> LeaderEpochCache::latest_epoch() const {
  if (epochs_.empty()) return std::nullopt;
  return epochs_.rbegin()->first;
}

std::optional<std::int32_t> LeaderEpochCache::previous_epoch() const {
  if (epochs_.size() < 2) return std::nullopt;
  return std::next(epochs_.rbegin())->first;
}

std::optional<EpochEntry> LeaderEpochCache::previous_entry(std::int32_t epoch) const {
  auto it = epochs_.lower_bound(epoch);
  if (it == epochs_.begin()) return std::nullopt;
  --it;
  return EpochEntry{it->first, it->second};
}

std::optional<std::int32_t> LeaderEpochCache::next_epoch(std::int32_t epoch) const {
  auto it = epochs_.upper_bound(epoch);
  if (it == epochs_.end()) return std::nullopt;
  return it->first;
}

std::optional<EpochEntry> LeaderEpochCache::entry_for(std::int32_t epoch) const {
  auto it = epochs_.find(epoch);
  if (it == epochs_.end()) return std::nullopt;
  return EpochEntry{it->first, it->second};
}

std::vector<EpochEntry> LeaderEpochCache::entries() const {
  std::vector<EpochEntry> out;
  out.reserve(epochs_.size());
  for (const auto& [epoch, start] : epochs_)
    out.push_back({epoch, start});
  return out;
}

bool LeaderEpochCache::assign_if_newer(EpochEntry entry) {
  if (entry.epoch < 0) return false;
  if (const auto latest = latest_epoch(); latest && entry.epoch <= *latest) return false;
  assign(entry);
  return true;
}

}  // namespace kepoch
