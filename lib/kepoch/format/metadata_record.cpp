#include "kepoch/format/metadata_record.hpp"

#include <fmt/format.h>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/flexible_reader.hpp"

namespace kepoch {
namespace {

constexpr std::uint32_t kFrameVersion = 1;  // AbstractApiMessageSerde.DEFAULT_FRAME_VERSION
constexpr std::uint32_t kMaxShort = 0x7fff;

// The api keys kepoch reads into a typed record (read_body); every other key of the schema
// table is read into a GenericRecord.
bool typed_record(std::uint32_t api_key) {
  switch (api_key) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 7:
    case 8:
    case 9:
    case 12:
    case 17:
    case 20:
    case 24:
    case 28:
      return true;
    default:
      return false;
  }
}

std::uint32_t frame_short(ByteReader& in, std::string_view entity) {
  const std::uint32_t v = in.unsigned_varint(entity);
  if (v > kMaxShort) in.fail(fmt::format("Value for {} was too large.", entity));
  return v;
}

RegisterBrokerRecord read_register_broker(FlexibleReader& f, std::uint32_t version) {
  ByteReader& in = f.in();
  RegisterBrokerRecord r;
  r.broker_id = in.i32("BrokerId");
  if (version >= 2) r.is_migrating_zk_broker = in.u8("IsMigratingZkBroker") != 0;
  r.incarnation_id = f.uuid("IncarnationId");
  r.broker_epoch = in.i64("BrokerEpoch");
  const std::size_t endpoints = f.array_length("EndPoints");
  r.endpoints.reserve(f.reservable(endpoints, 7));  // two empty strings, Port, protocol, tags
  for (std::size_t i = 0; i < endpoints; ++i) {
    auto& e = r.endpoints.emplace_back();
    e.name = f.string("Name");
    e.host = f.string("Host");
    e.port = in.u16("Port");
    e.security_protocol = in.i16("SecurityProtocol");
    f.tagged_fields("BrokerEndpoint");
  }
  const std::size_t features = f.array_length("Features");
  r.features.reserve(f.reservable(features, 6));  // an empty string, two versions, tags
  for (std::size_t i = 0; i < features; ++i) {
    auto& x = r.features.emplace_back();
    x.name = f.string("Name");
    x.min_supported_version = in.i16("MinSupportedVersion");
    x.max_supported_version = in.i16("MaxSupportedVersion");
    f.tagged_fields("BrokerFeature");
  }
  r.rack = f.nullable_string("Rack");
  r.fenced = in.u8("Fenced") != 0;
  if (version >= 1) r.in_controlled_shutdown = in.u8("InControlledShutdown") != 0;
  f.tagged_fields("RegisterBrokerRecord", [&](std::uint32_t tag, FlexibleReader& t) {
    if (tag == 0 && version >= 3) {
      r.log_dirs = t.uuid_array("LogDirs");
    } else if (tag == 1 && version >= 4) {
      r.cordoned_log_dirs = t.nullable_uuid_array("CordonedLogDirs");
    } else {
      return false;
    }
    return true;
  });
  return r;
}

PartitionRecord read_partition(FlexibleReader& f, std::uint32_t version) {
  ByteReader& in = f.in();
  PartitionRecord r;
  r.partition_id = in.i32("PartitionId");
  r.topic_id = f.uuid("TopicId");
  r.replicas = f.int32_array("Replicas");
  r.isr = f.int32_array("Isr");
  r.removing_replicas = f.int32_array("RemovingReplicas");
  r.adding_replicas = f.int32_array("AddingReplicas");
  r.leader = in.i32("Leader");
  r.leader_epoch = in.i32("LeaderEpoch");
  r.partition_epoch = in.i32("PartitionEpoch");
  if (version >= 1) r.directories = f.uuid_array("Directories");
  f.tagged_fields("PartitionRecord", [&](std::uint32_t tag, FlexibleReader& t) {
    switch (tag) {
      case 0:
        r.leader_recovery_state = t.in().i8("LeaderRecoveryState");
        return true;
      case 1:
        if (version < 2) return false;
        r.eligible_leader_replicas = t.nullable_int32_array("EligibleLeaderReplicas");
        return true;
      case 2:
        if (version < 2) return false;
        r.last_known_elr = t.nullable_int32_array("LastKnownElr");
        return true;
      default:
        return false;
    }
  });
  return r;
}

PartitionChangeRecord read_partition_change(FlexibleReader& f, std::uint32_t version) {
  PartitionChangeRecord r;
  r.partition_id = f.in().i32("PartitionId");
  r.topic_id = f.uuid("TopicId");
  f.tagged_fields("PartitionChangeRecord", [&](std::uint32_t tag, FlexibleReader& t) {
    switch (tag) {
      case 0:
        r.isr = t.nullable_int32_array("Isr");
        return true;
      case 1:
        r.leader = t.in().i32("Leader");
        return true;
      case 2:
        r.replicas = t.nullable_int32_array("Replicas");
        return true;
      case 3:
        r.removing_replicas = t.nullable_int32_array("RemovingReplicas");
        return true;
      case 4:
        r.adding_replicas = t.nullable_int32_array("AddingReplicas");
        return true;
      case 5:
        r.leader_recovery_state = t.in().i8("LeaderRecoveryState");
        return true;
      case 6:
        if (version < 2) return false;
        r.eligible_leader_replicas = t.nullable_int32_array("EligibleLeaderReplicas");
        return true;
      case 7:
        if (version < 2) return false;
        r.last_known_elr = t.nullable_int32_array("LastKnownElr");
        return true;
      case 8:
        if (version < 1) return false;
        r.directories = t.nullable_uuid_array("Directories");
        return true;
      default:
        return false;
    }
  });
  return r;
}

BrokerRegistrationChangeRecord read_registration_change(FlexibleReader& f, std::uint32_t version) {
  BrokerRegistrationChangeRecord r;
  r.broker_id = f.in().i32("BrokerId");
  r.broker_epoch = f.in().i64("BrokerEpoch");
  f.tagged_fields("BrokerRegistrationChangeRecord", [&](std::uint32_t tag, FlexibleReader& t) {
    if (tag == 0) {
      r.fenced = t.in().i8("Fenced");
    } else if (tag == 1 && version >= 1) {
      r.in_controlled_shutdown = t.in().i8("InControlledShutdown");
    } else if (tag == 2 && version >= 2) {
      r.log_dirs = t.uuid_array("LogDirs");
    } else if (tag == 3 && version >= 3) {
      r.cordoned_log_dirs = t.nullable_uuid_array("CordonedLogDirs");
    } else {
      return false;
    }
    return true;
  });
  return r;
}

template <typename T>
T read_broker_epoch_pair(ByteReader& in) {
  T r;
  r.id = in.i32("Id");
  r.epoch = in.i64("Epoch");
  return r;
}

MetadataBody read_body(FlexibleReader& f, std::uint32_t api_key, std::uint32_t version) {
  ByteReader& in = f.in();
  switch (api_key) {
    case 0:
      return read_register_broker(f, version);
    case 1: {
      UnregisterBrokerRecord r;
      r.broker_id = in.i32("BrokerId");
      r.broker_epoch = in.i64("BrokerEpoch");
      return r;
    }
    case 2: {
      TopicRecord r;
      r.name = f.string("Name");
      r.topic_id = f.uuid("TopicId");
      return r;
    }
    case 3:
      return read_partition(f, version);
    case 4: {
      ConfigRecord r;
      r.resource_type = in.i8("ResourceType");
      r.resource_name = f.string("ResourceName");
      r.name = f.string("Name");
      r.value = f.nullable_string("Value");
      return r;
    }
    case 5:
      return read_partition_change(f, version);
    case 7:
      return read_broker_epoch_pair<FenceBrokerRecord>(in);
    case 8:
      return read_broker_epoch_pair<UnfenceBrokerRecord>(in);
    case 9:
      return RemoveTopicRecord{f.uuid("TopicId")};
    case 12: {
      FeatureLevelRecord r;
      r.name = f.string("Name");
      r.feature_level = in.i16("FeatureLevel");
      return r;
    }
    case 17:
      return read_registration_change(f, version);
    case 28:
      return ClearElrRecord{f.string("TopicName")};
    default:
      return NoFieldsRecord{};
  }
}

// The records whose own reader ends with the message's tagged section (the others above
// end it here).
bool reads_own_tagged_section(std::uint32_t api_key) {
  return api_key == 0 || api_key == 3 || api_key == 5 || api_key == 17;
}

}  // namespace

