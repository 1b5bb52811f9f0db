// SaslHandshakeRequest / SaslHandshakeResponse (api key 17; versions 0-1, never flexible)
// and SaslAuthenticateRequest / SaslAuthenticateResponse (api key 36; versions 0-2,
// flexible from 2), as Kafka 4.1.1's JSON defines them. Wire layouts:
//   SaslHandshakeRequest      mechanism string
//   SaslHandshakeResponse     error_code int16, mechanisms [string]
//   SaslAuthenticateRequest   auth_bytes bytes
//   SaslAuthenticateResponse  error_code int16, error_message nullable string, auth_bytes
//                             bytes, session_lifetime_ms int64 (v1+)
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol::tables {
namespace {

using enum FieldType;

constexpr FieldSchema kHandshakeRequestFields[] = {
    {.name = "mechanism", .type = kString, .versions = since(0)},
};

constexpr FieldSchema kHandshakeResponseFields[] = {
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "mechanisms", .type = kArray, .versions = since(0), .element_type = kString},
};

constexpr FieldSchema kAuthenticateRequestFields[] = {
    {.name = "auth_bytes", .type = kBytes, .versions = since(0)},
};

constexpr FieldSchema kAuthenticateResponseFields[] = {
    {.name = "error_code", .type = kInt16, .versions = since(0)},
    {.name = "error_message", .type = kString, .versions = since(0), .nullable_versions = since(0)},
    {.name = "auth_bytes", .type = kBytes, .versions = since(0)},
    {.name = "session_lifetime_ms",
     .type = kInt64,
     .versions = since(1),
     .ignorable = true,
     .default_value = "0"},
};

}  // namespace

constinit const MessageSchema kSaslHandshakeRequest{
    ApiKey::kSaslHandshake, MessageKind::kRequest, between(0, 1), kNoVersions,
    StructSchema{"SaslHandshakeRequest", kHandshakeRequestFields}};

constinit const MessageSchema kSaslHandshakeResponse{
    ApiKey::kSaslHandshake, MessageKind::kResponse, between(0, 1), kNoVersions,
    StructSchema{"SaslHandshakeResponse", kHandshakeResponseFields}};

constinit const MessageSchema kSaslAuthenticateRequest{
    ApiKey::kSaslAuthenticate, MessageKind::kRequest, between(0, 2), since(2),
    StructSchema{"SaslAuthenticateRequest", kAuthenticateRequestFields}};

constinit const MessageSchema kSaslAuthenticateResponse{
    ApiKey::kSaslAuthenticate, MessageKind::kResponse, between(0, 2), since(2),
    StructSchema{"SaslAuthenticateResponse", kAuthenticateResponseFields}};

}  // namespace kepoch::cluster::protocol::tables
