#include <catch2/catch.hpp>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/command_config.hpp"

using namespace kepoch::cluster;
using Catch::Matchers::Contains;

namespace {

ConnectionSettings apply(const std::string& text) {
  ConnectionSettings s;
  apply_command_config_text(s, text, "client.properties");
  return s;
}

std::string error_of(const std::string& text) {
  try {
    apply(text);
  } catch (const kepoch::InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("command config: a SASL_SSL SCRAM client file as the Kafka docs write it",
          "[cluster][command-config]") {
  const auto s = apply(
      "# admin client\n"
      "bootstrap.servers=k1:9093,k2:9093\n"
      "security.protocol=SASL_SSL\n"
      "sasl.mechanism=SCRAM-SHA-512\n"
      "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n"
      "    username=\"ops\" \\\n"
      "    password=\"ops-secret\";\n"
      "ssl.truststore.location=/etc/kafka/ca.pem\n"
      "ssl.truststore.type=PEM\n"
      "ssl.endpoint.identification.algorithm=\n"
      "request.timeout.ms=5000\n"
      "client.id=ops-tool\n"
      "acks=all\n");  // a producer setting: ignored
  REQUIRE(s.bootstrap.size() == 2);
  CHECK(s.bootstrap[1].to_string() == "k2:9093");
  CHECK(s.security_protocol == SecurityProtocol::kSaslSsl);
  CHECK(s.sasl_mechanism == SaslMechanism::kScramSha512);
  CHECK(s.sasl_username == "ops");
  CHECK(s.sasl_password.reveal() == "ops-secret");
  CHECK(s.tls.ca_location == "/etc/kafka/ca.pem");
  CHECK(s.tls.ca_format == StoreFormat::kPem);
  CHECK_FALSE(s.tls.verify_hostname);
  CHECK(s.timeout.count() == 5000);
  CHECK(s.client_id == "ops-tool");
  CHECK(s.sources.at("sasl.password") == "client.properties:5");
  CHECK(s.sources.at("ssl.ca.location") == "client.properties:8");
  CHECK(s.sources.at("bootstrap.servers") == "client.properties:2");
}

TEST_CASE("command config: PEM and PKCS12 key stores", "[cluster][command-config]") {
  auto s = apply("ssl.keystore.location=client.pem\nssl.keystore.type=pem\nssl.key.password=kp\n");
  CHECK(s.tls.certificate_location == "client.pem");
  CHECK(s.tls.key_location == "client.pem");  // one file holds key and chain
  CHECK(s.tls.key_password.reveal() == "kp");
  s = apply(
      "ssl.keystore.location=client.p12\nssl.keystore.type=PKCS12\nssl.keystore.password=sp\n"
      "ssl.truststore.location=trust.p12\nssl.truststore.type=PKCS12\n"
      "ssl.truststore.password=tp\n");
  CHECK(s.tls.keystore_format == StoreFormat::kPkcs12);
  CHECK(s.tls.key_location.empty());
  CHECK(s.tls.keystore_password.reveal() == "sp");
  CHECK(s.tls.ca_format == StoreFormat::kPkcs12);
  CHECK(s.tls.ca_password.reveal() == "tp");
}

TEST_CASE("command config: JKS stores get a conversion hint naming the key",
          "[cluster][command-config]") {
  // No type: Java's default, JKS.
  const auto e = error_of("ssl.truststore.location=/etc/kafka/truststore.jks\n");
  CHECK_THAT(e, Contains("client.properties:1: ssl.truststore.location: "));
  CHECK_THAT(e, Contains("is a JKS store (Java's default type), which kepoch cannot read"));
  CHECK_THAT(e, Contains("keytool -exportcert -rfc"));
  CHECK_THAT(e, Contains("ssl.truststore.type"));
  const auto k = error_of("ssl.keystore.location=k.jks\nssl.keystore.type=JKS\n");
  CHECK_THAT(k, Contains("client.properties:2: ssl.keystore.type: "));
  CHECK_THAT(k, Contains("keytool -importkeystore"));
  CHECK_THAT(error_of("ssl.truststore.location=t\nssl.truststore.type=BKS\n"),
             Contains("store type 'BKS' is not supported"));
}

TEST_CASE("command config: what kepoch cannot honour is a one-line error naming the key",
          "[cluster][command-config]") {
  CHECK(error_of("security.protocol=SASL_SSL\nsasl.mechanism=GSSAPI\n") ==
        "client.properties:2: sasl.mechanism: SASL mechanism GSSAPI is not supported by kepoch "
        "(PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)");
  CHECK_THAT(error_of("sasl.mechanism=OAUTHBEARER\n"),
             Contains("sasl.mechanism: SASL mechanism OAUTHBEARER"));
  CHECK_THAT(error_of("sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required;\n"),
             Contains("client.properties:1: sasl.jaas.config: login module "
                      "com.sun.security.auth.module.Krb5LoginModule is not supported"));
  CHECK_THAT(error_of("sasl.login.callback.handler.class=x.Y\n"),
             Contains("sasl.login.callback.handler.class: kepoch cannot honour"));
  CHECK_THAT(error_of("ssl.truststore.certificates=-----BEGIN...\n"),
             Contains("ssl.truststore.certificates"));
  CHECK_THAT(error_of("ssl.endpoint.identification.algorithm=ldap\n"),
             Contains("not https or empty"));
  CHECK_THAT(error_of("request.timeout.ms=soon\n"), Contains("request.timeout.ms: 'soon'"));
  CHECK_THAT(error_of("bootstrap.servers=k1\n"), Contains("bootstrap.servers: 'k1' has no port"));
}

TEST_CASE("command config: the login module must fit sasl.mechanism", "[cluster][command-config]") {
  CHECK_THAT(error_of("sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security."
                      "scram.ScramLoginModule required username=\"u\" password=\"p\";\n"),
             Contains("ScramLoginModule does not fit sasl.mechanism=PLAIN"));
  CHECK_THAT(error_of("sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule "
                      "required username=\"u\";\n"),
             Contains("needs username=\"...\" and password=\"...\""));
  const auto s = apply(
      "sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain."
      "PlainLoginModule required username=\"alice\" password=\"alice-secret\";\n");
  CHECK(s.sasl_username == "alice");
  CHECK(s.sasl_password.reveal() == "alice-secret");
}

TEST_CASE("command config: a malformed file names its line", "[cluster][command-config]") {
  CHECK_THAT(error_of("a=1\nb=\\u12\n"),
             Contains("client.properties:2: Malformed \\uxxxx encoding."));
  ConnectionSettings s;
  CHECK_THROWS_WITH(apply_command_config(s, "/nonexistent/x.properties"),
                    Contains("/nonexistent/x.properties"));
}
