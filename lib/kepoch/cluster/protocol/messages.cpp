#include "kepoch/cluster/protocol/messages.hpp"

#include <fmt/format.h>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/codec.hpp"
#include "kepoch/cluster/protocol/schema_registry.hpp"

namespace kepoch::cluster::protocol {
namespace {

void expect_end(const WireReader& in) {
  if (!in.at_end()) {
    in.fail(fmt::format("expected the end of the frame, found {} more byte{}", in.remaining(),
                        in.remaining() == 1 ? "" : "s"));
  }
}

}  // namespace

Struct make_request_body(ApiKey api) {
  return Struct(schema_for(api, MessageKind::kRequest).body);
}

Struct make_response_body(ApiKey api) {
  return Struct(schema_for(api, MessageKind::kResponse).body);
}

std::vector<std::uint8_t> encode_body(ApiKey api, MessageKind kind, std::int16_t version,
                                      const Struct& body) {
  return encode_message(schema_for(api, kind), version, body);
}

Struct decode_body(ApiKey api, MessageKind kind, std::int16_t version,
                   std::span<const std::uint8_t> bytes) {
  return decode_message(schema_for(api, kind), version, bytes);
}

std::vector<std::uint8_t> encode_request(ApiKey api, std::int16_t version,
                                         std::int32_t correlation_id,
                                         std::optional<std::string_view> client_id,
                                         const Struct& body) {
  const MessageSchema& schema = schema_for(api, MessageKind::kRequest);
  RequestHeader header{static_cast<std::int16_t>(api), version, correlation_id, std::nullopt};
  if (client_id) header.client_id = std::string(*client_id);
  WireWriter out;
  write_request_header(out, header, request_header_version(api, version));
  write_message(out, schema, version, body);
  return out.take();
}

DecodedResponse decode_response(ApiKey api, std::int16_t version,
                                std::span<const std::uint8_t> frame) {
  const MessageSchema& schema = schema_for(api, MessageKind::kResponse);
  WireReader in(frame, message_label(schema, version));
  const std::int32_t correlation_id =
      read_response_header(in, response_header_version(api, version));
  Struct body = read_message(in, schema, version);
  expect_end(in);
  return {correlation_id, std::move(body)};
}

std::int32_t peek_correlation_id(std::span<const std::uint8_t> frame) {
  WireReader in(frame, "response");
  return read_response_header(in, 0);
}

DecodedRequest decode_request(std::span<const std::uint8_t> frame) {
  // The api key and version come first and say which header and body follow.
  WireReader peek(frame, "request");
  std::int16_t api_key = 0;
  std::int16_t version = 0;
  {
    PathScope scope(peek.path(), "header.request_api_key");
    api_key = peek.i16();
    if (!api_key_name(api_key)) {
      peek.fail_at(0, fmt::format("expected a Kafka api key, found {}", api_key));
    }
  }
  {
    PathScope scope(peek.path(), "header.request_api_version");
    version = peek.i16();
  }
  const auto api = static_cast<ApiKey>(api_key);
  const MessageSchema& schema = schema_for(api, MessageKind::kRequest);
  WireReader in(frame, message_label(schema, version));
  RequestHeader header = read_request_header(in, request_header_version(api, version));
  Struct body = read_message(in, schema, version);
  expect_end(in);
  return {std::move(header), std::move(body)};
}

std::vector<std::uint8_t> encode_response(ApiKey api, std::int16_t version,
                                          std::int32_t correlation_id, const Struct& body) {
  const MessageSchema& schema = schema_for(api, MessageKind::kResponse);
  WireWriter out;
  write_response_header(out, correlation_id, response_header_version(api, version));
  write_message(out, schema, version, body);
  return out.take();
}

}  // namespace kepoch::cluster::protocol
