// FetchRequest / FetchResponse (api key 1), as Kafka 4.1.1's FetchRequest.json and
// FetchResponse.json define them: valid versions 4-18 (0-3 were removed in Kafka 4.0),
// flexible from 12, topic ids instead of names from 13. Wire layout of the response body:
//   throttle_time_ms int32, error_code int16 (v7+), session_id int32 (v7+), responses
//   [topic string (v4-12) | topic_id uuid (v13+), partitions [partition_index int32,
//   error_code int16, high_watermark int64, last_stable_offset int64, log_start_offset
//   int64 (v5+), tagged (v12+): 0 diverging_epoch (epoch, end_offset), 1 current_leader
//   (leader_id, leader_epoch), 2 snapshot_id (end_offset, epoch); aborted_transactions
//   nullable [producer_id int64, first_offset int64], preferred_read_replica int32 (v11+),
//   records nullable records]], tagged (v16+): 0 node_endpoints [node_id, host, port, rack]
// Request: tagged 0 cluster_id (v12+), replica_id int32 (v4-14; v15+ in the tagged
// replica_state 1: replica_id, replica_epoch), max_wait_ms int32, min_bytes int32,
// max_bytes int32, isolation_level int8, session_id int32 (v7+), session_epoch int32
// (v7+), topics [topic (v4-12) | topic_id (v13+), partitions [partition,
// current_leader_epoch (v9+), fetch_offset int64, last_fetched_epoch int32 (v12+),
// log_start_offset int64 (v5+), partition_max_bytes int32, tagged 0 replica_directory_id
// (v17+), tagged 1 high_watermark (v18+)]], forgotten_topics_data (v7+) [topic | topic_id,
// partitions [int32]], rack_id string (v11+).
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

// ---------------------------------------------------------------------- request
constexpr FieldSchema kReplicaStateFields[] = {
    {.name = "replica_id", .type = kInt32, .versions = since(15), .default_value = "-1"},
    {.name = "replica_epoch", .type = kInt64, .versions = since(15), .default_value = "-1"},
};
constexpr StructSchema kReplicaState{"ReplicaState", kReplicaStateFields};

constexpr FieldSchema kFetchPartitionFields[] = {
    {.name = "partition", .type = kInt32, .versions = since(0)},
    {.name = "current_leader_epoch",
     .type = kInt32,
     .versions = since(9),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "fetch_offset", .type = kInt64, .versions = since(0)},
    {.name = "last_fetched_epoch", .type = kInt32, .versions = since(12), .default_value = "-1"},
    {.name = "log_start_offset",
     .type = kInt64,
     .versions = since(5),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "partition_max_bytes", .type = kInt32, .versions = since(0)},
    {.name = "replica_directory_id",
     .type = kUuid,
     .versions = since(17),
     .tagged_versions = since(17),
     .tag = 0,
     .ignorable = true},
    {.name = "high_watermark",
     .type = kInt64,
     .versions = since(18),
     .tagged_versions = since(18),
     .tag = 1,
     .ignorable = true,
     .default_value = "9223372036854775807"},
};
constexpr StructSchema kFetchPartition{"FetchPartition", kFetchPartitionFields};

constexpr FieldSchema kFetchTopicFields[] = {
    {.name = "topic", .type = kString, .versions = between(0, 12), .ignorable = true},
    {.name = "topic_id", .type = kUuid, .versions = since(13), .ignorable = true},
    {.name = "partitions", .type = kArray, .versions = since(0), .fields = &kFetchPartition},
};
constexpr StructSchema kFetchTopic{"FetchTopic", kFetchTopicFields};

constexpr FieldSchema kForgottenTopicFields[] = {
    {.name = "topic", .type = kString, .versions = between(7, 12), .ignorable = true},
    {.name = "topic_id", .type = kUuid, .versions = since(13), .ignorable = true},
    {.name = "partitions", .type = kArray, .versions = since(7), .element_type = kInt32},
};
constexpr StructSchema kForgottenTopic{"ForgottenTopic", kForgottenTopicFields};

constexpr FieldSchema kRequestFields[] = {
    {.name = "cluster_id",
     .type = kString,
     .versions = since(12),
     .nullable_versions = since(12),
     .tagged_versions = since(12),
     .tag = 0,
     .ignorable = true,
     .default_value = "null"},
    {.name = "replica_id", .type = kInt32, .versions = between(0, 14), .default_value = "-1"},
    {.name = "replica_state",
     .type = kStruct,
     .versions = since(15),
     .tagged_versions = since(15),
     .tag = 1,
     .fields = &kReplicaState},
    {.name = "max_wait_ms", .type = kInt32, .versions = since(0)},
    {.name = "min_bytes", .type = kInt32, .versions = since(0)},
    {.name = "max_bytes",
     .type = kInt32,
     .versions = since(3),
     .ignorable = true,
     .default_value = "0x7fffffff"},
    {.name = "isolation_level",
     .type = kInt8,
     .versions = since(4),
     .ignorable = true,
     .default_value = "0"},
    {.name = "session_id",
     .type = kInt32,
     .versions = since(7),
     .ignorable = true,
     .default_value = "0"},
    {.name = "session_epoch",
     .type = kInt32,
     .versions = since(7),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "topics", .type = kArray, .versions = since(0), .fields = &kFetchTopic},
    {.name = "forgotten_topics_data",
     .type = kArray,
     .versions = since(7),
     .fields = &kForgottenTopic},
    {.name = "rack_id", .type = kString, .versions = since(11), .ignorable = true},
};

