#include "kepoch/metadata/compact_history.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>

namespace kepoch {
namespace {

using Bytes = std::vector<std::uint8_t>;

// The causes PartitionReplay tells, in the order it tells them (change_causes: the leader's
// cause, recovered, the ISR's, elr_change, reassignment, directories).
constexpr std::array<std::string_view, 15> kCauseVocabulary = {
    "created",     "restated",         "as_of_snapshot",    "deleted",      "leader_change",
    "leader_lost", "unclean_election", "leader_epoch_bump", "recovered",    "isr_shrink",
    "isr_expand",  "isr_change",       "elr_change",        "reassignment", "directories"};

constexpr std::array<std::string_view, 3> kRecordTypes = {
    "PARTITION_RECORD", "PARTITION_CHANGE_RECORD", "REMOVE_TOPIC_RECORD"};

constexpr std::array<std::string_view, 6> kBrokerEvents = {
    "registered", "unregistered", "fenced", "unfenced", "controlled_shutdown", "as_of_snapshot"};

// Step head bits.
constexpr std::uint32_t kOtherRecord = 3;
constexpr std::uint32_t kSnapshot = 1u << 2;
constexpr std::uint32_t kCausesAsText = 1u << 3;
enum Field : std::uint32_t {
  kPartitionEpoch = 1u << 4,
  kLeader = 1u << 5,
  kLeaderEpoch = 1u << 6,
  kIsr = 1u << 7,
  kLeaderRecoveryState = 1u << 8,
  kReplicas = 1u << 9,
  kAdding = 1u << 10,
  kRemoving = 1u << 11,
  kElr = 1u << 12,
  kLastKnownElr = 1u << 13,
  kDirectories = 1u << 14,
};

// Broker event head bits.
constexpr std::uint32_t kOtherEvent = 7;
constexpr std::uint32_t kEventSnapshot = 1u << 5;

void put_varint(Bytes& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

void put_zigzag(Bytes& out, std::int64_t v) {
  put_varint(out, (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
}

void put_text(Bytes& out, std::string_view s) {
  put_varint(out, s.size());
  out.insert(out.end(), s.begin(), s.end());
}

void put_ids(Bytes& out, const BrokerIds& ids) {
  put_varint(out, ids.size());
  for (const auto id : ids)
    put_zigzag(out, id);
}

// The difference of two values of the same field, as the encoding carries it (wrapping, so
// that any two values round-trip).
std::int64_t minus(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}
std::int64_t plus(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// Our own bytes read back: running past the end is a bug, not bad input.
class Cursor {
 public:
  Cursor(const CompactBlocks::Block& block, std::size_t& at)
      : data_(block.data.get()), size_(block.size), at_(at) {}
  std::uint8_t byte() {
    if (at_ >= size_) throw std::logic_error("compact history: read past the end");
    return data_[at_++];
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const std::uint8_t b = byte();
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  }
  std::int64_t zigzag() {
    const std::uint64_t v = varint();
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  }
  std::string text() {
    const std::size_t n = varint();
    if (n > size_ - at_) throw std::logic_error("compact history: read past the end");
    std::string s(reinterpret_cast<const char*>(data_ + at_), n);
    at_ += n;
    return s;
  }
  BrokerIds ids() {
    BrokerIds out(varint());
    for (auto& id : out)
      id = static_cast<std::int32_t>(zigzag());
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t& at_;
};

// The causes as a vocabulary mask, or nullopt when one is outside it or out of its order.
std::optional<std::uint32_t> cause_mask(const std::vector<std::string>& causes) {
  std::uint32_t mask = 0;
  std::size_t next = 0;  // the causes must come in the vocabulary's order, each once
  for (const auto& c : causes) {
    const auto it = std::find(kCauseVocabulary.begin() + next, kCauseVocabulary.end(), c);
    if (it == kCauseVocabulary.end()) return std::nullopt;
    const auto i = static_cast<std::size_t>(it - kCauseVocabulary.begin());
    mask |= 1u << i;
    next = i + 1;
  }
  return mask;
}

template <typename List>
std::size_t index_of(const List& names, std::string_view name) {
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

void put_snapshot(Bytes& out, const SnapshotId& id) {
  put_zigzag(out, id.end_offset);
  put_zigzag(out, id.epoch);
}

SnapshotId get_snapshot(Cursor& in) {
  SnapshotId id;
  id.end_offset = in.zigzag();
  id.epoch = static_cast<std::int32_t>(in.zigzag());
  return id;
}

// One step's or event's encoding (a buffer for all lists: a list's own would cost its
// capacity once per partition).
Bytes& scratch() {
  thread_local Bytes bytes;
  bytes.clear();
  return bytes;
}

constexpr std::size_t kFirstBlock = 256;
constexpr std::size_t kLargestBlock = std::size_t{64} << 10;

// The block holding the next item of a list, or nullptr at its end.
const CompactBlocks::Block* current(const std::vector<CompactBlocks::Block>& blocks,
                                    std::size_t& block, std::size_t& at) {
  while (block < blocks.size() && at >= blocks[block].size) {
    ++block;
    at = 0;
  }
  return block < blocks.size() ? &blocks[block] : nullptr;
}

// A step as what changed since `last` (updated to it).
void encode(const PartitionStep& step, PartitionStep& last, Bytes& out) {
  const PartitionRegistration& before = last.state;
  const PartitionRegistration& after = step.state;
  std::uint32_t head = 0;
  const std::size_t record = index_of(kRecordTypes, step.record_type);
  head |= record < kRecordTypes.size() ? static_cast<std::uint32_t>(record) : kOtherRecord;
  if (step.at.snapshot) head |= kSnapshot;
  const auto mask = cause_mask(step.causes);
  if (!mask) head |= kCausesAsText;
  if (after.partition_epoch != before.partition_epoch) head |= kPartitionEpoch;
  if (after.leader != before.leader) head |= kLeader;
  if (after.leader_epoch != before.leader_epoch) head |= kLeaderEpoch;
  if (after.isr != before.isr) head |= kIsr;
  if (after.leader_recovery_state != before.leader_recovery_state) head |= kLeaderRecoveryState;
  if (after.replicas != before.replicas) head |= kReplicas;
  if (after.adding_replicas != before.adding_replicas) head |= kAdding;
  if (after.removing_replicas != before.removing_replicas) head |= kRemoving;
  if (after.eligible_leader_replicas != before.eligible_leader_replicas) head |= kElr;
  if (after.last_known_elr != before.last_known_elr) head |= kLastKnownElr;
  if (after.directories != before.directories) head |= kDirectories;

  put_varint(out, head);
  put_zigzag(out, minus(step.at.offset, last.at.offset));
  put_zigzag(out, minus(step.at.timestamp, last.at.timestamp));
  if (step.at.snapshot) put_snapshot(out, *step.at.snapshot);
  if ((head & 3) == kOtherRecord) put_text(out, step.record_type);
  if (mask) {
    put_varint(out, *mask);
  } else {
    put_varint(out, step.causes.size());
    for (const auto& c : step.causes)
      put_text(out, c);
  }
  if (head & kPartitionEpoch) put_zigzag(out, minus(after.partition_epoch, before.partition_epoch));
  if (head & kLeader) put_zigzag(out, minus(after.leader, before.leader));
  if (head & kLeaderEpoch) put_zigzag(out, minus(after.leader_epoch, before.leader_epoch));
  if (head & kIsr) put_ids(out, after.isr);
  if (head & kLeaderRecoveryState)
    put_zigzag(out, minus(after.leader_recovery_state, before.leader_recovery_state));
  if (head & kReplicas) put_ids(out, after.replicas);
  if (head & kAdding) put_ids(out, after.adding_replicas);
  if (head & kRemoving) put_ids(out, after.removing_replicas);
  if (head & kElr) put_ids(out, after.eligible_leader_replicas);
  if (head & kLastKnownElr) put_ids(out, after.last_known_elr);
  if (head & kDirectories) {
    put_varint(out, after.directories.size());
    for (const auto& d : after.directories)
      out.insert(out.end(), d.bytes.begin(), d.bytes.end());
  }

  // The step before, for the next: position and registration (causes are never diffed).
  last.at = step.at;
  last.state = step.state;
}

// The step after `step` (which holds the one before).
void decode(Cursor& in, PartitionStep& step) {
  const auto head = static_cast<std::uint32_t>(in.varint());
  step.at.offset = plus(step.at.offset, in.zigzag());
  step.at.timestamp = plus(step.at.timestamp, in.zigzag());
  step.at.snapshot.reset();
  if (head & kSnapshot) step.at.snapshot = get_snapshot(in);
  if ((head & 3) == kOtherRecord) {
    step.record_type = in.text();
  } else {
    step.record_type = kRecordTypes[head & 3];
  }
  step.causes.clear();
  if (head & kCausesAsText) {
    step.causes.resize(in.varint());
    for (auto& c : step.causes)
      c = in.text();
  } else {
    const auto mask = in.varint();
    for (std::size_t i = 0; i < kCauseVocabulary.size(); ++i)
      if (mask & (std::uint64_t{1} << i)) step.causes.emplace_back(kCauseVocabulary[i]);
  }
  PartitionRegistration& s = step.state;
  if (head & kPartitionEpoch)
    s.partition_epoch = static_cast<std::int32_t>(plus(s.partition_epoch, in.zigzag()));
  if (head & kLeader) s.leader = static_cast<std::int32_t>(plus(s.leader, in.zigzag()));
  if (head & kLeaderEpoch)
    s.leader_epoch = static_cast<std::int32_t>(plus(s.leader_epoch, in.zigzag()));
  if (head & kIsr) s.isr = in.ids();
  if (head & kLeaderRecoveryState)
    s.leader_recovery_state = static_cast<std::int8_t>(plus(s.leader_recovery_state, in.zigzag()));
  if (head & kReplicas) s.replicas = in.ids();
  if (head & kAdding) s.adding_replicas = in.ids();
  if (head & kRemoving) s.removing_replicas = in.ids();
  if (head & kElr) s.eligible_leader_replicas = in.ids();
  if (head & kLastKnownElr) s.last_known_elr = in.ids();
  if (head & kDirectories) {
    s.directories.resize(in.varint());
    for (auto& d : s.directories)
      for (auto& b : d.bytes)
        b = in.byte();
  }
}

// An event as what changed since `last` (updated to it).
void encode(const BrokerEvent& event, BrokerEvent& last, Bytes& out) {
  const std::size_t code = index_of(kBrokerEvents, event.event);
  std::uint32_t head = code < kBrokerEvents.size() ? static_cast<std::uint32_t>(code) : kOtherEvent;
  if (event.fenced) head |= (*event.fenced ? 2u : 1u) << 3;
  if (event.at.snapshot) head |= kEventSnapshot;
  put_varint(out, head);
  put_zigzag(out, minus(event.at.offset, last.at.offset));
  put_zigzag(out, minus(event.at.timestamp, last.at.timestamp));
  put_zigzag(out, event.broker_id);
  put_zigzag(out, minus(event.broker_epoch, last.broker_epoch));
  if (event.at.snapshot) put_snapshot(out, *event.at.snapshot);
  if ((head & 7) == kOtherEvent) put_text(out, event.event);
  last.at = event.at;
  last.broker_epoch = event.broker_epoch;
}

// The event after `event` (which holds the one before).
void decode(Cursor& in, BrokerEvent& event) {
  const auto head = static_cast<std::uint32_t>(in.varint());
  event.at.offset = plus(event.at.offset, in.zigzag());
  event.at.timestamp = plus(event.at.timestamp, in.zigzag());
  event.broker_id = static_cast<std::int32_t>(in.zigzag());
  event.broker_epoch = plus(event.broker_epoch, in.zigzag());
  event.at.snapshot.reset();
  if (head & kEventSnapshot) event.at.snapshot = get_snapshot(in);
  if ((head & 7) == kOtherEvent) {
    event.event = in.text();
  } else {
    event.event = kBrokerEvents[head & 7];
  }
  const auto fenced = (head >> 3) & 3;
  event.fenced = fenced == 0 ? std::nullopt : std::optional<bool>(fenced == 2);
}

}  // namespace

void CompactBlocks::append(const Bytes& bytes, bool keep) {
  if (bytes.size() > room_) {
    last_size_ = std::max(bytes.size(),
                          last_size_ == 0 ? kFirstBlock : std::min(last_size_ * 2, kLargestBlock));
    capacity_ += last_size_;
    room_ = last_size_;
    if (keep) blocks_.push_back({std::make_unique<std::uint8_t[]>(last_size_), 0});
  }
  if (keep) {
    Block& b = blocks_.back();
    std::copy(bytes.begin(), bytes.end(), b.data.get() + b.size);
    b.size += bytes.size();
  }
  room_ -= bytes.size();
  bytes_ += bytes.size();
}

void CompactBlocks::clear() {
  std::vector<Block>().swap(blocks_);
}

template <typename Item>
void CompactList<Item>::append(const Item& item) {
  Bytes& out = scratch();
  encode(item, last_, out);
  blocks_.append(out, !discarded_);
}

template <typename Item>
void CompactList<Item>::discard() {
  discarded_ = true;
  blocks_.clear();
}

template <typename Item>
bool CompactList<Item>::Reader::next(Item& item) {
  const auto* block = current(blocks_, block_, at_);
  if (!block) return false;
  Cursor in(*block, at_);
  decode(in, item);
  return true;
}

template class CompactList<PartitionStep>;
template class CompactList<BrokerEvent>;

}  // namespace kepoch
