#pragma once
// Kafka's error codes: org.apache.kafka.common.protocol.Errors of Kafka 4.1.1, every code
// from -1 to 133, with Kafka's name, whether its exception is a RetriableException, and the
// exception's default message. Written from tests/data/protocol/error-codes.json (which
// tests/protocol/gen-vectors prints from the Errors enum); the unit tests hold the two
// equal, and the oracle test shows when a Kafka version bump changes the enum.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kepoch::cluster::protocol {

struct ErrorCodeInfo {
  std::int16_t code;
  std::string_view name;  // "NOT_LEADER_OR_FOLLOWER"
  bool retriable;
  std::string_view message;  // empty for NONE
};

// Every code Kafka defines, in code order.
std::span<const ErrorCodeInfo> error_codes();
// nullptr for a code Kafka 4.1.1 does not define.
const ErrorCodeInfo* find_error_code(std::int16_t code);
// Kafka's name, or "UNKNOWN_ERROR_CODE(999)".
std::string error_code_name(std::int16_t code);
std::optional<std::int16_t> error_code_from_name(std::string_view name);

// The codes by Kafka's name (NOT_LEADER_OR_FOLLOWER -> errors::kNotLeaderOrFollower).
namespace errors {

inline constexpr std::int16_t kUnknownServerError = -1;
inline constexpr std::int16_t kNone = 0;
inline constexpr std::int16_t kOffsetOutOfRange = 1;
inline constexpr std::int16_t kCorruptMessage = 2;
inline constexpr std::int16_t kUnknownTopicOrPartition = 3;
inline constexpr std::int16_t kInvalidFetchSize = 4;
inline constexpr std::int16_t kLeaderNotAvailable = 5;
inline constexpr std::int16_t kNotLeaderOrFollower = 6;
inline constexpr std::int16_t kRequestTimedOut = 7;
inline constexpr std::int16_t kBrokerNotAvailable = 8;
inline constexpr std::int16_t kReplicaNotAvailable = 9;
inline constexpr std::int16_t kMessageTooLarge = 10;
inline constexpr std::int16_t kStaleControllerEpoch = 11;
inline constexpr std::int16_t kOffsetMetadataTooLarge = 12;
inline constexpr std::int16_t kNetworkException = 13;
inline constexpr std::int16_t kCoordinatorLoadInProgress = 14;
inline constexpr std::int16_t kCoordinatorNotAvailable = 15;
inline constexpr std::int16_t kNotCoordinator = 16;
inline constexpr std::int16_t kInvalidTopicException = 17;
inline constexpr std::int16_t kRecordListTooLarge = 18;
inline constexpr std::int16_t kNotEnoughReplicas = 19;
inline constexpr std::int16_t kNotEnoughReplicasAfterAppend = 20;
inline constexpr std::int16_t kInvalidRequiredAcks = 21;
inline constexpr std::int16_t kIllegalGeneration = 22;
inline constexpr std::int16_t kInconsistentGroupProtocol = 23;
inline constexpr std::int16_t kInvalidGroupId = 24;
inline constexpr std::int16_t kUnknownMemberId = 25;
inline constexpr std::int16_t kInvalidSessionTimeout = 26;
inline constexpr std::int16_t kRebalanceInProgress = 27;
inline constexpr std::int16_t kInvalidCommitOffsetSize = 28;
inline constexpr std::int16_t kTopicAuthorizationFailed = 29;
inline constexpr std::int16_t kGroupAuthorizationFailed = 30;
inline constexpr std::int16_t kClusterAuthorizationFailed = 31;
inline constexpr std::int16_t kInvalidTimestamp = 32;
inline constexpr std::int16_t kUnsupportedSaslMechanism = 33;
inline constexpr std::int16_t kIllegalSaslState = 34;
inline constexpr std::int16_t kUnsupportedVersion = 35;
inline constexpr std::int16_t kTopicAlreadyExists = 36;
inline constexpr std::int16_t kInvalidPartitions = 37;
inline constexpr std::int16_t kInvalidReplicationFactor = 38;
inline constexpr std::int16_t kInvalidReplicaAssignment = 39;
inline constexpr std::int16_t kInvalidConfig = 40;
inline constexpr std::int16_t kNotController = 41;
inline constexpr std::int16_t kInvalidRequest = 42;
inline constexpr std::int16_t kUnsupportedForMessageFormat = 43;
inline constexpr std::int16_t kPolicyViolation = 44;
inline constexpr std::int16_t kOutOfOrderSequenceNumber = 45;
inline constexpr std::int16_t kDuplicateSequenceNumber = 46;
inline constexpr std::int16_t kInvalidProducerEpoch = 47;
inline constexpr std::int16_t kInvalidTxnState = 48;
inline constexpr std::int16_t kInvalidProducerIdMapping = 49;
inline constexpr std::int16_t kInvalidTransactionTimeout = 50;
inline constexpr std::int16_t kConcurrentTransactions = 51;
inline constexpr std::int16_t kTransactionCoordinatorFenced = 52;
inline constexpr std::int16_t kTransactionalIdAuthorizationFailed = 53;
inline constexpr std::int16_t kSecurityDisabled = 54;
inline constexpr std::int16_t kOperationNotAttempted = 55;
inline constexpr std::int16_t kKafkaStorageError = 56;
inline constexpr std::int16_t kLogDirNotFound = 57;
inline constexpr std::int16_t kSaslAuthenticationFailed = 58;
inline constexpr std::int16_t kUnknownProducerId = 59;
inline constexpr std::int16_t kReassignmentInProgress = 60;
inline constexpr std::int16_t kDelegationTokenAuthDisabled = 61;
inline constexpr std::int16_t kDelegationTokenNotFound = 62;
inline constexpr std::int16_t kDelegationTokenOwnerMismatch = 63;
inline constexpr std::int16_t kDelegationTokenRequestNotAllowed = 64;
inline constexpr std::int16_t kDelegationTokenAuthorizationFailed = 65;
inline constexpr std::int16_t kDelegationTokenExpired = 66;
inline constexpr std::int16_t kInvalidPrincipalType = 67;
inline constexpr std::int16_t kNonEmptyGroup = 68;
inline constexpr std::int16_t kGroupIdNotFound = 69;
inline constexpr std::int16_t kFetchSessionIdNotFound = 70;
inline constexpr std::int16_t kInvalidFetchSessionEpoch = 71;
inline constexpr std::int16_t kListenerNotFound = 72;
inline constexpr std::int16_t kTopicDeletionDisabled = 73;
inline constexpr std::int16_t kFencedLeaderEpoch = 74;
inline constexpr std::int16_t kUnknownLeaderEpoch = 75;
inline constexpr std::int16_t kUnsupportedCompressionType = 76;
inline constexpr std::int16_t kStaleBrokerEpoch = 77;
inline constexpr std::int16_t kOffsetNotAvailable = 78;
inline constexpr std::int16_t kMemberIdRequired = 79;
inline constexpr std::int16_t kPreferredLeaderNotAvailable = 80;
inline constexpr std::int16_t kGroupMaxSizeReached = 81;
inline constexpr std::int16_t kFencedInstanceId = 82;
inline constexpr std::int16_t kEligibleLeadersNotAvailable = 83;
inline constexpr std::int16_t kElectionNotNeeded = 84;
inline constexpr std::int16_t kNoReassignmentInProgress = 85;
inline constexpr std::int16_t kGroupSubscribedToTopic = 86;
inline constexpr std::int16_t kInvalidRecord = 87;
inline constexpr std::int16_t kUnstableOffsetCommit = 88;
inline constexpr std::int16_t kThrottlingQuotaExceeded = 89;
inline constexpr std::int16_t kProducerFenced = 90;
inline constexpr std::int16_t kResourceNotFound = 91;
inline constexpr std::int16_t kDuplicateResource = 92;
inline constexpr std::int16_t kUnacceptableCredential = 93;
inline constexpr std::int16_t kInconsistentVoterSet = 94;
inline constexpr std::int16_t kInvalidUpdateVersion = 95;
inline constexpr std::int16_t kFeatureUpdateFailed = 96;
inline constexpr std::int16_t kPrincipalDeserializationFailure = 97;
inline constexpr std::int16_t kSnapshotNotFound = 98;
inline constexpr std::int16_t kPositionOutOfRange = 99;
inline constexpr std::int16_t kUnknownTopicId = 100;
inline constexpr std::int16_t kDuplicateBrokerRegistration = 101;
inline constexpr std::int16_t kBrokerIdNotRegistered = 102;
inline constexpr std::int16_t kInconsistentTopicId = 103;
inline constexpr std::int16_t kInconsistentClusterId = 104;
inline constexpr std::int16_t kTransactionalIdNotFound = 105;
inline constexpr std::int16_t kFetchSessionTopicIdError = 106;
inline constexpr std::int16_t kIneligibleReplica = 107;
inline constexpr std::int16_t kNewLeaderElected = 108;
inline constexpr std::int16_t kOffsetMovedToTieredStorage = 109;
inline constexpr std::int16_t kFencedMemberEpoch = 110;
inline constexpr std::int16_t kUnreleasedInstanceId = 111;
inline constexpr std::int16_t kUnsupportedAssignor = 112;
inline constexpr std::int16_t kStaleMemberEpoch = 113;
inline constexpr std::int16_t kMismatchedEndpointType = 114;
inline constexpr std::int16_t kUnsupportedEndpointType = 115;
inline constexpr std::int16_t kUnknownControllerId = 116;
inline constexpr std::int16_t kUnknownSubscriptionId = 117;
inline constexpr std::int16_t kTelemetryTooLarge = 118;
inline constexpr std::int16_t kInvalidRegistration = 119;
inline constexpr std::int16_t kTransactionAbortable = 120;
inline constexpr std::int16_t kInvalidRecordState = 121;
inline constexpr std::int16_t kShareSessionNotFound = 122;
inline constexpr std::int16_t kInvalidShareSessionEpoch = 123;
inline constexpr std::int16_t kFencedStateEpoch = 124;
inline constexpr std::int16_t kInvalidVoterKey = 125;
inline constexpr std::int16_t kDuplicateVoter = 126;
inline constexpr std::int16_t kVoterNotFound = 127;
inline constexpr std::int16_t kInvalidRegularExpression = 128;
inline constexpr std::int16_t kRebootstrapRequired = 129;
inline constexpr std::int16_t kStreamsInvalidTopology = 130;
inline constexpr std::int16_t kStreamsInvalidTopologyEpoch = 131;
inline constexpr std::int16_t kStreamsTopologyFenced = 132;
inline constexpr std::int16_t kShareSessionLimitReached = 133;

}  // namespace errors

}  // namespace kepoch::cluster::protocol