// ---------------------------------------------------------------------- response
constexpr FieldSchema kEpochEndOffsetFields[] = {
    {.name = "epoch", .type = kInt32, .versions = since(12), .default_value = "-1"},
    {.name = "end_offset", .type = kInt64, .versions = since(12), .default_value = "-1"},
};
constexpr StructSchema kEpochEndOffset{"EpochEndOffset", kEpochEndOffsetFields};

constexpr FieldSchema kLeaderIdAndEpochFields[] = {
    {.name = "leader_id", .type = kInt32, .versions = since(12), .default_value = "-1"},
    {.name = "leader_epoch", .type = kInt32, .versions = since(12), .default_value = "-1"},
};
constexpr StructSchema kLeaderIdAndEpoch{"LeaderIdAndEpoch", kLeaderIdAndEpochFields};

constexpr FieldSchema kSnapshotIdFields[] = {
    {.name = "end_offset", .type = kInt64, .versions = since(0), .default_value = "-1"},
    {.name = "epoch", .type = kInt32, .versions = since(0), .default_value = "-1"},
};
constexpr StructSchema kSnapshotId{"SnapshotId", kSnapshotIdFields};

constexpr FieldSchema kAbortedTransactionFields[] = {
    {.name = "producer_id", .type = kInt64, .versions = since(4)},
    {.name = "first_offset", .type = kInt64, .versions = since(4)},
};
constexpr StructSchema kAbortedTransaction{"AbortedTransaction", kAbortedTransactionFields};

constexpr FieldSchema kPartitionDataFields[] = {
    {.name = "partition_index", .type = kInt32, .versions = since(0)},
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "high_watermark", .type = kInt64, .versions = since(0)},
    {.name = "last_stable_offset",
     .type = kInt64,
     .versions = since(4),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "log_start_offset",
     .type = kInt64,
     .versions = since(5),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "diverging_epoch",
     .type = kStruct,
     .versions = since(12),
     .tagged_versions = since(12),
     .tag = 0,
     .fields = &kEpochEndOffset},
    {.name = "current_leader",
     .type = kStruct,
     .versions = since(12),
     .tagged_versions = since(12),
     .tag = 1,
     .fields = &kLeaderIdAndEpoch},
    {.name = "snapshot_id",
     .type = kStruct,
     .versions = since(12),
     .tagged_versions = since(12),
     .tag = 2,
     .fields = &kSnapshotId},
    {.name = "aborted_transactions",
     .type = kArray,
     .versions = since(4),
     .nullable_versions = since(4),
     .ignorable = true,
     .fields = &kAbortedTransaction},
    {.name = "preferred_read_replica",
     .type = kInt32,
     .versions = since(11),
     .default_value = "-1"},
    {.name = "records", .type = kRecords, .versions = since(0), .nullable_versions = since(0)},
};
constexpr StructSchema kPartitionData{"PartitionData", kPartitionDataFields};

constexpr FieldSchema kFetchableTopicResponseFields[] = {
    {.name = "topic", .type = kString, .versions = between(0, 12), .ignorable = true},
    {.name = "topic_id", .type = kUuid, .versions = since(13), .ignorable = true},
    {.name = "partitions", .type = kArray, .versions = since(0), .fields = &kPartitionData},
};
constexpr StructSchema kFetchableTopicResponse{"FetchableTopicResponse",
                                               kFetchableTopicResponseFields};

constexpr FieldSchema kNodeEndpointFields[] = {
    {.name = "node_id", .type = kInt32, .versions = since(16)},
    {.name = "host", .type = kString, .versions = since(16)},
    {.name = "port", .type = kInt32, .versions = since(16)},
    {.name = "rack",
     .type = kString,
     .versions = since(16),
     .nullable_versions = since(16),
     .default_value = "null"},
};
constexpr StructSchema kNodeEndpoint{"NodeEndpoint", kNodeEndpointFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(1), .ignorable = true},
    {.name = "error_code", .type = kInt16, .versions = since(7), .ignorable = true},
    {.name = "session_id", .type = kInt32, .versions = since(7), .default_value = "0"},
    {.name = "responses", .type = kArray, .versions = since(0), .fields = &kFetchableTopicResponse},
    {.name = "node_endpoints",
     .type = kArray,
     .versions = since(16),
     .tagged_versions = since(16),
     .tag = 0,
     .fields = &kNodeEndpoint},
};

}  // namespace

constinit const MessageSchema kFetchRequest{ApiKey::kFetch, MessageKind::kRequest, between(4, 18),
                                            since(12),
                                            StructSchema{"FetchRequest", kRequestFields}};

constinit const MessageSchema kFetchResponse{ApiKey::kFetch, MessageKind::kResponse, between(4, 18),
                                             since(12),
                                             StructSchema{"FetchResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
