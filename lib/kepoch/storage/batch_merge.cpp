// Comparing two replicas' batches side by side; see batch_merge.hpp.
#include "kepoch/storage/batch_merge.hpp"

#include "kepoch/storage/batch_cursor.hpp"

namespace kepoch {

MergeResult merge_batches(const PartitionReplica& mine, const PartitionReplica& theirs,
                          std::int64_t from, std::int64_t end, bool anchored,
                          std::size_t max_listed) {
  MergeResult r;
  BatchCursor a(mine, from, end);
  BatchCursor b(theirs, from, end);
  std::optional<BatchCursor::Batch> y;  // theirs' first batch not below the current one
  std::int64_t previous_mine = INT64_MIN;
  std::int64_t previous_theirs = INT64_MIN;
  bool increasing = true;
  auto advance_theirs = [&] {
    const auto* next = b.next();
    if (!next) {
      y.reset();
      return;
    }
    if (next->base_offset <= previous_theirs) increasing = false;
    previous_theirs = next->base_offset;
    y = *next;
  };
  advance_theirs();
  bool first = true;
  while (const auto* x = a.next()) {
    if (x->base_offset <= previous_mine) return {MergeOutcome::not_increasing, {}, {}};
    previous_mine = x->base_offset;
    while (y && increasing && y->base_offset < x->base_offset)
      advance_theirs();
    if (!increasing) return {MergeOutcome::not_increasing, {}, {}};
    const bool found = y && y->base_offset == x->base_offset;
    const bool same = found && y->last_offset == x->last_offset && y->crc == x->crc;
    if (first && anchored && !same) return {MergeOutcome::anchor_differs, {}, {}};
    first = false;
    if (same) continue;
    if (!r.first_difference) r.first_difference = x->base_offset;
    if (r.differing.size() < max_listed)
      r.differing.push_back(DifferingBatch{x->base_offset, x->last_offset, x->crc,
                                           found ? std::optional(y->crc) : std::nullopt});
  }
  // A lookup by offset sees all of theirs' batches: the ones after the last compared must
  // increase too, or an earlier base offset could hide there.
  while (y && increasing)
    advance_theirs();
  if (!increasing) return {MergeOutcome::not_increasing, {}, {}};
  return r;
}

}  // namespace kepoch
