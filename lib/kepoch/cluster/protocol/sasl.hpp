#pragma once
// SaslHandshake (api key 17) and SaslAuthenticate (api key 36), typed, for the transport's
// SASL exchange: the handshake names the mechanism, then each SaslAuthenticate carries the
// mechanism's opaque bytes. Mirrors SaslHandshakeRequest/Response and
// SaslAuthenticateRequest/Response of Kafka's clients.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

Struct make_sasl_handshake_request(std::string_view mechanism);
Struct make_sasl_authenticate_request(const Bytes& auth_bytes);

struct SaslHandshakeResponse {
  std::int16_t error_code = 0;
  std::vector<std::string> mechanisms;  // what the broker has enabled

  static SaslHandshakeResponse from(const Struct& body);
};

struct SaslAuthenticateResponse {
  std::int16_t error_code = 0;
  std::optional<std::string> error_message;
  Bytes auth_bytes;
  std::int64_t session_lifetime_ms = 0;  // v1+; 0 = no re-authentication required

  static SaslAuthenticateResponse from(const Struct& body);
};

}  // namespace kepoch::cluster::protocol
