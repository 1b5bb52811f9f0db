#include <stdlib.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/settings_sources.hpp"

using namespace kepoch::cluster;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// A scratch XDG_CONFIG_HOME, removed at the end of the test.
struct ScratchHome {
  fs::path dir;
  ScratchHome() {
    std::string pattern = (fs::temp_directory_path() / "kepoch-settings.XXXXXX").string();
    dir = mkdtemp(pattern.data());
    fs::create_directories(dir / "kepoch");
  }
  ~ScratchHome() { fs::remove_all(dir); }
  fs::path write(const std::string& name, const std::string& text) const {
    const auto path = dir / name;
    std::ofstream(path) << text;
    return path;
  }
  SettingsEnvironment env(std::optional<std::string> cluster = std::nullopt) const {
    return {std::move(cluster), dir.string(), "/nonexistent-home"};
  }
};

}  // namespace

TEST_CASE("profiles_path follows XDG_CONFIG_HOME, else HOME", "[cluster][sources]") {
  CHECK(profiles_path({std::nullopt, "/xdg", "/home/u"}) == "/xdg/kepoch/config.yaml");
  CHECK(profiles_path({std::nullopt, "relative", "/home/u"}) ==
        "/home/u/.config/kepoch/config.yaml");
  CHECK(profiles_path({std::nullopt, std::nullopt, "/home/u"}) ==
        "/home/u/.config/kepoch/config.yaml");
}

TEST_CASE("sources: profile < --command-config < -X < --bootstrap, setting by setting",
          "[cluster][sources]") {
  ScratchHome home;
  home.write("kepoch/profile.properties",
             "bootstrap.servers=from-profile-file:1\nsecurity.protocol=SASL_PLAINTEXT\n"
             "sasl.mechanism=PLAIN\nclient.id=profile-file\n");
  home.write("kepoch/config.yaml",
             "clusters:\n"
             "  prod:\n"
             "    command_config: profile.properties\n"
             "    properties:\n"
             "      sasl.username: profile-user\n"
             "      sasl.password: profile-pass\n"
             "      client.id: profile-props\n"
             "    bootstrap: from-profile:2\n");
  const auto cmd =
      home.write("cmd.properties", "sasl.mechanism=SCRAM-SHA-256\nrequest.timeout.ms=3000\n");

  ConnectionFlags flags;
  flags.cluster = "prod";
  auto s = resolve_connection_settings(flags, home.env());
  CHECK(s.bootstrap.at(0).to_string() == "from-profile:2");  // bootstrap: last in a profile
  CHECK(s.client_id == "profile-props");                     // properties over its file
  CHECK(s.sasl_mechanism == SaslMechanism::kPlain);
  CHECK(s.sources.at("bootstrap.servers") ==
        "profile prod (" + (home.dir / "kepoch/config.yaml").string() + ":8)");

  flags.command_config = cmd.string();
  flags.properties = {"sasl.username=x-user", "client.id=x1", "client.id=x2"};
  s = resolve_connection_settings(flags, home.env());
  CHECK(s.sasl_mechanism == SaslMechanism::kScramSha256);  // --command-config over the profile
  CHECK(s.sources.at("sasl.mechanism") == cmd.string() + ":1");
  CHECK(s.timeout.count() == 3000);
  CHECK(s.sasl_username == "x-user");  // -X over both
  CHECK(s.client_id == "x2");          // later -X wins
  CHECK(s.sasl_password.reveal() == "profile-pass");
  CHECK(s.security_protocol == SecurityProtocol::kSaslPlaintext);

  flags.bootstrap = "flag:3";
  flags.timeout = std::chrono::milliseconds(1500);
  s = resolve_connection_settings(flags, home.env());
  CHECK(s.bootstrap.at(0).to_string() == "flag:3");
  CHECK(s.sources.at("bootstrap.servers") == "--bootstrap");
  CHECK(s.timeout.count() == 1500);
}

TEST_CASE("sources: KEPOCH_CLUSTER picks the profile unless --cluster does", "[cluster][sources]") {
  ScratchHome home;
  home.write("kepoch/config.yaml",
             "clusters:\n  a:\n    bootstrap: a:1\n  b:\n    bootstrap: b:1\n");
  ConnectionFlags flags;
  CHECK(resolve_connection_settings(flags, home.env("a")).bootstrap.at(0).host == "a");
  flags.cluster = "b";
  CHECK(resolve_connection_settings(flags, home.env("a")).bootstrap.at(0).host == "b");
  flags.cluster = "c";
  CHECK_THROWS_WITH(resolve_connection_settings(flags, home.env()),
                    Contains("no cluster profile 'c' in") && Contains("(known: a, b)"));
  // No profile asked for: the config file is not read at all.
  ConnectionFlags plain;
  plain.bootstrap = "k:1";
  CHECK(resolve_connection_settings(plain, {std::nullopt, "/nonexistent", "/nonexistent"})
            .bootstrap.size() == 1);
}

