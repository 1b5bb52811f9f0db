#include "kepoch/cluster/connection_settings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/redaction.hpp"

namespace kepoch::cluster {
namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  });
  return out;
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

BrokerAddress parse_one_broker(std::string_view entry) {
  std::string_view host;
  std::string_view port;
  if (entry.starts_with('[')) {
    const auto close = entry.find(']');
    if (close == std::string_view::npos || close + 1 >= entry.size() || entry[close + 1] != ':')
      throw std::invalid_argument(fmt::format("'{}' is not [ipv6]:port", entry));
    host = entry.substr(1, close - 1);
    port = entry.substr(close + 2);
  } else {
    const auto colon = entry.rfind(':');
    if (colon == std::string_view::npos)
      throw std::invalid_argument(fmt::format("'{}' has no port (host:port)", entry));
    host = entry.substr(0, colon);
    port = entry.substr(colon + 1);
    if (host.find(':') != std::string_view::npos)
      throw std::invalid_argument(fmt::format("'{}': write IPv6 addresses as [addr]:port", entry));
  }
  if (host.empty()) throw std::invalid_argument(fmt::format("'{}' has no host", entry));
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc{} || end != port.data() + port.size() || value == 0 || value > 65535)
    throw std::invalid_argument(fmt::format("'{}': the port must be 1..65535", entry));
  return {std::string(host), static_cast<std::uint16_t>(value)};
}

std::string source_of(const ConnectionSettings& settings, std::string_view key) {
  const auto it = settings.sources.find(key);
  return it == settings.sources.end() ? "default" : it->second;
}

std::string secret_value(const Secret& secret) {
  return secret.empty() ? "" : std::string(kRedacted);
}

std::string store_value(const std::string& location, StoreFormat format) {
  if (location.empty()) return "";
  return format == StoreFormat::kPkcs12 ? location + " (PKCS12)" : location;
}

std::string bootstrap_value(const std::vector<BrokerAddress>& brokers) {
  std::string out;
  for (const auto& broker : brokers) {
    if (!out.empty()) out += ',';
    out += broker.to_string();
  }
  return out;
}

// "sasl.username is not set" plus why it is needed.
[[noreturn]] void missing(const ConnectionSettings& settings, std::string_view key,
                          std::string_view because_key, std::string_view because) {
  throw UsageError(fmt::format("{} is not set, but {} ({}: {})", key, because, because_key,
                               source_of(settings, because_key)));
}

}  // namespace

std::string BrokerAddress::to_string() const {
  if (host.find(':') != std::string::npos) return fmt::format("[{}]:{}", host, port);
  return fmt::format("{}:{}", host, port);
}

bool ConnectionSettings::uses_tls() const {
  return security_protocol == SecurityProtocol::kSsl ||
         security_protocol == SecurityProtocol::kSaslSsl;
}

bool ConnectionSettings::uses_sasl() const {
  return security_protocol == SecurityProtocol::kSaslPlaintext ||
         security_protocol == SecurityProtocol::kSaslSsl;
}

std::string_view to_string(SecurityProtocol protocol) {
  switch (protocol) {
    case SecurityProtocol::kPlaintext:
      return "PLAINTEXT";
    case SecurityProtocol::kSsl:
      return "SSL";
    case SecurityProtocol::kSaslPlaintext:
      return "SASL_PLAINTEXT";
    case SecurityProtocol::kSaslSsl:
      return "SASL_SSL";
  }
  return "?";
}

std::string_view to_string(SaslMechanism mechanism) {
  switch (mechanism) {
    case SaslMechanism::kPlain:
      return "PLAIN";
    case SaslMechanism::kScramSha256:
      return "SCRAM-SHA-256";
    case SaslMechanism::kScramSha512:
      return "SCRAM-SHA-512";
  }
  return "?";
}

SecurityProtocol parse_security_protocol(std::string_view text) {
  const std::string name = upper(trim(text));
  if (name == "PLAINTEXT") return SecurityProtocol::kPlaintext;
  if (name == "SSL") return SecurityProtocol::kSsl;
  if (name == "SASL_PLAINTEXT") return SecurityProtocol::kSaslPlaintext;
  if (name == "SASL_SSL") return SecurityProtocol::kSaslSsl;
  throw std::invalid_argument(fmt::format(
      "unknown security protocol '{}' (PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL)", trim(text)));
}

