#include "kepoch/cluster/protocol/headers.hpp"

#include <fmt/format.h>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/schema_registry.hpp"

namespace kepoch::cluster::protocol {
namespace {

constexpr std::size_t kMaxStringLength = 0x7fff;

bool is_flexible(ApiKey api, MessageKind kind, std::int16_t api_version) {
  const MessageSchema& schema = schema_for(api, kind);
  if (!schema.valid_versions.contains(api_version)) {
    throw ProtocolError(
        fmt::format("{} v{}", schema.body.name, api_version), "",
        fmt::format("expected a version in {}..{}, found {}", schema.valid_versions.lowest,
                    schema.valid_versions.highest, api_version));
  }
  return schema.flexible_versions.contains(api_version);
}

void check_version(std::string_view header, std::int16_t version, std::int16_t lowest,
                   std::int16_t highest) {
  if (version < lowest || version > highest) {
    throw ProtocolError(
        std::string(header), "",
        fmt::format("expected header version {}..{}, found {}", lowest, highest, version));
  }
}

// A header's tagged-field section: Kafka's headers define no tagged field, so every tag is
// skipped.
void skip_tagged_fields(WireReader& in) {
  PathScope scope(in.path(), "tagged_fields");
  const std::uint32_t count = in.unsigned_varint();
  for (std::uint32_t i = 0; i < count; ++i) {
    in.unsigned_varint();  // tag
    in.bytes(in.unsigned_varint());
  }
}

}  // namespace

std::int16_t request_header_version(ApiKey api, std::int16_t api_version) {
  return is_flexible(api, MessageKind::kRequest, api_version) ? 2 : 1;
}

std::int16_t response_header_version(ApiKey api, std::int16_t api_version) {
  const bool flexible = is_flexible(api, MessageKind::kResponse, api_version);
  if (api == ApiKey::kApiVersions) return 0;
  return flexible ? 1 : 0;
}

void write_request_header(WireWriter& out, const RequestHeader& header,
                          std::int16_t header_version) {
  check_version("RequestHeader", header_version, 1, 2);
  out.i16(header.api_key);
  out.i16(header.api_version);
  out.i32(header.correlation_id);
  if (!header.client_id) {
    out.i16(-1);
  } else {
    const std::string& id = *header.client_id;
    if (id.size() > kMaxStringLength) {
      throw ProtocolError(fmt::format("RequestHeader v{}", header_version), "client_id",
                          fmt::format("expected a string of at most {} bytes, found {}",
                                      kMaxStringLength, id.size()));
    }
    out.i16(static_cast<std::int16_t>(id.size()));
    out.bytes(std::span(reinterpret_cast<const std::uint8_t*>(id.data()), id.size()));
  }
  if (header_version >= 2) out.unsigned_varint(0);
}

RequestHeader read_request_header(WireReader& in, std::int16_t header_version) {
  check_version("RequestHeader", header_version, 1, 2);
  PathScope scope(in.path(), "header");
  RequestHeader h;
  {
    PathScope field(in.path(), "request_api_key");
    h.api_key = in.i16();
  }
  {
    PathScope field(in.path(), "request_api_version");
    h.api_version = in.i16();
  }
  {
    PathScope field(in.path(), "correlation_id");
    h.correlation_id = in.i32();
  }
  {
    PathScope field(in.path(), "client_id");
    const std::int16_t n = in.i16();
    if (n >= 0) {  // Kafka reads any negative length as null
      const auto b = in.bytes(static_cast<std::size_t>(n));
      h.client_id = std::string(reinterpret_cast<const char*>(b.data()), b.size());
    }
  }
  if (header_version >= 2) skip_tagged_fields(in);
  return h;
}

void write_response_header(WireWriter& out, std::int32_t correlation_id,
                           std::int16_t header_version) {
  check_version("ResponseHeader", header_version, 0, 1);
  out.i32(correlation_id);
  if (header_version >= 1) out.unsigned_varint(0);
}

std::int32_t read_response_header(WireReader& in, std::int16_t header_version) {
  check_version("ResponseHeader", header_version, 0, 1);
  PathScope scope(in.path(), "header");
  std::int32_t correlation_id = 0;
  {
    PathScope field(in.path(), "correlation_id");
    correlation_id = in.i32();
  }
  if (header_version >= 1) skip_tagged_fields(in);
  return correlation_id;
}

}  // namespace kepoch::cluster::protocol
