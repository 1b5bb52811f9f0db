#pragma once
// Each consumer group's committed offsets, as the group coordinator holds them after loading
// its __consumer_offsets partition (CoordinatorLoaderImpl replaying into
// GroupCoordinatorShard -> OffsetMetadataManager; 3.x GroupMetadataManager.doLoadGroupsAndOffsets
// keeps the same last-wins rule):
//
//   OffsetCommit (type 1; LegacyOffsetCommit 0) with a value, outside a transaction: the
//     group/topic/partition's offset, leader epoch (value v3+; -1 is none) and metadata;
//   the same in a transactional batch (TxnOffsetCommit): pending under the batch's producer
//     id until its marker: COMMIT applies it unless a later-written commit already holds the
//     key (OffsetMetadataManager.replayEndTransactionMarker compares the record offsets),
//     ABORT drops it;
//   a tombstone (no value): the offset deleted (OffsetDelete, expiry, and DeleteGroups, which
//     writes one per offset before the group's own tombstone), pending ones too.
// Group records (GroupMetadata, the KIP-848 records) carry no offsets and are skipped, as is a
// record of a type Kafka does not know (CoordinatorLoaderImpl skips UnknownRecordTypeException);
// any other record that does not decode fails the read, as it fails Kafka's load.
//
// The fold is pure (CommittedOffsetsFold); read_committed_offsets walks a partition dir's live
// segments (storage/partition_dir) read-only through segment_dump's record walk.

#include <compare>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kepoch/format/coordinator_record.hpp"

namespace kepoch {

struct GroupTopicPartition {
  std::string group;
  std::string topic;
  std::int32_t partition = 0;
  auto operator<=>(const GroupTopicPartition&) const = default;
};

struct CommittedOffset {
  std::int64_t offset = 0;
  std::optional<std::int32_t> leader_epoch;  // nullopt: committed without one (-1, or v0-v2)
  std::string metadata;
  std::int64_t commit_timestamp = -1;
  std::int64_t record_offset = 0;  // where in __consumer_offsets it was written
};

class CommittedOffsetsFold {
 public:
  // A decoded data record of __consumer_offsets at `record_offset`; `producer_id` the batch's
  // when it is transactional, nullopt otherwise.
  void apply(const CoordinatorRecord& record, std::int64_t record_offset,
             std::optional<std::int64_t> producer_id);
  // A COMMIT (true) or ABORT marker of `producer_id`.
  void end_transaction(std::int64_t producer_id, bool commit);

  const std::map<GroupTopicPartition, CommittedOffset>& offsets() const { return offsets_; }
  // Transactional commits still waiting for their marker (not applied: the coordinator does
  // not return them to OffsetFetch either).
  std::size_t pending() const;
  // The keys of those commits.
  std::vector<GroupTopicPartition> pending_keys() const;

 private:
  std::map<GroupTopicPartition, CommittedOffset> offsets_;
  std::map<std::int64_t, std::map<GroupTopicPartition, CommittedOffset>> pending_;
};

struct CommittedOffsets {
  std::map<GroupTopicPartition, CommittedOffset> offsets;
  std::vector<std::filesystem::path> partitions;  // the __consumer_offsets dirs read
  std::size_t pending_transactional = 0;
  // Keys with a transactional commit still waiting for its marker: the offset a consumer
  // will fetch depends on that transaction's end, so it is unknown.
  std::set<GroupTopicPartition> pending_keys;
};

// The committed offsets of every __consumer_offsets partition `path` names: one partition dir
// (__consumer_offsets-N) or a log dir (each such partition in it). Throws InputError when a
// dir cannot be read, holds none, or a batch or record Kafka's loader would refuse (corrupt
// batch, undecodable record), naming the file and byte position.
CommittedOffsets read_committed_offsets(const std::filesystem::path& path);

}  // namespace kepoch