SaslMechanism parse_sasl_mechanism(std::string_view text) {
  const std::string name = upper(trim(text));
  if (name == "PLAIN") return SaslMechanism::kPlain;
  if (name == "SCRAM-SHA-256") return SaslMechanism::kScramSha256;
  if (name == "SCRAM-SHA-512") return SaslMechanism::kScramSha512;
  if (name == "GSSAPI" || name == "OAUTHBEARER")
    throw std::invalid_argument(fmt::format(
        "SASL mechanism {} is not supported by kepoch (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)",
        name));
  throw std::invalid_argument(fmt::format(
      "unknown SASL mechanism '{}' (PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512)", trim(text)));
}

std::vector<BrokerAddress> parse_bootstrap(std::string_view text) {
  std::vector<BrokerAddress> brokers;
  while (true) {
    const auto comma = text.find(',');
    const auto entry = trim(text.substr(0, comma));
    // An address may carry user:password@ (a URL habit Kafka does not read): the error
    // names the entry without the password (redaction.hpp).
    try {
      if (!entry.empty()) brokers.push_back(parse_one_broker(entry));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(without_credentials(e.what()));
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  if (brokers.empty()) throw std::invalid_argument("no broker given (host:port[,host:port...])");
  return brokers;
}

std::chrono::milliseconds parse_timeout_ms(std::string_view text) {
  const auto value_text = trim(text);
  long long value = 0;
  const auto [end, ec] =
      std::from_chars(value_text.data(), value_text.data() + value_text.size(), value);
  constexpr long long kDay = 24LL * 3600 * 1000;
  if (ec != std::errc{} || end != value_text.data() + value_text.size() || value <= 0 ||
      value > kDay)
    throw std::invalid_argument(
        fmt::format("'{}' is not a timeout in milliseconds (1..{})", value_text, kDay));
  return std::chrono::milliseconds(value);
}

std::vector<SettingRow> describe_settings(const ConnectionSettings& s) {
  const auto row = [&](std::string key, std::string value) {
    std::string source = source_of(s, key);
    return SettingRow{std::move(key), std::move(value), std::move(source)};
  };
  return {
      row("bootstrap.servers", bootstrap_value(s.bootstrap)),
      row("client.id", s.client_id),
      row("security.protocol", std::string(to_string(s.security_protocol))),
      row("sasl.mechanism", s.sasl_mechanism ? std::string(to_string(*s.sasl_mechanism)) : ""),
      row("sasl.username", s.sasl_username),
      row("sasl.password", secret_value(s.sasl_password)),
      row("ssl.ca.location", s.tls.ca_location.empty()
                                 ? "(system default)"
                                 : store_value(s.tls.ca_location, s.tls.ca_format)),
      row("ssl.truststore.password", secret_value(s.tls.ca_password)),
      row("ssl.certificate.location",
          store_value(s.tls.certificate_location, s.tls.keystore_format)),
      row("ssl.key.location", s.tls.key_location),
      row("ssl.keystore.password", secret_value(s.tls.keystore_password)),
      row("ssl.key.password", secret_value(s.tls.key_password)),
      row("ssl.endpoint.identification.algorithm", s.tls.verify_hostname ? "https" : "none"),
      row("timeout.ms", std::to_string(s.timeout.count())),
  };
}

void validate_settings(const ConnectionSettings& s) {
  if (s.bootstrap.empty())
    throw UsageError(
        "no bootstrap servers: give -b HOST:PORT, --cluster NAME, --command-config FILE "
        "with bootstrap.servers, or -X bootstrap.servers=...");
  if (s.uses_sasl()) {
    const auto why = fmt::format("security.protocol is {}", to_string(s.security_protocol));
    if (!s.sasl_mechanism) missing(s, "sasl.mechanism", "security.protocol", why);
    if (s.sasl_username.empty()) missing(s, "sasl.username", "security.protocol", why);
    if (s.sasl_password.empty()) missing(s, "sasl.password", "security.protocol", why);
  }
  if (s.tls.keystore_format == StoreFormat::kPem) {
    if (!s.tls.certificate_location.empty() && s.tls.key_location.empty())
      missing(s, "ssl.key.location", "ssl.certificate.location",
              "a client certificate needs its private key");
    if (s.tls.certificate_location.empty() && !s.tls.key_location.empty())
      missing(s, "ssl.certificate.location", "ssl.key.location",
              "a private key needs its certificate");
  }
}

}  // namespace kepoch::cluster