TEST_CASE("sources: errors in a profile's properties name the config file and line",
          "[cluster][sources]") {
  ScratchHome home;
  home.write(
      "kepoch/config.yaml",
      "clusters:\n  prod:\n    bootstrap: k:1\n    properties:\n      sasl.mechanisms: GSSAPI\n");
  ConnectionFlags flags;
  flags.cluster = "prod";
  CHECK_THROWS_AS(resolve_connection_settings(flags, home.env()), kepoch::InputError);
  CHECK_THROWS_WITH(resolve_connection_settings(flags, home.env()),
                    Contains("config.yaml:5: clusters.prod.properties.sasl.mechanisms: SASL "
                             "mechanism GSSAPI is not supported"));
}

// The promise of issue #6: secrets never appear in -v output or in any error message.
TEST_CASE("sources: no secret ever appears in describe_settings or an error message",
          "[cluster][sources][secrets]") {
  ScratchHome home;
  const std::string secret = "Zq9-very-secret-Zq9";
  std::vector<std::string> messages;
  const auto attempt = [&](ConnectionFlags flags) {
    try {
      const auto s = resolve_connection_settings(flags, home.env());
      for (const auto& row : describe_settings(s))
        messages.push_back(row.value + " " + row.source);
    } catch (const std::exception& e) {
      messages.push_back(e.what());
    }
  };
  const auto jaas = [&](const std::string& tail) {
    return "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
           "username=\"u\" password=" +
           tail + "\n";
  };
  const auto with_file = [&](const std::string& text) {
    ConnectionFlags f;
    f.bootstrap = "k:1";
    f.command_config = home.write("c.properties", text).string();
    return f;
  };
  // Accepted settings, shown by describe_settings.
  attempt(with_file("security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n" +
                    jaas("\"" + secret + "\";") + "ssl.key.password=" + secret +
                    "\nssl.keystore.password=" + secret + "\nssl.truststore.password=" + secret +
                    "\n"));
  ConnectionFlags x;
  x.bootstrap = "k:1";
  x.properties = {"security.protocol=SASL_SSL",
                  "sasl.mechanism=PLAIN",
                  "sasl.username=u",
                  "sasl.password=" + secret,
                  "ssl.key.password=" + secret,
                  "ssl.keystore.password=" + secret};
  attempt(x);
  // Errors around secrets.
  attempt(with_file(jaas(secret + " trailing;")));
  attempt(with_file(jaas("\"" + secret)));
  attempt(with_file(jaas(secret + "#;")));
  attempt(with_file(jaas("\"" + secret + "\"")));
  attempt(with_file("sasl.mechanism=PLAIN\n" + jaas("\"" + secret + "\";")));
  attempt(with_file("ssl.keystore.location=k.jks\nssl.keystore.password=" + secret + "\n"));
  x.properties = {"sasl.password=" + secret, "bogus.property=1"};
  attempt(x);
  x.properties = {"sasl.password"};
  attempt(x);
  x.properties = {"sasl.password=" + secret, "security.protocol=SASL_SSL"};
  attempt(x);  // no mechanism, no user
  home.write("kepoch/config.yaml", "clusters:\n  p:\n    properties:\n      sasl.password: " +
                                       secret + "\n      x.y: 1\n");
  ConnectionFlags profile;
  profile.cluster = "p";
  attempt(profile);

  REQUIRE(messages.size() > 20);
  for (const auto& m : messages) {
    INFO(m);
    CHECK_THAT(m, !Contains(secret));
    CHECK_THAT(m, !Contains("Zq9"));
  }
}

TEST_CASE("sources: the current profile when no -b, --cluster, KEPOCH_CLUSTER or --command-config",
          "[cluster][sources]") {
  ScratchHome home;
  home.write("kepoch/config.yaml",
             "clusters:\n  a:\n    bootstrap: a:1\n  b:\n    bootstrap: b:1\ncurrent_profile: b\n");
  ConnectionFlags none;
  const auto current = resolve_connection_settings(none, home.env());
  CHECK(current.bootstrap.at(0).host == "b");
  CHECK(current.profile == "b");
  CHECK_THAT(current.profile_chosen_by,
             Contains("current_profile (") && Contains("config.yaml:6)"));
  // KEPOCH_CLUSTER, then --cluster, come before it.
  CHECK(resolve_connection_settings(none, home.env("a")).profile_chosen_by == "KEPOCH_CLUSTER");
  ConnectionFlags cluster;
  cluster.cluster = "a";
  CHECK(resolve_connection_settings(cluster, home.env("b")).profile_chosen_by == "--cluster");
  // -b alone: no profile at all.
  ConnectionFlags bootstrap;
  bootstrap.bootstrap = "k:1";
  const auto direct = resolve_connection_settings(bootstrap, home.env());
  CHECK(direct.profile.empty());
  CHECK(direct.bootstrap.at(0).host == "k");
  // A current profile that names no profile is the file's error, with its line.
  home.write("kepoch/config.yaml", "clusters:\n  a:\n    bootstrap: a:1\ncurrent_profile: gone\n");
  CHECK_THROWS_WITH(resolve_connection_settings(none, home.env()),
                    Contains("config.yaml:4") && Contains("current_profile gone names no profile"));
}
