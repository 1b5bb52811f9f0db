#pragma once
// The in-memory rules of Kafka's LeaderEpochFileCache
// (storage/.../internals/epoch/LeaderEpochFileCache.java), as pure operations on values.
// What Kafka writes to disk and when is not modelled here; callers decide that.
//
// Invariant the operations keep: epochs strictly increasing and start offsets strictly
// increasing in the same order. "Latest" is the entry with the highest epoch.

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

#include "kepoch/epoch/epoch_entry.hpp"

namespace kepoch {

// Thrown where Kafka throws IllegalArgumentException from assign (negative epoch or offset).
class InvalidEpochEntry : public std::invalid_argument {
 public:
  explicit InvalidEpochEntry(const EpochEntry& entry);
  EpochEntry entry;
};

class LeaderEpochCache {
 public:
  LeaderEpochCache() = default;

  // Builds the cache as Kafka's constructor does from checkpoint entries: assign() each in
  // file order, which silently normalises non-monotonic files. Throws InvalidEpochEntry.
  static LeaderEpochCache load(const std::vector<EpochEntry>& file_entries);

  // assign(epoch, startOffset). Returns true when the cache changed (Kafka then rewrites the
  // checkpoint). `removed`, if given, receives the conflicting entries it dropped.
  bool assign(EpochEntry entry, std::vector<EpochEntry>* removed = nullptr);

  // LogSegment.recover's rule for a recovered v2 batch: assign(epoch, base offset) only when
  // the epoch is >= 0 and the cache is empty or the epoch is newer than its latest, so
  // recovery appends epochs and never corrects existing entries. Returns true if assigned.
  bool assign_if_newer(EpochEntry entry);

  // truncateFromEnd(endOffset): drop trailing entries with start offset >= end_offset.
  std::vector<EpochEntry> truncate_from_end(std::int64_t end_offset);
  // truncateFromStart(startOffset): drop leading entries starting at or below start_offset and
  // re-insert the last dropped epoch at start_offset.
  std::vector<EpochEntry> truncate_from_start(std::int64_t start_offset);
  void clear() { epochs_.clear(); }

  // endOffsetFor(requestedEpoch, logEndOffset) -> (epoch, offset), Kafka's five branches.
  EpochEntry end_offset_for(std::int32_t requested_epoch, std::int64_t log_end_offset) const;
  std::optional<std::int32_t> epoch_for_offset(std::int64_t offset) const;

  std::optional<EpochEntry> latest_entry() const;
  std::optional<EpochEntry> earliest_entry() const;
  std::optional<std::int32_t> latest_epoch() const;
  std::optional<std::int32_t> previous_epoch() const;  // below the latest
  std::optional<EpochEntry> previous_entry(std::int32_t epoch) const;
  std::optional<std::int32_t> next_epoch(std::int32_t epoch) const;
  std::optional<EpochEntry> entry_for(std::int32_t epoch) const;

  std::vector<EpochEntry> entries() const;
  // f(EpochEntry) for each entry, in epoch order: entries() without the copy.
  template <typename F>
  void for_each_entry(F&& f) const {
    for (const auto& [epoch, start] : epochs_)
      f(EpochEntry{epoch, start});
  }
  bool empty() const { return epochs_.empty(); }
  std::size_t size() const { return epochs_.size(); }

 private:
  bool is_update_needed(const EpochEntry& entry) const;
  std::map<std::int32_t, std::int64_t> epochs_;
};

// LeaderEpochCache::assign on a cache held as its entries in epoch order, which is all that
// loading a checkpoint needs (the constructor assigns each entry in file order): 16 bytes an
// entry instead of a map node, for files of millions of entries. The same branches as
// assign: it only ever drops entries from the end, and the entry it adds then has the
// highest epoch, so it goes last. Throws InvalidEpochEntry.
void assign_in_order(std::vector<EpochEntry>& entries, EpochEntry entry);

}  // namespace kepoch