std::string metadata_record_type_name(std::uint32_t api_key) {
  if (const RecordSchema* s = metadata_record_schema(api_key)) return std::string(s->type_name);
  return fmt::format("UNKNOWN({})", api_key);
}

MetadataRecord decode_metadata_record(std::span<const std::uint8_t> value, std::uint64_t position) {
  ByteReader in(value, position);
  MetadataRecord r;
  r.frame_version = in.unsigned_varint("frame version");
  if (r.frame_version == 0) {
    in.fail(
        "Could not deserialize metadata record with frame version 0. Note that upgrades from "
        "the preview release of KRaft in 2.8 to newer versions are not supported.");
  }
  if (r.frame_version != kFrameVersion) {
    in.fail(fmt::format(
        "Could not deserialize metadata record due to unknown frame version {}(only frame "
        "version {} is supported)",
        r.frame_version, kFrameVersion));
  }
  r.api_key = frame_short(in, "type");
  r.version = frame_short(in, "version");
  const RecordSchema* schema = metadata_record_schema(r.api_key);
  if (!schema) {
    r.notes.push_back(fmt::format(
        "{}: a record type kepoch does not know (not in Kafka's metadata schemas through 4.4)",
        metadata_record_type_name(r.api_key)));
    return r;
  }
  if (r.version > static_cast<std::uint32_t>(schema->last_version)) {
    r.notes.push_back(fmt::format("version {} of {} is newer than kepoch reads ({}-{})", r.version,
                                  schema->type_name, schema->first_version, schema->last_version));
    return r;
  }
  FlexibleReader f(in, r.notes);
  if (typed_record(r.api_key)) {
    r.body = read_body(f, r.api_key, r.version);
    if (!reads_own_tagged_section(r.api_key)) f.tagged_fields(schema->name);
  } else {
    r.body = GenericRecord{decode_schema_fields(f, *schema, r.version)};
  }
  if (!in.at_end())
    in.fail(fmt::format("Found {} byte(s) of garbage after {}", in.remaining(), r.api_key));
  return r;
}

}  // namespace kepoch
