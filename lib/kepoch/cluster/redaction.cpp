#include "kepoch/cluster/redaction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

#include "kepoch/cluster/jaas_config.hpp"
#include "kepoch/cluster/secret.hpp"

namespace kepoch::cluster {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// ConfigDef.Type.PASSWORD in Kafka's ConfigDefs (see the header), and librdkafka's secrets.
constexpr std::array<std::string_view, 21> kPasswordTyped = {
    // Kafka: SslConfigs, BrokerSecurityConfigs
    "ssl.key.password", "ssl.keystore.password", "ssl.truststore.password", "ssl.keystore.key",
    "ssl.keystore.certificate.chain", "ssl.truststore.certificates",
    // Kafka: SaslConfigs
    "sasl.jaas.config", "sasl.oauthbearer.client.credentials.client.secret",
    "sasl.oauthbearer.assertion.private.key.passphrase",
    // Kafka: PasswordEncoderConfigs, DelegationTokenManagerConfigs, ZkConfigs
    "password.encoder.secret", "password.encoder.old.secret", "delegation.token.secret.key",
    "delegation.token.master.key", "zookeeper.ssl.keystore.password",
    "zookeeper.ssl.truststore.password",
    // librdkafka (CONFIGURATION.md's sensitive properties)
    "sasl.password", "ssl.key.pem", "ssl_key", "ssl.keystore.location.password",
    "sasl.oauthbearer.client.secret", "sasl.oauthbearer.config"};

// Words that name a secret wherever they stand in a key or a JAAS option name.
constexpr std::array<std::string_view, 6> kSecretWords = {
    "password", "secret", "passphrase", "credentials.client", "user.info", "userinfo"};

bool names_secret(std::string_view lowered) {
  return std::any_of(kSecretWords.begin(), kSecretWords.end(),
                     [&](std::string_view w) { return lowered.find(w) != std::string_view::npos; });
}

// A JAAS value as JaasConfig's tokenizer reads it back: a double-quoted string.
std::string quoted(std::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

bool is_secret_key(std::string_view key) {
  const std::string k = lower(key);
  for (const auto& p : kPasswordTyped)
    if (k == p || (k.size() > p.size() && k.ends_with(p) && k[k.size() - p.size() - 1] == '.'))
      return true;
  return names_secret(k);
}

bool is_secret_jaas_option(std::string_view name) {
  const std::string n = lower(name);
  // PlainLoginModule's broker side: user_alice="alice-secret" is alice's password.
  return n.starts_with("user_") || names_secret(n) || n.ends_with("token");
}

std::string shown_jaas_config(std::string_view text) {
  try {
    const JaasLoginModule m = parse_jaas_config(text);
    std::string out = m.login_module + " " + m.control_flag;
    for (const auto& [name, value] : m.options)
      out +=
          " " + name + "=" + (is_secret_jaas_option(name) ? std::string(kRedacted) : quoted(value));
    return out + ";";
  } catch (const std::exception&) {
    return std::string(kRedacted);  // not readable as JAAS: any part of it may be a secret
  }
}

std::string without_credentials(std::string_view text) {
  // user:password@host: the password runs from the ':' after the user to the '@'. A user
  // name holds no ':', '/', '@' or space; the password no '@' or space (RFC 3986 userinfo).
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = text.find('@'); at != std::string_view::npos; at = text.find('@', at + 1)) {
    std::size_t start = at;
    while (start > from && !std::isspace(static_cast<unsigned char>(text[start - 1])) &&
           text[start - 1] != '/' && text[start - 1] != ',' && text[start - 1] != '@' &&
           text[start - 1] != '"' && text[start - 1] != '\'' && text[start - 1] != '=')
      --start;
    const std::size_t colon = text.find(':', start);
    if (colon == std::string_view::npos || colon >= at) continue;
    out.append(text.substr(from, colon + 1 - from));
    out.append(kRedacted);
    from = at;
  }
  out.append(text.substr(from));
  return out;
}

std::string shown_value(std::string_view key, std::string_view value) {
  if (lower(key).ends_with("sasl.jaas.config")) return shown_jaas_config(value);
  if (is_secret_key(key)) return std::string(kRedacted);
  return without_credentials(value);
}

}  // namespace kepoch::cluster
