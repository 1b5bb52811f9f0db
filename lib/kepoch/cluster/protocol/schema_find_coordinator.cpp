// FindCoordinatorRequest / FindCoordinatorResponse (api key 10), as Kafka 4.1.1's JSON
// defines them: valid versions 0-6, flexible from 3. Request: key string (v0-3), key_type
// int8 (v1+: 0 group, 1 transaction), coordinator_keys [string] (v4+, batched). Response:
// throttle_time_ms int32 (v1+), then either one answer (v0-3: error_code int16,
// error_message nullable string (v1-3), node_id int32, host string, port int32) or one per
// key (v4+: coordinators [key, node_id, host, port, error_code, error_message]).
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestFields[] = {
    {.name = "key", .type = kString, .versions = between(0, 3)},
    {.name = "key_type", .type = kInt8, .versions = since(1), .default_value = "0"},
    {.name = "coordinator_keys", .type = kArray, .versions = since(4), .element_type = kString},
};

constexpr FieldSchema kCoordinatorFields[] = {
    {.name = "key", .type = kString, .versions = since(4)},
    {.name = "node_id", .type = kInt32, .versions = since(4)},
    {.name = "host", .type = kString, .versions = since(4)},
    {.name = "port", .type = kInt32, .versions = since(4)},
    {.name = "error_code", .type = kInt16, .versions = since(4)},
    {.name = "error_message",
     .type = kString,
     .versions = since(4),
     .nullable_versions = since(4),
     .ignorable = true},
};
constexpr StructSchema kCoordinator{"Coordinator", kCoordinatorFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(1), .ignorable = true},
    {.name = "error_code", .type = kInt16, .versions = between(0, 3)},
    {.name = "error_message",
     .type = kString,
     .versions = between(1, 3),
     .nullable_versions = between(1, 3),
     .ignorable = true},
    {.name = "node_id", .type = kInt32, .versions = between(0, 3)},
    {.name = "host", .type = kString, .versions = between(0, 3)},
    {.name = "port", .type = kInt32, .versions = between(0, 3)},
    {.name = "coordinators", .type = kArray, .versions = since(4), .fields = &kCoordinator},
};

}  // namespace

constinit const MessageSchema kFindCoordinatorRequest{
    ApiKey::kFindCoordinator, MessageKind::kRequest, between(0, 6), since(3),
    StructSchema{"FindCoordinatorRequest", kRequestFields}};

constinit const MessageSchema kFindCoordinatorResponse{
    ApiKey::kFindCoordinator, MessageKind::kResponse, between(0, 6), since(3),
    StructSchema{"FindCoordinatorResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
