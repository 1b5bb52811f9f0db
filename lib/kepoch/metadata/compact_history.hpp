#pragma once
// A partition's steps and the broker events held in a few bytes each, for `metadata history`
// on a log too long to hold as PartitionSteps (~600 bytes each, mostly the registration's
// lists): each step is kept as what changed since the step before it in the same list, and
// the full step is rebuilt from the one before when it is read back, in order.
//
// A step (CompactSteps), after the one before it (the first: after a default PartitionStep:
// offset and timestamp -1, an empty registration); varints are unsigned LEB128, "z" a zigzag-coded
// signed varint:
//
//   head          varint  bits 0-1  record: 0 PARTITION_RECORD, 1 PARTITION_CHANGE_RECORD,
//                                   2 REMOVE_TOPIC_RECORD, 3 another (its text follows)
//                         bit 2     a snapshot's record (its id follows)
//                         bit 3     causes as text (outside the vocabulary or its order)
//                         bits 4-14 which registration fields changed: partition_epoch,
//                                   leader, leader_epoch, isr, leader_recovery_state,
//                                   replicas, adding, removing, elr, last_known_elr,
//                                   directories
//   offset        z       minus the step before's
//   timestamp     z       minus the step before's
//   snapshot      z z     end offset, epoch                         (bit 2)
//   record        varint length, bytes                              (record 3)
//   causes        varint  a bit per cause of kCauseVocabulary, read back in its order; or
//                         (bit 3) varint count, then varint length + bytes per cause
//   each changed field, in the order of the bits: an integer as z minus its value before;
//                 a broker list as varint count, z per id; directories as varint count,
//                 16 bytes per Uuid
//
// A typical change (leader, epochs, ISR) takes 10-15 bytes. A broker event
// (CompactBrokerEvents), after the event before it (the first: after a default BrokerEvent):
//
//   head          varint  bits 0-2  event: registered, unregistered, fenced, unfenced,
//                                   controlled_shutdown, as_of_snapshot; 7 another (text)
//                         bits 3-4  fenced: 0 none, 1 false, 2 true
//                         bit 5     a snapshot's record (its id follows)
//   offset z, timestamp z (minus the event before's), broker_id z, broker_epoch z (minus the
//   event before's), snapshot z z (bit 5), event varint length + bytes (event 7)
//
// Reading back gives the very steps and events appended (the round trip is tested on every
// fixture's history). The bytes are kept in blocks that are never reallocated (each step
// whole in one block; blocks of 256 bytes doubling up to 64 KiB, so a short list wastes
// little and a long one at most one block): a vector grown by reallocation would hold old
// and new at once, and its freed blocks, of ever-growing sizes, would stay in the process
// when the next pass's lists do not fit in them. The same appends make the same blocks, so
// capacity() is known even of a list counted but not kept (discard()): what holding it
// again costs.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kepoch/metadata/partition_history.hpp"

namespace kepoch {

// The blocks of one list.
class CompactBlocks {
 public:
  // Appends `bytes` (whole in one block), or only counts them when not kept.
  void append(const std::vector<std::uint8_t>& bytes, bool keep);
  std::size_t bytes() const { return bytes_; }
  std::size_t capacity() const { return capacity_; }
  void clear();  // frees the blocks (the counts stay)

  struct Block {
    std::unique_ptr<std::uint8_t[]> data;
    std::size_t size = 0;
  };
  const std::vector<Block>& blocks() const { return blocks_; }

 private:
  std::vector<Block> blocks_;
  std::size_t bytes_ = 0;
  std::size_t capacity_ = 0;   // of every block made, or that would have been
  std::size_t last_size_ = 0;  // the last block's capacity
  std::size_t room_ = 0;       // left in the last block
};

// One list of steps or events (Item: PartitionStep or BrokerEvent, each with its encoding in
// compact_history.cpp).
template <typename Item>
class CompactList {
 public:
  void append(const Item& item);
  // Bytes appended so far (kept or not: see discard()).
  std::size_t bytes() const { return blocks_.bytes(); }
  // Bytes of memory its blocks take (or would take, if discarded).
  std::size_t capacity() const { return blocks_.capacity(); }
  // Frees what is held; later appends are only counted (bytes(), capacity()).
  void discard();
  bool discarded() const { return discarded_; }

  // The items in order (none after discard()).
  class Reader {
   public:
    explicit Reader(const CompactList& list) : blocks_(list.blocks_.blocks()) {}
    // The next item into `item` (which holds the one before: pass the same object each
    // time); false at the end.
    bool next(Item& item);

   private:
    const std::vector<CompactBlocks::Block>& blocks_;
    std::size_t block_ = 0;
    std::size_t at_ = 0;
  };

 private:
  CompactBlocks blocks_;
  Item last_;  // the item before (what its encoding is a difference from)
  bool discarded_ = false;
};

using CompactSteps = CompactList<PartitionStep>;
using CompactBrokerEvents = CompactList<BrokerEvent>;

}  // namespace kepoch
