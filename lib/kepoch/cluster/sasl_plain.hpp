#pragma once
// SASL PLAIN (RFC 4616), as Kafka's PlainSaslServer expects: one message,
// authzid NUL authcid NUL password, with an empty authzid. The server answers with an
// empty challenge or an error.

#include <string>

#include "kepoch/cluster/sasl_client.hpp"
#include "kepoch/cluster/secret.hpp"

namespace kepoch::cluster {

class PlainSaslClient : public SaslClient {
 public:
  PlainSaslClient(std::string username, Secret password)
      : username_(std::move(username)), password_(std::move(password)) {}

  std::string_view mechanism() const override { return "PLAIN"; }
  std::vector<std::uint8_t> step(std::span<const std::uint8_t> server_message) override;
  bool complete() const override { return sent_; }

 private:
  std::string username_;
  Secret password_;
  bool sent_ = false;
};

}  // namespace kepoch::cluster
