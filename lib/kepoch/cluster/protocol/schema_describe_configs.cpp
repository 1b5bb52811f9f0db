// DescribeConfigsRequest / DescribeConfigsResponse (api key 32), as Kafka 4.1.1's
// DescribeConfigsRequest.json and DescribeConfigsResponse.json define them: valid versions
// 1-4, flexible from 4. Wire layout of the response body:
//   throttle_time_ms int32, results [error_code int16, error_message nullable string,
//   resource_type int8, resource_name string, configs [name string, value nullable string,
//   read_only bool, config_source int8, is_sensitive bool, synonyms [name string, value
//   nullable string, source int8], config_type int8 (v3+), documentation nullable string
//   (v3+)]]
// Request: resources [resource_type int8, resource_name string, configuration_keys
// nullable [string]], include_synonyms bool, include_documentation bool (v3+).
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kResourceFields[] = {
    {.name = "resource_type", .type = kInt8, .versions = since(0)},
    {.name = "resource_name", .type = kString, .versions = since(0)},
    {.name = "configuration_keys",
     .type = kArray,
     .versions = since(0),
     .nullable_versions = since(0),
     .element_type = kString},
};
constexpr StructSchema kResource{"DescribeConfigsResource", kResourceFields};

constexpr FieldSchema kRequestFields[] = {
    {.name = "resources", .type = kArray, .versions = since(0), .fields = &kResource},
    {.name = "include_synonyms", .type = kBool, .versions = since(1), .default_value = "false"},
    {.name = "include_documentation",
     .type = kBool,
     .versions = since(3),
     .default_value = "false"},
};

constexpr FieldSchema kSynonymFields[] = {
    {.name = "name", .type = kString, .versions = since(1)},
    {.name = "value", .type = kString, .versions = since(1), .nullable_versions = since(0)},
    {.name = "source", .type = kInt8, .versions = since(1)},
};
constexpr StructSchema kSynonym{"DescribeConfigsSynonym", kSynonymFields};

constexpr FieldSchema kConfigFields[] = {
    {.name = "name", .type = kString, .versions = since(0)},
    {.name = "value", .type = kString, .versions = since(0), .nullable_versions = since(0)},
    {.name = "read_only", .type = kBool, .versions = since(0)},
    {.name = "config_source",
     .type = kInt8,
     .versions = since(1),
     .ignorable = true,
     .default_value = "-1"},
    {.name = "is_sensitive", .type = kBool, .versions = since(0)},
    {.name = "synonyms",
     .type = kArray,
     .versions = since(1),
     .ignorable = true,
     .fields = &kSynonym},
    {.name = "config_type",
     .type = kInt8,
     .versions = since(3),
     .ignorable = true,
     .default_value = "0"},
    {.name = "documentation",
     .type = kString,
     .versions = since(3),
     .nullable_versions = since(0),
     .ignorable = true},
};
constexpr StructSchema kConfig{"DescribeConfigsResourceResult", kConfigFields};

constexpr FieldSchema kResultFields[] = {
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "error_message", .type = kString, .versions = since(0), .nullable_versions = since(0)},
    {.name = "resource_type", .type = kInt8, .versions = since(0)},
    {.name = "resource_name", .type = kString, .versions = since(0)},
    {.name = "configs", .type = kArray, .versions = since(0), .fields = &kConfig},
};
constexpr StructSchema kResult{"DescribeConfigsResult", kResultFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(0)},
    {.name = "results", .type = kArray, .versions = since(0), .fields = &kResult},
};

}  // namespace

constinit const MessageSchema kDescribeConfigsRequest{
    ApiKey::kDescribeConfigs, MessageKind::kRequest, between(1, 4), since(4),
    StructSchema{"DescribeConfigsRequest", kRequestFields}};

constinit const MessageSchema kDescribeConfigsResponse{
    ApiKey::kDescribeConfigs, MessageKind::kResponse, between(1, 4), since(4),
    StructSchema{"DescribeConfigsResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
