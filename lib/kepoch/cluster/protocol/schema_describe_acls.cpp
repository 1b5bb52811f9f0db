// DescribeAclsRequest / DescribeAclsResponse (api key 29), as Kafka 4.1.1's
// DescribeAclsRequest.json and DescribeAclsResponse.json define them: valid versions 1-3
// (v0 was removed in 4.0), flexible from v2. Wire layout of the request body:
//   resource_type_filter int8, resource_name_filter nullable string, pattern_type_filter
//   int8, principal_filter nullable string, host_filter nullable string, operation int8,
//   permission_type int8
// Response: throttle_time_ms int32, error_code int16, error_message nullable string,
//   resources [resource_type int8, resource_name string, pattern_type int8, acls [principal
//   string, host string, operation int8, permission_type int8]]
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestFields[] = {
    {.name = "resource_type_filter", .type = kInt8, .versions = since(0)},
    {.name = "resource_name_filter",
     .type = kString,
     .versions = since(0),
     .nullable_versions = since(0)},
    {.name = "pattern_type_filter", .type = kInt8, .versions = since(1), .default_value = "3"},
    {.name = "principal_filter",
     .type = kString,
     .versions = since(0),
     .nullable_versions = since(0)},
    {.name = "host_filter", .type = kString, .versions = since(0), .nullable_versions = since(0)},
    {.name = "operation", .type = kInt8, .versions = since(0)},
    {.name = "permission_type", .type = kInt8, .versions = since(0)},
};

constexpr FieldSchema kAclFields[] = {
    {.name = "principal", .type = kString, .versions = since(0)},
    {.name = "host", .type = kString, .versions = since(0)},
    {.name = "operation", .type = kInt8, .versions = since(0)},
    {.name = "permission_type", .type = kInt8, .versions = since(0)},
};
constexpr StructSchema kAcl{"AclDescription", kAclFields};

constexpr FieldSchema kResourceFields[] = {
    {.name = "resource_type", .type = kInt8, .versions = since(0)},
    {.name = "resource_name", .type = kString, .versions = since(0)},
    {.name = "pattern_type", .type = kInt8, .versions = since(1), .default_value = "3"},
    {.name = "acls", .type = kArray, .versions = since(0), .fields = &kAcl},
};
constexpr StructSchema kResource{"DescribeAclsResource", kResourceFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(0)},
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "error_message", .type = kString, .versions = since(0), .nullable_versions = since(0)},
    {.name = "resources", .type = kArray, .versions = since(0), .fields = &kResource},
};

}  // namespace

constinit const MessageSchema kDescribeAclsRequest{
    ApiKey::kDescribeAcls, MessageKind::kRequest, between(1, 3), since(2),
    StructSchema{"DescribeAclsRequest", kRequestFields}};

constinit const MessageSchema kDescribeAclsResponse{
    ApiKey::kDescribeAcls, MessageKind::kResponse, between(1, 3), since(2),
    StructSchema{"DescribeAclsResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
