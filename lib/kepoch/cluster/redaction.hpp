#pragma once
// Which configuration values are secrets, and how configuration is shown without them: the
// one rule behind every place kepoch echoes settings (`profile show` and `list` in every
// format, -v's settings table, error messages about a property or an address).
//
// A property is secret when Kafka types it ConfigDef.Type.PASSWORD (Password.toString prints
// "[hidden]"): SslConfigs (ssl.key.password, ssl.keystore.password, ssl.truststore.password,
// ssl.keystore.key, ssl.keystore.certificate.chain, ssl.truststore.certificates), SaslConfigs
// (sasl.jaas.config, sasl.oauthbearer.client.credentials.client.secret,
// sasl.oauthbearer.assertion.private.key.passphrase), the broker's PasswordEncoderConfigs
// (password.encoder.secret, password.encoder.old.secret), DelegationTokenManagerConfigs
// (delegation.token.secret.key, and its old name delegation.token.master.key), ZkConfigs
// (zookeeper.ssl.keystore.password, zookeeper.ssl.truststore.password); also under any
// prefix (listener.name.L.[mechanism.], producer., admin., ...). librdkafka's own secrets
// (sasl.password, ssl.key.pem, sasl.oauthbearer.client.secret, ...) and, for what neither
// names (Schema Registry's basic.auth.user.info, a plugin's own), any key whose words say
// password, secret, passphrase, credentials or user.info.
//
// sasl.jaas.config is shown with its login module and option names, every option value that
// may be a secret (password, clientSecret, user_NAME=... on brokers, anything naming a
// secret) as ***; an unparsable one as *** whole. A user:password@ in an address or URL keeps
// the user and loses the password.

#include <string>
#include <string_view>

namespace kepoch::cluster {

// Whether the value of property `key` is a secret (shown as ***).
bool is_secret_key(std::string_view key);

// Whether a JAAS option `name` carries a secret.
bool is_secret_jaas_option(std::string_view name);

// The value of `key` as kepoch may show it.
std::string shown_value(std::string_view key, std::string_view value);

// `text` with the password of every user:password@ (an address, a URL) replaced by ***.
std::string without_credentials(std::string_view text);

// A sasl.jaas.config value with its secret options' values as ***.
std::string shown_jaas_config(std::string_view text);

}  // namespace kepoch::cluster
