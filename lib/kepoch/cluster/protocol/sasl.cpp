#include "kepoch/cluster/protocol/sasl.hpp"

#include "kepoch/cluster/protocol/messages.hpp"

namespace kepoch::cluster::protocol {

Struct make_sasl_handshake_request(std::string_view mechanism) {
  Struct body = make_request_body(ApiKey::kSaslHandshake);
  body.set_string("mechanism", std::string(mechanism));
  return body;
}

Struct make_sasl_authenticate_request(const Bytes& auth_bytes) {
  Struct body = make_request_body(ApiKey::kSaslAuthenticate);
  body.set_bytes("auth_bytes", auth_bytes);
  return body;
}

SaslHandshakeResponse SaslHandshakeResponse::from(const Struct& body) {
  return {body.get_int16("error_code"), body.get_string_array("mechanisms")};
}

SaslAuthenticateResponse SaslAuthenticateResponse::from(const Struct& body) {
  return {body.get_int16("error_code"), body.get_nullable_string("error_message"),
          body.get_bytes("auth_bytes"), body.get_int64("session_lifetime_ms")};
}

}  // namespace kepoch::cluster::protocol
