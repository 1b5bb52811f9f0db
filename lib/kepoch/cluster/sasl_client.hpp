#pragma once
// The client side of a SASL mechanism as a step function: given the server's last message
// (empty before the first), return the next message to send. The exchange itself
// (SaslHandshake, SaslAuthenticate) is BrokerChannel's; the mechanisms know nothing of
// sockets, so each is testable alone against published vectors.

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "kepoch/cluster/connection_settings.hpp"

namespace kepoch::cluster {

// A mechanism that cannot go on: kRejected when the server refused us (a SCRAM "e="
// error) or could not prove it knows our password; kMalformed when its message breaks the
// mechanism's grammar. Messages never contain the password.
class SaslError : public std::runtime_error {
 public:
  enum class Kind { kMalformed, kRejected };
  SaslError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

class SaslClient {
 public:
  virtual ~SaslClient() = default;
  // As Kafka names it in SaslHandshake ("PLAIN", "SCRAM-SHA-256").
  virtual std::string_view mechanism() const = 0;
  // The next client message. Throws SaslError.
  virtual std::vector<std::uint8_t> step(std::span<const std::uint8_t> server_message) = 0;
  // True once our side is done: nothing more to send, and (SCRAM) the server proved itself.
  virtual bool complete() const = 0;
};

// The client for settings.sasl_mechanism with the settings' credentials.
std::unique_ptr<SaslClient> make_sasl_client(const ConnectionSettings& settings);

}  // namespace kepoch::cluster
