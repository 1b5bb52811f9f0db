#pragma once
// How kepoch reaches a cluster: the bootstrap brokers, the security protocol, SASL
// credentials and TLS material, as Kafka's clients name them. The values come from several
// sources (settings_sources.hpp); each setting remembers which one set it, so `-v` can show
// (key, value, source) rows with the secrets redacted.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/cluster/secret.hpp"

namespace kepoch::cluster {

// Kafka's SecurityProtocol, less SASL-free Kerberos variants it does not have.
enum class SecurityProtocol { kPlaintext, kSsl, kSaslPlaintext, kSaslSsl };
enum class SaslMechanism { kPlain, kScramSha256, kScramSha512 };
// How a trust store or key store file is encoded. Java's JKS is not readable here.
enum class StoreFormat { kPem, kPkcs12 };

struct BrokerAddress {
  std::string host;  // a name or an IP literal (IPv6 without brackets)
  std::uint16_t port = 0;

  std::string to_string() const;  // host:port, [v6]:port
  friend bool operator==(const BrokerAddress&, const BrokerAddress&) = default;
};

struct TlsSettings {
  // Trust: a PEM file or a directory of hashed PEM certificates, or a PKCS#12 trust store;
  // empty: OpenSSL's default verify paths (the system's CA bundle).
  std::string ca_location;
  StoreFormat ca_format = StoreFormat::kPem;
  Secret ca_password;  // PKCS#12 only
  // Our own certificate (client authentication): a PEM chain with key_location holding the
  // PEM private key (which may be the same file), or a PKCS#12 key store.
  std::string certificate_location;
  std::string key_location;
  StoreFormat keystore_format = StoreFormat::kPem;
  Secret keystore_password;  // PKCS#12 only
  Secret key_password;       // an encrypted PEM private key
  // ssl.endpoint.identification.algorithm=https: the broker's certificate must name the
  // host we connected to. On by default, as in the Java client and librdkafka 2.x.
  bool verify_hostname = true;
};

struct ConnectionSettings {
  std::vector<BrokerAddress> bootstrap;
  std::string client_id = "kepoch";
  SecurityProtocol security_protocol = SecurityProtocol::kPlaintext;
  std::optional<SaslMechanism> sasl_mechanism;
  std::string sasl_username;
  Secret sasl_password;
  TlsSettings tls;
  // Bounds connection set-up (connect, TLS, version and SASL exchanges) and each request.
  std::chrono::milliseconds timeout{10000};

  // The profile applied ("" for none) and what chose it: "--cluster", "KEPOCH_CLUSTER" or
  // "current_profile (<file>:<line>)".
  std::string profile;
  std::string profile_chosen_by;

  // Which source set each setting, by the keys of describe_settings (absent: default).
  std::map<std::string, std::string, std::less<>> sources;

  bool uses_tls() const;
  bool uses_sasl() const;
};

struct SettingRow {
  std::string key;
  std::string value;  // secrets are "***" (or empty when unset)
  std::string source;
};

// Every setting, in a fixed order, for a `-v` view. No secret ever appears in it.
std::vector<SettingRow> describe_settings(const ConnectionSettings& settings);

// Checks that the settings can be used: a bootstrap list, a SASL mechanism and credentials
// for SASL_*, a private key with a PEM certificate. Throws UsageError naming the setting
// and where the setting that requires it came from.
void validate_settings(const ConnectionSettings& settings);

// Names as Kafka writes them (SASL_SSL, SCRAM-SHA-256).
std::string_view to_string(SecurityProtocol protocol);
std::string_view to_string(SaslMechanism mechanism);

// Parsers of setting values. Each throws std::invalid_argument with a message that does
// not repeat the value when it may be secret; the source wraps it with the key and where.
// Case-insensitive, as both Java (toUpperCase) and librdkafka accept.
SecurityProtocol parse_security_protocol(std::string_view text);
// GSSAPI and OAUTHBEARER are Kafka mechanisms kepoch does not speak: named in the message.
SaslMechanism parse_sasl_mechanism(std::string_view text);
// "h1:9092,h2:9092" (white space around entries ignored, "[::1]:9092" for IPv6).
std::vector<BrokerAddress> parse_bootstrap(std::string_view text);
// A positive count of milliseconds, at most a day.
std::chrono::milliseconds parse_timeout_ms(std::string_view text);

}  // namespace kepoch::cluster
