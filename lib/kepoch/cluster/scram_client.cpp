#include "kepoch/cluster/scram_client.hpp"

#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <charconv>

#include "kepoch/base/base64.hpp"

namespace kepoch::cluster {
namespace {

using Bytes = std::vector<std::uint8_t>;

[[noreturn]] void malformed(std::string_view mechanism, std::string_view what) {
  throw SaslError(SaslError::Kind::kMalformed, fmt::format("{}: {}", mechanism, what));
}

const EVP_MD* digest(ScramSaslClient::Hash hash) {
  return hash == ScramSaslClient::Hash::kSha256 ? EVP_sha256() : EVP_sha512();
}

Bytes bytes_of(std::string_view text) {
  return Bytes(text.begin(), text.end());
}

Bytes hmac(const EVP_MD* md, std::span<const std::uint8_t> key, std::string_view data) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned int length = 0;
  HMAC(md, key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(), &length);
  out.resize(length);
  return out;
}

Bytes hash_of(const EVP_MD* md, std::span<const std::uint8_t> data) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), out.data(), &length, md, nullptr);
  out.resize(length);
  return out;
}

Bytes salted_password(const EVP_MD* md, std::string_view password,
                      std::span<const std::uint8_t> salt, int iterations) {
  Bytes out(static_cast<std::size_t>(EVP_MD_get_size(md)));
  PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()), salt.data(),
                    static_cast<int>(salt.size()), iterations, md, static_cast<int>(out.size()),
                    out.data());
  return out;
}

// saslname: ',' and '=' in a user name are written =2C and =3D (RFC 5802 section 5.1).
std::string sasl_name(std::string_view user) {
  std::string out;
  for (const char c : user) {
    if (c == ',')
      out += "=2C";
    else if (c == '=')
      out += "=3D";
    else
      out += c;
  }
  return out;
}

std::string random_nonce() {
  std::array<std::uint8_t, 24> random{};
  if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1)
    throw std::runtime_error("RAND_bytes failed: no randomness for the SCRAM nonce");
  return base64_encode(random);
}

// The attributes of a SCRAM message: "a=value" separated by ','.
struct Attribute {
  char name;
  std::string_view value;
};

std::vector<Attribute> attributes(std::string_view mechanism, std::string_view message) {
  std::vector<Attribute> out;
  while (!message.empty()) {
    const auto comma = message.find(',');
    const auto field = message.substr(0, comma);
    if (field.size() < 2 || field[1] != '=')
      malformed(mechanism, "the server's message is not a list of a=value attributes");
    out.push_back({field[0], field.substr(2)});
    if (comma == std::string_view::npos) break;
    message.remove_prefix(comma + 1);
  }
  return out;
}

int parse_iterations(std::string_view mechanism, std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size())
    malformed(mechanism, "the iteration count (i=) is not a number");
  if (value < kScramMinIterations || value > kScramMaxIterations)
    malformed(mechanism, fmt::format("the iteration count {} is outside {}..{}", value,
                                     kScramMinIterations, kScramMaxIterations));
  return value;
}

std::string_view text_of(std::span<const std::uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace

ScramSaslClient::ScramSaslClient(Hash hash, std::string username, Secret password,
                                 std::optional<std::string> client_nonce)
    : hash_(hash),
      username_(std::move(username)),
      password_(std::move(password)),
      client_nonce_(client_nonce ? std::move(*client_nonce) : random_nonce()) {}

std::string_view ScramSaslClient::mechanism() const {
  return hash_ == Hash::kSha256 ? "SCRAM-SHA-256" : "SCRAM-SHA-512";
}

std::vector<std::uint8_t> ScramSaslClient::step(std::span<const std::uint8_t> server_message) {
  switch (state_) {
    case State::kStart:
      state_ = State::kSentFirst;
      return bytes_of(client_first());
    case State::kSentFirst:
      state_ = State::kSentFinal;
      return bytes_of(client_final(text_of(server_message)));
    case State::kSentFinal:
      verify_server_final(text_of(server_message));
      state_ = State::kDone;
      return {};
    case State::kDone:
      break;
  }
  malformed(mechanism(), "the server sent a message after the exchange was complete");
}

std::string ScramSaslClient::client_first() {
  client_first_bare_ = fmt::format("n={},r={}", sasl_name(username_), client_nonce_);
  return "n,," + client_first_bare_;
}

std::string ScramSaslClient::client_final(std::string_view server_first) {
  const auto mech = mechanism();
  const auto attrs = attributes(mech, server_first);
  if (!attrs.empty() && attrs[0].name == 'm')
    malformed(mech, "the server requires an extension (m=) kepoch does not know");
  if (attrs.size() < 3 || attrs[0].name != 'r' || attrs[1].name != 's' || attrs[2].name != 'i')
    malformed(mech, "the server's first message is not r=...,s=...,i=...");
  const auto nonce = attrs[0].value;
  if (!nonce.starts_with(client_nonce_) || nonce.size() == client_nonce_.size())
    malformed(mech, "the server's nonce does not extend ours");
  const auto salt = base64_decode(attrs[1].value);
  if (!salt || salt->empty()) malformed(mech, "the salt (s=) is not base64");
  const int iterations = parse_iterations(mech, attrs[2].value);

  const EVP_MD* md = digest(hash_);
  const auto salted = salted_password(md, password_.reveal(), *salt, iterations);
  const auto client_key = hmac(md, salted, "Client Key");
  const auto stored_key = hash_of(md, client_key);
  // "biws" is base64("n,,"): no channel binding, no authorization id.
  const auto without_proof = fmt::format("c=biws,r={}", nonce);
  const auto auth_message =
      fmt::format("{},{},{}", client_first_bare_, server_first, without_proof);
  auto proof = hmac(md, stored_key, auth_message);
  for (std::size_t i = 0; i < proof.size(); ++i)
    proof[i] ^= client_key[i];
  expected_server_signature_ =
      base64_encode(hmac(md, hmac(md, salted, "Server Key"), auth_message));
  return fmt::format("{},p={}", without_proof, base64_encode(proof));
}

void ScramSaslClient::verify_server_final(std::string_view server_final) {
  const auto mech = mechanism();
  const auto attrs = attributes(mech, server_final);
  if (attrs.empty()) malformed(mech, "the server's final message is empty");
  if (attrs[0].name == 'e')
    throw SaslError(
        SaslError::Kind::kRejected,
        fmt::format("{}: the server refused the authentication: {}", mech, attrs[0].value));
  if (attrs[0].name != 'v') malformed(mech, "the server's final message is not v=... or e=...");
  const auto got = attrs[0].value;
  const auto& want = expected_server_signature_;
  if (got.size() != want.size() || CRYPTO_memcmp(got.data(), want.data(), want.size()) != 0)
    throw SaslError(SaslError::Kind::kRejected,
                    fmt::format("{}: the server's signature is wrong: it does not know our "
                                "password (or is not the server we meant)",
                                mech));
}

}  // namespace kepoch::cluster
