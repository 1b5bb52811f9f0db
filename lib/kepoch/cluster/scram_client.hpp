#pragma once
// SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 5802, RFC 7677) as Kafka's ScramSaslClient speaks
// them, without channel binding ("n,,"):
//   step(empty)          -> client-first  "n,,n=<user>,r=<client nonce>"
//   step(server-first)   -> client-final  "c=biws,r=<nonce>,p=<proof>"
//                           (server-first "r=<client nonce + server part>,s=<salt>,i=<n>")
//   step(server-final)   -> nothing; "v=<signature>" must match ours, "e=<error>" is a
//                           refusal
// SaltedPassword = PBKDF2(HMAC-H, password, salt, i); ClientKey = HMAC(SaltedPassword,
// "Client Key"); proof = ClientKey XOR HMAC(H(ClientKey), AuthMessage); the server's
// signature is HMAC(HMAC(SaltedPassword, "Server Key"), AuthMessage). Kafka sends the
// password's UTF-8 bytes without SASLprep, and so do we.

#include <optional>
#include <string>

#include "kepoch/cluster/sasl_client.hpp"
#include "kepoch/cluster/secret.hpp"

namespace kepoch::cluster {

// Kafka's ScramMechanism.minIterations: its server never uses fewer, and its client
// refuses fewer. The maximum is ours: it bounds the PBKDF2 work a server can ask for.
inline constexpr int kScramMinIterations = 4096;
inline constexpr int kScramMaxIterations = 100000;

class ScramSaslClient : public SaslClient {
 public:
  enum class Hash { kSha256, kSha512 };

  // `client_nonce` is for tests (RFC 7677's example); by default 24 random bytes from
  // RAND_bytes, base64-encoded.
  ScramSaslClient(Hash hash, std::string username, Secret password,
                  std::optional<std::string> client_nonce = std::nullopt);

  std::string_view mechanism() const override;
  std::vector<std::uint8_t> step(std::span<const std::uint8_t> server_message) override;
  bool complete() const override { return state_ == State::kDone; }

 private:
  enum class State { kStart, kSentFirst, kSentFinal, kDone };

  std::string client_first();
  std::string client_final(std::string_view server_first);
  void verify_server_final(std::string_view server_final);

  Hash hash_;
  std::string username_;
  Secret password_;
  std::string client_nonce_;
  State state_ = State::kStart;
  std::string client_first_bare_;
  std::string expected_server_signature_;  // base64
};

}  // namespace kepoch::cluster
