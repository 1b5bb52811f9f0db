#pragma once
// The Java client's properties file, as kafka-topics --command-config and the other Kafka
// tools read it (java.util.Properties). Mapped keys:
//   bootstrap.servers, client.id, security.protocol, sasl.mechanism,
//   sasl.jaas.config        PlainLoginModule or ScramLoginModule with username="..."
//                           password="..." (the module must fit sasl.mechanism)
//   ssl.truststore.location/.type/.password   type PEM or PKCS12; JKS (Java's default
//                           type) cannot be read: the error says how to convert it
//   ssl.keystore.location/.type/.password, ssl.key.password   likewise (a PEM key store
//                           holds the private key and the certificate chain)
//   ssl.endpoint.identification.algorithm     https, or empty for no hostname check
//   request.timeout.ms
// Settings kepoch cannot honour (GSSAPI, OAUTHBEARER, other login modules, callback
// handlers, inline PEM) are a one-line error naming the key and line. Other keys (acks,
// retries, ...) concern producers or consumers and are ignored, as a shared file needs.

#include <filesystem>
#include <string_view>

#include "kepoch/cluster/connection_settings.hpp"

namespace kepoch::cluster {

// Reads the file and applies it. Throws InputError (path:line: key: what).
void apply_command_config(ConnectionSettings& settings, const std::filesystem::path& path);

// The same over the file's bytes; `path` names it in errors and sources. Relative store
// locations stay as written (Java resolves them against the working directory too).
void apply_command_config_text(ConnectionSettings& settings, std::string_view bytes,
                               const std::string& path);

}  // namespace kepoch::cluster
