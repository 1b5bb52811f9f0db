#include "kepoch/cluster/sasl_plain.hpp"

namespace kepoch::cluster {

std::vector<std::uint8_t> PlainSaslClient::step(std::span<const std::uint8_t> server_message) {
  if (sent_ || !server_message.empty())
    throw SaslError(SaslError::Kind::kMalformed, "PLAIN: the server sent a challenge");
  sent_ = true;
  std::vector<std::uint8_t> message;
  message.push_back(0);  // no authorization id: act as the authenticated user
  message.insert(message.end(), username_.begin(), username_.end());
  message.push_back(0);
  const auto password = password_.reveal();
  message.insert(message.end(), password.begin(), password.end());
  return message;
}

}  // namespace kepoch::cluster
