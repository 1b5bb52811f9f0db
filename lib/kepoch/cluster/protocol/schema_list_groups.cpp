// ListGroupsRequest / ListGroupsResponse (api key 16), as Kafka 4.1.1's JSON defines them:
// valid versions 0-5, flexible from 3. Each broker lists the groups of the
// __consumer_offsets partitions it coordinates. Request: states_filter [string] (v4+),
// types_filter [string] (v5+). Response: throttle_time_ms int32 (v1+), error_code int16,
// groups [group_id string, protocol_type string, group_state string (v4+), group_type
// string (v5+)].
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestFields[] = {
    {.name = "states_filter", .type = kArray, .versions = since(4), .element_type = kString},
    {.name = "types_filter", .type = kArray, .versions = since(5), .element_type = kString},
};

constexpr FieldSchema kGroupFields[] = {
    {.name = "group_id", .type = kString, .versions = since(0)},
    {.name = "protocol_type", .type = kString, .versions = since(0)},
    {.name = "group_state", .type = kString, .versions = since(4), .ignorable = true},
    {.name = "group_type", .type = kString, .versions = since(5), .ignorable = true},
};
constexpr StructSchema kGroup{"ListedGroup", kGroupFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(1), .ignorable = true},
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "groups", .type = kArray, .versions = since(0), .fields = &kGroup},
};

}  // namespace

constinit const MessageSchema kListGroupsRequest{ApiKey::kListGroups, MessageKind::kRequest,
                                                 between(0, 5), since(3),
                                                 StructSchema{"ListGroupsRequest", kRequestFields}};

constinit const MessageSchema kListGroupsResponse{
    ApiKey::kListGroups, MessageKind::kResponse, between(0, 5), since(3),
    StructSchema{"ListGroupsResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
