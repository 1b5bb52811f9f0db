// DescribeClusterRequest / DescribeClusterResponse (api key 60), as Kafka 4.1.1's
// DescribeClusterRequest.json and DescribeClusterResponse.json define them: valid versions
// 0-2, all flexible. Wire layout of the response body (v2):
//   throttle_time_ms int32, error_code int16, error_message nullable string, endpoint_type
//   int8 (v1+), cluster_id string, controller_id int32, brokers [broker_id int32, host
//   string, port int32, rack nullable string, is_fenced bool (v2+)],
//   cluster_authorized_operations int32
// Request: include_cluster_authorized_operations bool, endpoint_type int8 (v1+, 1 =
// brokers, 2 = controllers), include_fenced_brokers bool (v2+).
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestFields[] = {
    {.name = "include_cluster_authorized_operations", .type = kBool, .versions = since(0)},
    {.name = "endpoint_type", .type = kInt8, .versions = since(1), .default_value = "1"},
    {.name = "include_fenced_brokers", .type = kBool, .versions = since(2)},
};

constexpr FieldSchema kBrokerFields[] = {
    {.name = "broker_id", .type = kInt32, .versions = since(0)},
    {.name = "host", .type = kString, .versions = since(0)},
    {.name = "port", .type = kInt32, .versions = since(0)},
    {.name = "rack",
     .type = kString,
     .versions = since(0),
     .nullable_versions = since(0),
     .default_value = "null"},
    {.name = "is_fenced", .type = kBool, .versions = since(2)},
};
constexpr StructSchema kBroker{"DescribeClusterBroker", kBrokerFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(0)},
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "error_message",
     .type = kString,
     .versions = since(0),
     .nullable_versions = since(0),
     .default_value = "null"},
    {.name = "endpoint_type", .type = kInt8, .versions = since(1), .default_value = "1"},
    {.name = "cluster_id", .type = kString, .versions = since(0)},
    {.name = "controller_id", .type = kInt32, .versions = since(0), .default_value = "-1"},
    {.name = "brokers", .type = kArray, .versions = since(0), .fields = &kBroker},
    {.name = "cluster_authorized_operations",
     .type = kInt32,
     .versions = since(0),
     .default_value = "-2147483648"},
};

}  // namespace

constinit const MessageSchema kDescribeClusterRequest{
    ApiKey::kDescribeCluster, MessageKind::kRequest, between(0, 2), since(0),
    StructSchema{"DescribeClusterRequest", kRequestFields}};

constinit const MessageSchema kDescribeClusterResponse{
    ApiKey::kDescribeCluster, MessageKind::kResponse, between(0, 2), since(0),
    StructSchema{"DescribeClusterResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
