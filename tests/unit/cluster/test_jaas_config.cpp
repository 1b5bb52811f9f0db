#include <catch2/catch.hpp>

#include "kepoch/cluster/jaas_config.hpp"

using namespace kepoch::cluster;
using Catch::Matchers::Contains;

TEST_CASE("parse_jaas_config reads a Kafka client's login module", "[cluster][jaas]") {
  const auto m = parse_jaas_config(
      "org.apache.kafka.common.security.scram.ScramLoginModule required\n"
      "  username=\"alice\" password=\"a \\\"quoted\\\" secret;\" // comment\n"
      "  /* block */ tokenauth=true;");
  CHECK(m.login_module == "org.apache.kafka.common.security.scram.ScramLoginModule");
  CHECK(m.control_flag == "required");
  CHECK(m.options.at("username") == "alice");
  CHECK(m.options.at("password") == "a \"quoted\" secret;");
  CHECK(m.options.at("tokenauth") == "true");
}

TEST_CASE("parse_jaas_config: unquoted words and escapes as StreamTokenizer reads them",
          "[cluster][jaas]") {
  const auto m = parse_jaas_config(
      "org.apache.kafka.common.security.plain.PlainLoginModule optional user_name=bob "
      "password=\"tab\\there\\101\";");
  CHECK(m.control_flag == "optional");
  CHECK(m.options.at("user_name") == "bob");
  CHECK(m.options.at("password") ==
        "tab\there"
        "A");
}

TEST_CASE("parse_jaas_config refuses malformed entries without quoting values", "[cluster][jaas]") {
  const std::string secret = "s3cr3t-value";
  const std::vector<std::string> bad = {
      "Module required username=\"u\" password=\"" + secret + "\"",  // no ';'
      "Module username=\"u\" password=\"" + secret + "\";",          // no control flag
      "Module required password=" + secret + " stray;",              // option without '='
      "Module required password=\"" + secret,                        // unterminated quote
      "Module required password=" + secret + "@x;",                  // a character outside words
      "Module required password=;",
      "A required; B required;",  // the Kafka client takes one module
      "",
  };
  for (const auto& text : bad) {
    INFO(text);
    try {
      parse_jaas_config(text);
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK_THAT(std::string(e.what()), !Contains(secret));
      CHECK_THAT(std::string(e.what()), !Contains("stray"));
    }
  }
  CHECK_THROWS_WITH(parse_jaas_config("A required; B required;"),
                    Contains("contains 2 login modules, should be 1 module"));
  CHECK_THROWS_WITH(parse_jaas_config("Module sometimes;"), Contains("invalid control flag"));
}
