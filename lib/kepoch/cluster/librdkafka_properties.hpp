#pragma once
// librdkafka configuration properties, as kcat's -X key=value takes them. Each pair is
// first set on a real librdkafka configuration object (Debian's librdkafka 2.0.2), so a
// misspelt name or an invalid value gets librdkafka's own message; then the subset kepoch
// honours is mapped onto ConnectionSettings and any other property is refused by name.
//
// Honoured: bootstrap.servers (metadata.broker.list), security.protocol,
// sasl.mechanisms (sasl.mechanism), sasl.username, sasl.password, ssl.ca.location,
// ssl.certificate.location, ssl.key.location, ssl.key.password, ssl.keystore.location and
// ssl.keystore.password (PKCS#12), ssl.endpoint.identification.algorithm (none|https),
// client.id, socket.timeout.ms.

#include <string>
#include <string_view>
#include <vector>

#include "kepoch/cluster/connection_settings.hpp"

namespace kepoch::cluster {

// Applies one property; `source` is recorded for describe_settings. Throws
// std::invalid_argument with a message that never contains a secret value.
void apply_librdkafka_property(ConnectionSettings& settings, std::string_view key,
                               std::string_view value, const std::string& source);

// librdkafka's verdict on key=value (rd_kafka_conf_set on a fresh configuration): empty
// when accepted, else its error text.
std::string librdkafka_check(std::string_view key, std::string_view value);

// The property names kepoch maps, for messages and completions.
const std::vector<std::string_view>& honoured_librdkafka_properties();

// True for properties whose value is a secret (passwords).
bool is_secret_property(std::string_view key);

// `text` with every occurrence of `secret` replaced by "***" (nothing when secret is empty).
std::string redact(std::string text, std::string_view secret);

}  // namespace kepoch::cluster
