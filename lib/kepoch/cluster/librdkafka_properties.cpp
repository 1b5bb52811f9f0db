#include "kepoch/cluster/librdkafka_properties.hpp"

#include <fmt/format.h>
#include <librdkafka/rdkafka.h>

#include <array>
#include <memory>
#include <stdexcept>

#include "kepoch/cluster/redaction.hpp"

namespace kepoch::cluster {
namespace {

struct ConfDeleter {
  void operator()(rd_kafka_conf_t* conf) const { rd_kafka_conf_destroy(conf); }
};

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

void record(ConnectionSettings& s, std::string_view key, const std::string& source) {
  s.sources[std::string(key)] = source;
}

// ssl.ca.location: a file or a directory, as librdkafka reads it. "probe" (search the
// usual places) is what OpenSSL's default paths already do.
void apply_ca_location(ConnectionSettings& s, std::string_view value, const std::string& src) {
  s.tls.ca_location = value == "probe" ? std::string() : std::string(value);
  s.tls.ca_format = StoreFormat::kPem;
  record(s, "ssl.ca.location", src);
}

bool apply_ssl(ConnectionSettings& s, std::string_view key, std::string_view value,
               const std::string& src) {
  if (key == "ssl.ca.location") {
    apply_ca_location(s, value, src);
  } else if (key == "ssl.certificate.location") {
    s.tls.certificate_location = value;
    s.tls.keystore_format = StoreFormat::kPem;
    record(s, "ssl.certificate.location", src);
  } else if (key == "ssl.key.location") {
    s.tls.key_location = value;
    record(s, "ssl.key.location", src);
  } else if (key == "ssl.key.password") {
    s.tls.key_password = Secret(std::string(value));
    record(s, "ssl.key.password", src);
  } else if (key == "ssl.keystore.location") {
    s.tls.certificate_location = value;
    s.tls.key_location.clear();
    s.tls.keystore_format = StoreFormat::kPkcs12;
    record(s, "ssl.certificate.location", src);
  } else if (key == "ssl.keystore.password") {
    s.tls.keystore_password = Secret(std::string(value));
    record(s, "ssl.keystore.password", src);
  } else if (key == "ssl.endpoint.identification.algorithm") {
    // librdkafka has already refused anything but none and https.
    s.tls.verify_hostname = equals_ignore_case(value, "https");
    record(s, "ssl.endpoint.identification.algorithm", src);
  } else {
    return false;
  }
  return true;
}

bool apply_general(ConnectionSettings& s, std::string_view key, std::string_view value,
                   const std::string& src) {
  if (key == "bootstrap.servers" || key == "metadata.broker.list") {
    s.bootstrap = parse_bootstrap(value);
    record(s, "bootstrap.servers", src);
  } else if (key == "security.protocol") {
    s.security_protocol = parse_security_protocol(value);
    record(s, "security.protocol", src);
  } else if (key == "sasl.mechanisms" || key == "sasl.mechanism") {
    s.sasl_mechanism = parse_sasl_mechanism(value);
    record(s, "sasl.mechanism", src);
  } else if (key == "sasl.username") {
    s.sasl_username = value;
    record(s, "sasl.username", src);
  } else if (key == "sasl.password") {
    s.sasl_password = Secret(std::string(value));
    record(s, "sasl.password", src);
  } else if (key == "client.id") {
    s.client_id = value;
    record(s, "client.id", src);
  } else if (key == "socket.timeout.ms") {
    s.timeout = parse_timeout_ms(value);
    record(s, "timeout.ms", src);
  } else {
    return false;
  }
  return true;
}

}  // namespace

const std::vector<std::string_view>& honoured_librdkafka_properties() {
  static const std::vector<std::string_view> names = {"bootstrap.servers",
                                                      "metadata.broker.list",
                                                      "security.protocol",
                                                      "sasl.mechanisms",
                                                      "sasl.mechanism",
                                                      "sasl.username",
                                                      "sasl.password",
                                                      "ssl.ca.location",
                                                      "ssl.certificate.location",
                                                      "ssl.key.location",
                                                      "ssl.key.password",
                                                      "ssl.keystore.location",
                                                      "ssl.keystore.password",
                                                      "ssl.endpoint.identification.algorithm",
                                                      "client.id",
                                                      "socket.timeout.ms"};
  return names;
}

// The one rule of what is secret (redaction.hpp: Kafka's PASSWORD-typed properties and more).
bool is_secret_property(std::string_view key) {
  return is_secret_key(key);
}

std::string redact(std::string text, std::string_view secret) {
  if (secret.empty()) return text;
  for (auto at = text.find(secret); at != std::string::npos;
       at = text.find(secret, at + kRedacted.size()))
    text.replace(at, secret.size(), kRedacted);
  return text;
}

std::string librdkafka_check(std::string_view key, std::string_view value) {
  std::unique_ptr<rd_kafka_conf_t, ConfDeleter> conf(rd_kafka_conf_new());
  std::array<char, 512> error{};
  const std::string k(key);
  const std::string v(value);
  if (rd_kafka_conf_set(conf.get(), k.c_str(), v.c_str(), error.data(), error.size()) ==
      RD_KAFKA_CONF_OK)
    return {};
  return trimmed(error.data());
}

void apply_librdkafka_property(ConnectionSettings& settings, std::string_view key,
                               std::string_view value, const std::string& source) {
  if (const auto error = librdkafka_check(key, value); !error.empty())
    throw std::invalid_argument(is_secret_property(key) ? redact(error, value) : error);
  if (apply_general(settings, key, value, source) || apply_ssl(settings, key, value, source))
    return;
  throw std::invalid_argument(
      fmt::format("librdkafka property {} is not one kepoch honours (it maps: {})", key,
                  fmt::join(honoured_librdkafka_properties(), ", ")));
}

}  // namespace kepoch::cluster
