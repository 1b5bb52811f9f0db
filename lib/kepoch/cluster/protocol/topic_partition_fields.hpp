#pragma once
// The topic and partition fields MetadataResponse and DescribeTopicPartitionsResponse share.
// DescribeTopicPartitionsResponse.json (KIP-966) repeats MetadataResponseTopic's fields and
// MetadataResponsePartition's with the same names and types; its partitions add the ELR
// fields, which describe_topic_partitions.cpp reads itself. The version gates stay in each
// message's schema: a field its version lacks decodes as the schema's default. Internal to
// the typed response views.

#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

// error_code, partition_index, leader_id, leader_epoch, replica_nodes, isr_nodes,
// offline_replicas.
template <class Partition>
Partition shared_partition_fields(const Struct& p) {
  Partition out;
  out.error_code = p.get_int16("error_code");
  out.partition_index = p.get_int32("partition_index");
  out.leader_id = p.get_int32("leader_id");
  out.leader_epoch = p.get_int32("leader_epoch");
  out.replica_nodes = p.get_int32_array("replica_nodes");
  out.isr_nodes = p.get_int32_array("isr_nodes");
  out.offline_replicas = p.get_int32_array("offline_replicas");
  return out;
}

// error_code, name, topic_id, is_internal and the partitions, each read by `partition_from`.
template <class Topic, class PartitionFrom>
Topic topic_from(const Struct& t, PartitionFrom partition_from) {
  Topic out;
  out.error_code = t.get_int16("error_code");
  out.name = t.get_nullable_string("name");
  out.topic_id = t.get_uuid("topic_id");
  out.is_internal = t.get_bool("is_internal");
  for (const auto& p : t.get_array("partitions"))
    out.partitions.push_back(partition_from(p.as_struct()));
  return out;
}

}  // namespace kepoch::cluster::protocol
