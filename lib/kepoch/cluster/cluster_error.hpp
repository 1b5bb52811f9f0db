#pragma once
// Errors of talking to a live cluster: a broker that cannot be reached, a TLS handshake or
// SASL authentication that fails, a broker that closes the connection or answers nonsense.
// The message is one line and always names the broker (host:port); commands map these to
// exit code 4. Bad settings are not ClusterErrors: they are UsageError (flags) or
// InputError (a file, with its line).

#include <stdexcept>
#include <string>

namespace kepoch::cluster {

class ClusterError : public std::runtime_error {
 public:
  // `broker` is "host:port"; `what` must already name it (callers phrase the sentence).
  ClusterError(std::string broker, const std::string& what)
      : std::runtime_error(what), broker_(std::move(broker)) {}

  const std::string& broker() const { return broker_; }

 private:
  std::string broker_;
};

// The broker refused our credentials (SaslAuthenticate error, or a SCRAM server error).
class AuthenticationError : public ClusterError {
 public:
  using ClusterError::ClusterError;
};

}  // namespace kepoch::cluster
