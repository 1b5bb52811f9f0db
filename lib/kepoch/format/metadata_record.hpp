#pragma once
// A record of the KRaft metadata log (the value of each record in a data batch of
// __cluster_metadata-0 or of a snapshot), as Kafka's MetadataRecordSerde
// (AbstractApiMessageSerde) reads it:
//
//   frameVersion uvarint   must be 1 ("Could not deserialize metadata record due to
//                          unknown frame version 0 ..." otherwise)
//   apiKey uvarint         above 32767 rejected; see metadata_record_type_name
//   version uvarint        above 32767 rejected
//   body                   the flexible-version encoding (flexible_reader.hpp) of the
//                          schema metadata/src/main/resources/common/metadata/<Name>.json
//   (nothing after)        "Found N byte(s) of garbage after <apiKey>"
//
// Decoded bodies (fields in schema order; T = tagged, in the closing tagged section):
//   0  RegisterBrokerRecord v0-4   BrokerId int32, IsMigratingZkBroker bool (v2+),
//      IncarnationId uuid, BrokerEpoch int64, EndPoints []{Name string, Host string,
//      Port uint16, SecurityProtocol int16}, Features []{Name string, MinSupportedVersion
//      int16, MaxSupportedVersion int16}, Rack nullable string, Fenced bool,
//      InControlledShutdown bool (v1+); T0 LogDirs []uuid (v3+), T1 CordonedLogDirs
//      nullable []uuid (v4+, default null)
//   1  UnregisterBrokerRecord v0   BrokerId int32, BrokerEpoch int64
//   2  TopicRecord v0              Name string, TopicId uuid
//   3  PartitionRecord v0-2        PartitionId int32, TopicId uuid, Replicas []int32,
//      Isr []int32, RemovingReplicas []int32, AddingReplicas []int32, Leader int32,
//      LeaderEpoch int32, PartitionEpoch int32, Directories []uuid (v1+);
//      T0 LeaderRecoveryState int8 (default 0), T1 EligibleLeaderReplicas nullable []int32
//      (v2+), T2 LastKnownElr nullable []int32 (v2+)
//   4  ConfigRecord v0             ResourceType int8 (2 TOPIC, 4 BROKER: ConfigResource.Type),
//      ResourceName string, Name string, Value nullable string (null: the config deleted)
//   5  PartitionChangeRecord v0-2  PartitionId int32, TopicId uuid; T0 Isr, T1 Leader int32
//      (default -2: unchanged), T2 Replicas, T3 RemovingReplicas, T4 AddingReplicas,
//      T5 LeaderRecoveryState int8 (default -1: unchanged), T6 EligibleLeaderReplicas
//      (v2+), T7 LastKnownElr (v2+), T8 Directories []uuid (v1+); arrays nullable, absent =
//      unchanged
//   7  FenceBrokerRecord v0, 8 UnfenceBrokerRecord v0   Id int32, Epoch int64
//   9  RemoveTopicRecord v0        TopicId uuid
//   12 FeatureLevelRecord v0       Name string, FeatureLevel int16
//   17 BrokerRegistrationChangeRecord v0-3   BrokerId int32, BrokerEpoch int64;
//      T0 Fenced int8 (-1 unfenced, 0 unchanged, 1 fenced), T1 InControlledShutdown int8
//      (v1+), T2 LogDirs []uuid (v2+), T3 CordonedLogDirs nullable []uuid (v3+, null:
//      unchanged)
//   20 NoOpRecord v0, 24 EndTransactionRecord v0   no fields
//   28 ClearElrRecord v0           TopicName string (empty: every topic)
// Every other record type Kafka 3.0 to 4.4 writes (10 DelegationToken, 11 UserScramCredential,
// 14 ClientQuota, 15 ProducerIds, 18 AccessControlEntry, 19 RemoveAccessControlEntry,
// 21 ZkMigrationState, 22 RemoveUserScramCredential, 23 BeginTransaction, 25
// AbortTransaction, 26 RemoveDelegationToken, 27 RegisterController, 29
// UnregisterController) is read field by field from the schema table (metadata_schema.hpp,
// generated from Kafka's schema files) into a GenericRecord. An api key the table does not
// have, or a version above the table's, is named but not decoded (a note, never an error:
// Kafka of a newer release may write it); what is built on the log reports it.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/format/metadata_schema.hpp"

