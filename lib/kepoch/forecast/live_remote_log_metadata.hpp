#pragma once
// The tiered-storage metadata topic __remote_log_metadata read live (KIP-405): every partition
// consumed from its leader (a consumer's Fetch, from its log start to its high watermark, as
// TopicBasedRemoteLogMetadataManager's consumer task reads it; what is above the high
// watermark no consumer reads) and each record's value decoded by the offline decoder
// (format/remote_log_metadata: RemoteLogMetadataSerde), then replayed in the topic's order into
// each tiered partition's RemoteLogIndex (storage/tiered_view's add_remote_log_metadata, the
// replay offline `predict --remote-log-metadata` runs over the same records).
//
// Unknown, never empty: when the topic is missing, cannot be described or fetched (no ACL), or
// a partition has no leader or stops short, `complete` is false and `unknown_reason` says why;
// a caller then has no metadata (an index found in a partial read may lack segments).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kepoch/format/remote_log_metadata.hpp"
#include "kepoch/storage/tiered_view.hpp"

namespace kepoch::cluster {
class ClusterClient;
}

namespace kepoch::forecast {

struct LiveRemoteLogMetadataRecord {
  std::int32_t partition = 0;  // of __remote_log_metadata
  std::int64_t offset = 0;
  std::optional<RemoteLogMetadataRecord> record;
  std::string error;  // the decoder's message (Kafka's), "at byte N of the value: ..."
};

struct LiveRemoteLogMetadata {
  bool complete = true;
  std::string unknown_reason;  // when not complete
  std::vector<std::int32_t> partitions_read;
  std::vector<LiveRemoteLogMetadataRecord> records;  // with keep_records, by partition, offset
  std::uint64_t record_count = 0;
  std::uint64_t errors = 0;
  RemoteLogIndexes indexes;  // metadata_partitions holds "__remote_log_metadata-N (live)"
  std::vector<std::string> warnings;
};

// One whole batch entry of partition `partition` as a Fetch returned it (the log's bytes):
// each record decoded and replayed into `out.indexes` (with keep_records, kept in
// `out.records`); a record that does not decode is counted in `errors` and a problem; a batch
// whose records do not read makes `out` incomplete. Pure: what read_live_remote_log_metadata
// does with every entry it fetches.
void add_fetched_entry(LiveRemoteLogMetadata& out, std::int32_t partition,
                       std::span<const std::uint8_t> entry, bool keep_records);

// Reads the topic (a new Metadata request for it alone). `partitions`: only these of its
// partitions (none: all). Never throws ClusterError: a failure is the unknown_reason.
LiveRemoteLogMetadata read_live_remote_log_metadata(
    cluster::ClusterClient& client, bool keep_records,
    const std::vector<std::int32_t>& partitions = {});

}  // namespace kepoch::forecast
