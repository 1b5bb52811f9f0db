// cluster/redaction: the one rule of what configuration kepoch never shows. Pins every
// property Kafka's ConfigDefs type PASSWORD (SslConfigs, SaslConfigs, BrokerSecurityConfigs,
// PasswordEncoderConfigs, DelegationTokenManagerConfigs, ZkConfigs: Password.toString's
// "[hidden]"), under listener prefixes too, JAAS options that carry secrets, and credentials
// in addresses.
#include <catch2/catch.hpp>

#include <string>

#include "kepoch/cluster/redaction.hpp"

using namespace kepoch::cluster;
using Catch::Matchers::Contains;

TEST_CASE("redaction: every Kafka PASSWORD-typed property is secret, under any prefix") {
  for (const char* key : {"ssl.key.password",
                          "ssl.keystore.password",
                          "ssl.truststore.password",
                          "ssl.keystore.key",
                          "ssl.keystore.certificate.chain",
                          "ssl.truststore.certificates",
                          "sasl.jaas.config",
                          "sasl.oauthbearer.client.credentials.client.secret",
                          "sasl.oauthbearer.assertion.private.key.passphrase",
                          "password.encoder.secret",
                          "password.encoder.old.secret",
                          "delegation.token.secret.key",
                          "delegation.token.master.key",
                          "zookeeper.ssl.keystore.password",
                          "zookeeper.ssl.truststore.password",
                          "sasl.password",
                          "ssl.key.pem",
                          "sasl.oauthbearer.client.secret",
                          "basic.auth.user.info",
                          "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config",
                          "listener.name.internal.ssl.keystore.password",
                          "producer.ssl.key.password",
                          "SSL.KEY.PASSWORD",
                          "my.plugin.api.secret"}) {
    INFO(key);
    CHECK(is_secret_key(key));
  }
  for (const char* key : {"ssl.keystore.location", "ssl.key.location", "sasl.mechanism",
                          "sasl.username", "bootstrap.servers", "security.protocol",
                          "sasl.oauthbearer.token.endpoint.url", "ssl.keystore.type"}) {
    INFO(key);
    CHECK_FALSE(is_secret_key(key));
  }
}

TEST_CASE("redaction: sasl.jaas.config keeps its module and names, loses its secrets") {
  const std::string shown = shown_value(
      "sasl.jaas.config",
      "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice\" "
      "password=\"alice-pw\" user_bob=\"bob-pw\";");
  CHECK_THAT(shown, Contains("PlainLoginModule required"));
  CHECK_THAT(shown, Contains("username=\"alice\""));
  CHECK_THAT(shown, Contains("password=***"));
  CHECK_THAT(shown, Contains("user_bob=***"));
  CHECK(shown.find("alice-pw") == std::string::npos);
  CHECK(shown.find("bob-pw") == std::string::npos);
  const std::string oauth =
      shown_value("listener.name.x.oauthbearer.sasl.jaas.config",
                  "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
                  "clientId=\"c\" clientSecret=\"s3cr3t\";");
  CHECK(oauth.find("s3cr3t") == std::string::npos);
  CHECK_THAT(oauth, Contains("clientSecret=***"));
  // Not JAAS as Kafka reads it: every part may be the secret.
  CHECK(shown_value("sasl.jaas.config", "password=\"x\" unterminated \"") == "***");
}

TEST_CASE("redaction: user:password@ in addresses and URLs keeps the user") {
  CHECK(without_credentials("alice:pw@kafka1:9092,bob:pw2@kafka2:9092") ==
        "alice:***@kafka1:9092,bob:***@kafka2:9092");
  CHECK(without_credentials("https://svc:tok3n@idp.example/token") ==
        "https://svc:***@idp.example/token");
  CHECK(without_credentials("'alice:pw@h:1' has no port") == "'alice:***@h:1' has no port");
  CHECK(without_credentials("kafka1:9092") == "kafka1:9092");
  CHECK(without_credentials("user@host:9092") == "user@host:9092");
  CHECK(shown_value("bootstrap.servers", "u:p4ss@h:1") == "u:***@h:1");
}