namespace kepoch {

using BrokerIds = std::vector<std::int32_t>;

struct TopicRecord {
  std::string name;
  Uuid topic_id;
};

struct RemoveTopicRecord {
  Uuid topic_id;
};

struct PartitionRecord {
  std::int32_t partition_id = -1;
  Uuid topic_id;
  BrokerIds replicas;
  BrokerIds isr;
  BrokerIds removing_replicas;
  BrokerIds adding_replicas;
  std::int32_t leader = -1;
  std::int8_t leader_recovery_state = 0;  // 0 RECOVERED, 1 RECOVERING
  std::int32_t leader_epoch = -1;
  std::int32_t partition_epoch = -1;
  std::vector<Uuid> directories;  // v1+
  std::optional<BrokerIds> eligible_leader_replicas;
  std::optional<BrokerIds> last_known_elr;
};

// A dynamic config set (or, with no value, deleted) for a topic, a broker (an empty name: the
// cluster-wide default) or another resource.
struct ConfigRecord {
  std::int8_t resource_type = 0;
  std::string resource_name;
  std::string name;
  std::optional<std::string> value;
};

inline constexpr std::int32_t kNoLeaderChange = -2;         // PartitionChangeRecord default
inline constexpr std::int8_t kNoLeaderRecoveryChange = -1;  // PartitionChangeRecord default

struct PartitionChangeRecord {
  std::int32_t partition_id = -1;
  Uuid topic_id;
  std::optional<BrokerIds> isr;
  std::int32_t leader = kNoLeaderChange;
  std::optional<BrokerIds> replicas;
  std::optional<BrokerIds> removing_replicas;
  std::optional<BrokerIds> adding_replicas;
  std::int8_t leader_recovery_state = kNoLeaderRecoveryChange;
  std::optional<BrokerIds> eligible_leader_replicas;
  std::optional<BrokerIds> last_known_elr;
  std::optional<std::vector<Uuid>> directories;
};

struct BrokerEndpoint {
  std::string name;
  std::string host;
  std::uint16_t port = 0;
  std::int16_t security_protocol = 0;
};

struct BrokerFeature {
  std::string name;
  std::int16_t min_supported_version = 0;
  std::int16_t max_supported_version = 0;
};

struct RegisterBrokerRecord {
  std::int32_t broker_id = 0;
  bool is_migrating_zk_broker = false;  // v2+
  Uuid incarnation_id;
  std::int64_t broker_epoch = 0;
  std::vector<BrokerEndpoint> endpoints;
  std::vector<BrokerFeature> features;
  std::optional<std::string> rack;
  bool fenced = true;
  bool in_controlled_shutdown = false;                 // v1+
  std::vector<Uuid> log_dirs;                          // v3+, tagged
  std::optional<std::vector<Uuid>> cordoned_log_dirs;  // v4+, tagged, default null
};

struct UnregisterBrokerRecord {
  std::int32_t broker_id = 0;
  std::int64_t broker_epoch = 0;
};

struct BrokerRegistrationChangeRecord {
  std::int32_t broker_id = 0;
  std::int64_t broker_epoch = 0;
  std::int8_t fenced = 0;  // -1 unfenced, 0 unchanged, 1 fenced
  std::int8_t in_controlled_shutdown = 0;
  std::optional<std::vector<Uuid>> log_dirs;
  std::optional<std::vector<Uuid>> cordoned_log_dirs;  // v3+, null: unchanged
};

struct FenceBrokerRecord {
  std::int32_t id = 0;
  std::int64_t epoch = 0;
};

struct UnfenceBrokerRecord {
  std::int32_t id = 0;
  std::int64_t epoch = 0;
};

struct FeatureLevelRecord {
  std::string name;
  std::int16_t feature_level = 0;
};

struct NoFieldsRecord {};  // NoOpRecord, EndTransactionRecord

// Clears the eligible leader replicas and last known ELR of every partition of the topic
// (an empty name: of every topic), Kafka 4.1+ when ELR is turned off.
struct ClearElrRecord {
  std::string topic_name;
};

// A record type read by the schema table alone (no replay rule of kepoch uses its fields).
struct GenericRecord {
  SchemaValue fields;
};

// std::monostate: an api key or version kepoch does not decode.
using MetadataBody =
    std::variant<std::monostate, RegisterBrokerRecord, UnregisterBrokerRecord, TopicRecord,
                 PartitionRecord, PartitionChangeRecord, FenceBrokerRecord, UnfenceBrokerRecord,
                 RemoveTopicRecord, FeatureLevelRecord, BrokerRegistrationChangeRecord,
                 ConfigRecord, NoFieldsRecord, ClearElrRecord, GenericRecord>;

struct MetadataRecord {
  std::uint32_t frame_version = 1;
  std::uint32_t api_key = 0;
  std::uint32_t version = 0;
  MetadataBody body;
  std::vector<std::string> notes;  // unknown tagged fields, undecoded keys or versions
  bool decoded() const { return !std::holds_alternative<std::monostate>(body); }
};

// Kafka's MetadataRecordType name ("PARTITION_CHANGE_RECORD"), or "UNKNOWN(n)".
std::string metadata_record_type_name(std::uint32_t api_key);

// Decodes one record value. `position` is the file position of value[0] (or of the batch,
// for compressed data). Throws FormatError (with Kafka's message where Kafka has one) on a
// bad frame, a short or lying body, or bytes after the body.
MetadataRecord decode_metadata_record(std::span<const std::uint8_t> value, std::uint64_t position);

}  // namespace kepoch
