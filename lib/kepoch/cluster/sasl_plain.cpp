#include "kepoch/cluster/sasl_plain.hpp"

namespace kepoch::cluster {

std::vector<std::uint8_t> PlainSaslClient::step(std::span<const std::uint8_t> server_message) {
  if (sent_ || !server_message.empty())
    throw SaslError(SaslError::Kind::kMalformed, "PLAIN: the server sent a challenge");
  sent_ = true;
  // authzid NUL authcid NUL passwd (RFC 4616), with no authorization id: act as the
  // authenticated user. Built as text and copied once (GCC 12's -O2 mis-warns on
  // vector::insert of a string range).
  const auto password = password_.reveal();
  std::string text;
  text.reserve(2 + username_.size() + password.size());
  text += '\0';
  text += username_;
  text += '\0';
  text += password;
  return std::vector<std::uint8_t>(text.begin(), text.end());
}

}  // namespace kepoch::cluster
