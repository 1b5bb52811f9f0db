#pragma once
// Whole messages by API key: what the transport sends and receives (a frame is a header
// and a body; the int32 size prefix is the transport's) and what the commands build and
// read. Bodies are Structs (value.hpp) of the schemas in schema_registry.hpp; the typed
// views (metadata.hpp, api_versions.hpp, ...) sit on top.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "kepoch/cluster/protocol/api_key.hpp"
#include "kepoch/cluster/protocol/headers.hpp"
#include "kepoch/cluster/protocol/schema.hpp"
#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

// A body at the schema's defaults, as a new Kafka *Data object: set only what you need.
// Throws ProtocolError when kepoch has no schema for the API.
Struct make_request_body(ApiKey api);
Struct make_response_body(ApiKey api);

// A body alone, without header.
std::vector<std::uint8_t> encode_body(ApiKey api, MessageKind kind, std::int16_t version,
                                      const Struct& body);
Struct decode_body(ApiKey api, MessageKind kind, std::int16_t version,
                   std::span<const std::uint8_t> bytes);

// Header (v1 or v2 as the API and version require) + body, without the size prefix.
std::vector<std::uint8_t> encode_request(ApiKey api, std::int16_t version,
                                         std::int32_t correlation_id,
                                         std::optional<std::string_view> client_id,
                                         const Struct& body);

struct DecodedResponse {
  std::int32_t correlation_id;
  Struct body;
};
// A response frame (without the size prefix) to a request of `api` at `version`: header
// (v0 or v1) and body, with nothing after. Offsets in errors count from the frame's start.
DecodedResponse decode_response(ApiKey api, std::int16_t version,
                                std::span<const std::uint8_t> frame);
// The correlation id that opens every response frame, to match it to its request before
// decoding the rest.
std::int32_t peek_correlation_id(std::span<const std::uint8_t> frame);

// The broker's side, for fake brokers in tests: a request frame read back (the header says
// which API and version), and a response frame written.
struct DecodedRequest {
  RequestHeader header;
  Struct body;
};
DecodedRequest decode_request(std::span<const std::uint8_t> frame);
std::vector<std::uint8_t> encode_response(ApiKey api, std::int16_t version,
                                          std::int32_t correlation_id, const Struct& body);

}  // namespace kepoch::cluster::protocol
