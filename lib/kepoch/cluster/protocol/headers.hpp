#pragma once
// Request and response headers, as Kafka 4.1.1's RequestHeader.json and
// ResponseHeader.json define them (RequestHeaderData, ResponseHeaderData):
//
//   request header v1    request_api_key int16, request_api_version int16,
//                        correlation_id int32, client_id nullable string (int16 length)
//   request header v2    v1, then a tagged-field section (client_id stays a non-compact
//                        string: the field's flexibleVersions is "none")
//   response header v0   correlation_id int32
//   response header v1   correlation_id int32, then a tagged-field section
//
// Which one a message uses follows ApiMessageType.requestHeaderVersion /
// responseHeaderVersion: a flexible version of the API uses request v2 / response v1, except
// that the ApiVersions response header is always v0 (a client must read it before it knows
// what the broker speaks).

#include <cstdint>
#include <optional>
#include <string>

#include "kepoch/cluster/protocol/api_key.hpp"
#include "kepoch/cluster/protocol/wire_reader.hpp"
#include "kepoch/cluster/protocol/wire_writer.hpp"

namespace kepoch::cluster::protocol {

struct RequestHeader {
  std::int16_t api_key = 0;
  std::int16_t api_version = 0;
  std::int32_t correlation_id = 0;
  std::optional<std::string> client_id;
};

// The header versions of a message; throws ProtocolError when kepoch has no schema for the
// API or the version is not one Kafka lists.
std::int16_t request_header_version(ApiKey api, std::int16_t api_version);
std::int16_t response_header_version(ApiKey api, std::int16_t api_version);

void write_request_header(WireWriter& out, const RequestHeader& header,
                          std::int16_t header_version);
// Reads a request header of the given version (1 or 2).
RequestHeader read_request_header(WireReader& in, std::int16_t header_version);

void write_response_header(WireWriter& out, std::int32_t correlation_id,
                           std::int16_t header_version);
// Reads a response header (0 or 1) and returns its correlation id.
std::int32_t read_response_header(WireReader& in, std::int16_t header_version);

}  // namespace kepoch::cluster::protocol
