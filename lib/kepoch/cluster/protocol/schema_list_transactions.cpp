// ListTransactionsRequest / ListTransactionsResponse (api key 66, KIP-664), as Kafka
// 4.1.1's JSON defines them: valid versions 0-2, flexible. Each broker lists the
// transactions of the __transaction_state partitions it coordinates. Request:
// state_filters [string], producer_id_filters [int64], duration_filter int64 (v1+, -1 all),
// transactional_id_pattern nullable string (v2+, null all). Response: throttle_time_ms
// int32, error_code int16, unknown_state_filters [string], transaction_states
// [transactional_id string, producer_id int64, transaction_state string].
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kRequestFields[] = {
    {.name = "state_filters", .type = kArray, .versions = since(0), .element_type = kString},
    {.name = "producer_id_filters", .type = kArray, .versions = since(0), .element_type = kInt64},
    {.name = "duration_filter", .type = kInt64, .versions = since(1), .default_value = "-1"},
    {.name = "transactional_id_pattern",
     .type = kString,
     .versions = since(2),
     .nullable_versions = since(2),
     .default_value = "null"},
};

constexpr FieldSchema kStateFields[] = {
    {.name = "transactional_id", .type = kString, .versions = since(0)},
    {.name = "producer_id", .type = kInt64, .versions = since(0)},
    {.name = "transaction_state", .type = kString, .versions = since(0)},
};
constexpr StructSchema kState{"TransactionState", kStateFields};

constexpr FieldSchema kResponseFields[] = {
    {.name = "throttle_time_ms", .type = kInt32, .versions = since(0)},
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "unknown_state_filters",
     .type = kArray,
     .versions = since(0),
     .element_type = kString},
    {.name = "transaction_states", .type = kArray, .versions = since(0), .fields = &kState},
};

}  // namespace

constinit const MessageSchema kListTransactionsRequest{
    ApiKey::kListTransactions, MessageKind::kRequest, between(0, 2), since(0),
    StructSchema{"ListTransactionsRequest", kRequestFields}};

constinit const MessageSchema kListTransactionsResponse{
    ApiKey::kListTransactions, MessageKind::kResponse, between(0, 2), since(0),
    StructSchema{"ListTransactionsResponse", kResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
