#pragma once
// The message schemas kepoch has (schema_<api>.cpp), by API key and kind, and the versions
// kepoch speaks: each API's request versions as Kafka 4.1.1 lists them valid.

#include <cstdint>
#include <optional>
#include <span>

#include "kepoch/cluster/protocol/api_key.hpp"
#include "kepoch/cluster/protocol/schema.hpp"

namespace kepoch::cluster::protocol {

// nullptr when kepoch has no schema for the API.
const MessageSchema* find_schema(ApiKey api, MessageKind kind);
// Throws ProtocolError naming the API when kepoch has no schema for it.
const MessageSchema& schema_for(ApiKey api, MessageKind kind);
// Every schema, requests and responses.
std::span<const MessageSchema* const> all_schemas();

// The versions kepoch speaks for an API; nullopt when it has no schema for it.
std::optional<Versions> supported_versions(ApiKey api);
// The highest version both kepoch and a broker (its ApiVersions range) speak, or nullopt
// when the ranges do not meet (Kafka's NodeApiVersions.latestUsableVersion).
std::optional<std::int16_t> pick_version(ApiKey api, std::int16_t broker_min,
                                         std::int16_t broker_max);

}  // namespace kepoch::cluster::protocol
