// ApiVersionsRequest / ApiVersionsResponse (api key 18), as Kafka 4.1.1's
// ApiVersionsRequest.json and ApiVersionsResponse.json define them: valid versions 0-4,
// flexible from 3. Wire layout of the response body (v3+):
//   error_code int16, api_keys compact array of (api_key, min_version, max_version int16,
//   tagged fields), throttle_time_ms int32, tagged fields: 0 supported_features,
//   1 finalized_features_epoch, 2 finalized_features, 3 zk_migration_ready.
// Its response header is always v0 (see headers.hpp).
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestFields[] = {
    {.name = "client_software_name", .type = kString, .versions = since(3), .ignorable = true},
    {.name = "client_software_version", .type = kString, .versions = since(3), .ignorable = true},
};

constexpr FieldSchema kApiVersionFields[] = {
    {.name = "api_key", .type = kInt16, .versions = since(0)},
    {.name = "min_version", .type = kInt16, .versions = since(0)},
    {.name = "max_version", .type = kInt16, .versions = since(0)},
};
constexpr StructSchema kApiVersion{"ApiVersion", kApiVersionFields};

constexpr FieldSchema kSupportedFeatureKeyFields[] = {
    {.name = "name", .type = kString, .versions = since(3)},
    {.name = "min_version", .type = kInt16, .versions = since(3)},
    {.name = "max_version", .type = kInt16, .versions = since(3)},
};
constexpr StructSchema kSupportedFeatureKey{"SupportedFeatureKey", kSupportedFeatureKeyFields};

constexpr FieldSchema kFinalizedFeatureKeyFields[] = {
    {.name = "name", .type = kString, .versions = since(3)},
    {.name = "max_version_level", .type = kInt16, .versions = since(3)},
    {.name = "min_version_level", .type = kInt16, .versions = since(3)},
};
constexpr StructSchema kFinalizedFeatureKey{"FinalizedFeatureKey", kFinalizedFeatureKeyFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "api_keys", .type = kArray, .versions = since(0), .fields = &kApiVersion},
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(1), .ignorable = true},
    {.name = "supported_features",
     .type = kArray,
     .versions = since(3),
     .tagged_versions = since(3),
     .tag = 0,
     .ignorable = true,
     .fields = &kSupportedFeatureKey},
    {.name = "finalized_features_epoch",
     .type = kInt64,
     .versions = since(3),
     .tagged_versions = since(3),
     .tag = 1,
     .ignorable = true,
     .default_value = "-1"},
    {.name = "finalized_features",
     .type = kArray,
     .versions = since(3),
     .tagged_versions = since(3),
     .tag = 2,
     .ignorable = true,
     .fields = &kFinalizedFeatureKey},
    {.name = "zk_migration_ready",
     .type = kBool,
     .versions = since(3),
     .tagged_versions = since(3),
     .tag = 3,
     .ignorable = true,
     .default_value = "false"},
};

}  // namespace

constinit const MessageSchema kApiVersionsRequest{
    ApiKey::kApiVersions, MessageKind::kRequest, between(0, 4), since(3),
    StructSchema{"ApiVersionsRequest", kRequestFields}};

constinit const MessageSchema kApiVersionsResponse{
    ApiKey::kApiVersions, MessageKind::kResponse, between(0, 4), since(3),
    StructSchema{"ApiVersionsResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
