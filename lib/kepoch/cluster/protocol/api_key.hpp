#pragma once
// Kafka's API keys (org.apache.kafka.common.protocol.ApiKeys of Kafka 4.1.1): the int16
// that opens every request header, with the message names Kafka gives them ("Metadata").
// Every key is listed, so an ApiVersions response can be shown in full; kepoch has
// message schemas for a few of them only (see schema_registry.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kepoch::cluster::protocol {

enum class ApiKey : std::int16_t {
  kProduce = 0,
  kFetch = 1,
  kListOffsets = 2,
  kMetadata = 3,
  kLeaderAndIsr = 4,
  kStopReplica = 5,
  kUpdateMetadata = 6,
  kControlledShutdown = 7,
  kOffsetCommit = 8,
  kOffsetFetch = 9,
  kFindCoordinator = 10,
  kJoinGroup = 11,
  kHeartbeat = 12,
  kLeaveGroup = 13,
  kSyncGroup = 14,
  kDescribeGroups = 15,
  kListGroups = 16,
  kSaslHandshake = 17,
  kApiVersions = 18,
  kCreateTopics = 19,
  kDeleteTopics = 20,
  kDeleteRecords = 21,
  kInitProducerId = 22,
  kOffsetForLeaderEpoch = 23,
  kAddPartitionsToTxn = 24,
  kAddOffsetsToTxn = 25,
  kEndTxn = 26,
  kWriteTxnMarkers = 27,
  kTxnOffsetCommit = 28,
  kDescribeAcls = 29,
  kCreateAcls = 30,
  kDeleteAcls = 31,
  kDescribeConfigs = 32,
  kAlterConfigs = 33,
  kAlterReplicaLogDirs = 34,
  kDescribeLogDirs = 35,
  kSaslAuthenticate = 36,
  kCreatePartitions = 37,
  kCreateDelegationToken = 38,
  kRenewDelegationToken = 39,
  kExpireDelegationToken = 40,
  kDescribeDelegationToken = 41,
  kDeleteGroups = 42,
  kElectLeaders = 43,
  kIncrementalAlterConfigs = 44,
  kAlterPartitionReassignments = 45,
  kListPartitionReassignments = 46,
  kOffsetDelete = 47,
  kDescribeClientQuotas = 48,
  kAlterClientQuotas = 49,
  kDescribeUserScramCredentials = 50,
  kAlterUserScramCredentials = 51,
  kVote = 52,
  kBeginQuorumEpoch = 53,
  kEndQuorumEpoch = 54,
  kDescribeQuorum = 55,
  kAlterPartition = 56,
  kUpdateFeatures = 57,
  kEnvelope = 58,
  kFetchSnapshot = 59,
  kDescribeCluster = 60,
  kDescribeProducers = 61,
  kBrokerRegistration = 62,
  kBrokerHeartbeat = 63,
  kUnregisterBroker = 64,
  kDescribeTransactions = 65,
  kListTransactions = 66,
  kAllocateProducerIds = 67,
  kConsumerGroupHeartbeat = 68,
  kConsumerGroupDescribe = 69,
  kControllerRegistration = 70,
  kGetTelemetrySubscriptions = 71,
  kPushTelemetry = 72,
  kAssignReplicasToDirs = 73,
  kListConfigResources = 74,
  kDescribeTopicPartitions = 75,
  kShareGroupHeartbeat = 76,
  kShareGroupDescribe = 77,
  kShareFetch = 78,
  kShareAcknowledge = 79,
  kAddRaftVoter = 80,
  kRemoveRaftVoter = 81,
  kUpdateRaftVoter = 82,
  kInitializeShareGroupState = 83,
  kReadShareGroupState = 84,
  kWriteShareGroupState = 85,
  kDeleteShareGroupState = 86,
  kReadShareGroupStateSummary = 87,
  kStreamsGroupHeartbeat = 88,
  kStreamsGroupDescribe = 89,
  kDescribeShareGroupOffsets = 90,
  kAlterShareGroupOffsets = 91,
  kDeleteShareGroupOffsets = 92,
};

// Kafka's name of the message ("Metadata"), or nullopt for a number Kafka 4.1.1 does not
// define.
std::optional<std::string_view> api_key_name(std::int16_t code);
std::string_view api_key_name(ApiKey key);

// The key with that name, as api_key_name writes it.
std::optional<ApiKey> api_key_from_name(std::string_view name);

// "Metadata" or, for an unknown number, "ApiKey(97)".
std::string describe_api_key(std::int16_t code);

}  // namespace kepoch::cluster::protocol
