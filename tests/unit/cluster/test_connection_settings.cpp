#include <catch2/catch.hpp>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/connection_settings.hpp"

using namespace kepoch::cluster;
using Catch::Matchers::Contains;

TEST_CASE("parse_bootstrap reads host:port lists, IPv6 in brackets", "[cluster][settings]") {
  const auto brokers = parse_bootstrap(" k1.example.com:9092, 10.0.0.2:9093 ,[::1]:9094");
  REQUIRE(brokers.size() == 3);
  CHECK(brokers[0] == BrokerAddress{"k1.example.com", 9092});
  CHECK(brokers[1] == BrokerAddress{"10.0.0.2", 9093});
  CHECK(brokers[2] == BrokerAddress{"::1", 9094});
  CHECK(brokers[2].to_string() == "[::1]:9094");
  CHECK(brokers[0].to_string() == "k1.example.com:9092");
}

TEST_CASE("parse_bootstrap refuses entries without a usable port", "[cluster][settings]") {
  CHECK_THROWS_WITH(parse_bootstrap("k1"), Contains("'k1' has no port"));
  CHECK_THROWS_WITH(parse_bootstrap("k1:0"), Contains("1..65535"));
  CHECK_THROWS_WITH(parse_bootstrap("k1:70000"), Contains("1..65535"));
  CHECK_THROWS_WITH(parse_bootstrap("k1:90x"), Contains("1..65535"));
  CHECK_THROWS_WITH(parse_bootstrap(":9092"), Contains("has no host"));
  CHECK_THROWS_WITH(parse_bootstrap("::1:9092"), Contains("[addr]:port"));
  CHECK_THROWS_WITH(parse_bootstrap(" , "), Contains("no broker given"));
}

TEST_CASE("security protocols and SASL mechanisms by Kafka's names, any case",
          "[cluster][settings]") {
  CHECK(parse_security_protocol("sasl_ssl") == SecurityProtocol::kSaslSsl);
  CHECK(parse_security_protocol("PLAINTEXT") == SecurityProtocol::kPlaintext);
  CHECK(parse_security_protocol("Ssl") == SecurityProtocol::kSsl);
  CHECK(parse_security_protocol("SASL_PLAINTEXT") == SecurityProtocol::kSaslPlaintext);
  CHECK_THROWS_WITH(parse_security_protocol("TLS"), Contains("unknown security protocol 'TLS'"));
  CHECK(parse_sasl_mechanism("scram-sha-512") == SaslMechanism::kScramSha512);
  CHECK(parse_sasl_mechanism("SCRAM-SHA-256") == SaslMechanism::kScramSha256);
  CHECK(parse_sasl_mechanism("PLAIN") == SaslMechanism::kPlain);
  CHECK_THROWS_WITH(parse_sasl_mechanism("GSSAPI"), Contains("GSSAPI is not supported"));
  CHECK_THROWS_WITH(parse_sasl_mechanism("OAUTHBEARER"), Contains("OAUTHBEARER is not supported"));
  CHECK_THROWS_WITH(parse_sasl_mechanism("DIGEST-MD5"), Contains("unknown SASL mechanism"));
}

TEST_CASE("parse_timeout_ms takes positive milliseconds", "[cluster][settings]") {
  CHECK(parse_timeout_ms("2500").count() == 2500);
  CHECK_THROWS(parse_timeout_ms("0"));
  CHECK_THROWS(parse_timeout_ms("-5"));
  CHECK_THROWS(parse_timeout_ms("10s"));
}

TEST_CASE("describe_settings lists every setting with its source, secrets redacted",
          "[cluster][settings]") {
  ConnectionSettings s;
  s.bootstrap = parse_bootstrap("k1:9092");
  s.sources["bootstrap.servers"] = "--bootstrap";
  s.security_protocol = SecurityProtocol::kSaslSsl;
  s.sasl_mechanism = SaslMechanism::kScramSha512;
  s.sasl_username = "ops";
  s.sasl_password = Secret("hunter2-sasl");
  s.tls.key_password = Secret("hunter2-key");
  const auto rows = describe_settings(s);
  REQUIRE(rows.size() == 14);
  const auto value = [&](std::string_view key) {
    for (const auto& r : rows)
      if (r.key == key) return r.value + " | " + r.source;
    return std::string("missing");
  };
  CHECK(value("bootstrap.servers") == "k1:9092 | --bootstrap");
  CHECK(value("security.protocol") == "SASL_SSL | default");
  CHECK(value("sasl.mechanism") == "SCRAM-SHA-512 | default");
  CHECK(value("sasl.password") == "*** | default");
  CHECK(value("ssl.key.password") == "*** | default");
  CHECK(value("ssl.keystore.password") == " | default");
  CHECK(value("ssl.ca.location") == "(system default) | default");
  CHECK(value("ssl.endpoint.identification.algorithm") == "https | default");
  CHECK(value("timeout.ms") == "10000 | default");
  CHECK(value("client.id") == "kepoch | default");
  for (const auto& r : rows)
    CHECK_THAT(r.value, !Contains("hunter2"));
}

TEST_CASE("validate_settings names what is missing and why", "[cluster][settings]") {
  ConnectionSettings s;
  CHECK_THROWS_AS(validate_settings(s), kepoch::UsageError);
  CHECK_THROWS_WITH(validate_settings(s), Contains("no bootstrap servers"));
  s.bootstrap = parse_bootstrap("k1:9092");
  CHECK_NOTHROW(validate_settings(s));

  s.security_protocol = SecurityProtocol::kSaslPlaintext;
  s.sources["security.protocol"] = "-X security.protocol";
  CHECK_THROWS_WITH(validate_settings(s),
                    "sasl.mechanism is not set, but security.protocol is SASL_PLAINTEXT "
                    "(security.protocol: -X security.protocol)");
  s.sasl_mechanism = SaslMechanism::kPlain;
  CHECK_THROWS_WITH(validate_settings(s), Contains("sasl.username is not set"));
  s.sasl_username = "u";
  CHECK_THROWS_WITH(validate_settings(s), Contains("sasl.password is not set"));
  s.sasl_password = Secret("p");
  CHECK_NOTHROW(validate_settings(s));

  s.tls.certificate_location = "client.pem";
  CHECK_THROWS_WITH(validate_settings(s), Contains("ssl.key.location is not set"));
  s.tls.keystore_format = StoreFormat::kPkcs12;  // a PKCS#12 store holds the key
  CHECK_NOTHROW(validate_settings(s));
}
