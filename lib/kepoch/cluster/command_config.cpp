#include "kepoch/cluster/command_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "kepoch/base/error.hpp"
#include "kepoch/base/java_properties.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/cluster/jaas_config.hpp"

namespace kepoch::cluster {
namespace {

constexpr std::uint64_t kMaxFileBytes = 1 << 20;
constexpr std::string_view kPlainModule = "org.apache.kafka.common.security.plain.PlainLoginModule";
constexpr std::string_view kScramModule = "org.apache.kafka.common.security.scram.ScramLoginModule";

// Keys whose meaning kepoch cannot reproduce: silently ignoring them would connect
// differently from the Java client.
constexpr std::array kUnmappable = {
    std::string_view("sasl.client.callback.handler.class"),
    std::string_view("sasl.login.callback.handler.class"),
    std::string_view("sasl.login.class"),
    std::string_view("ssl.truststore.certificates"),
    std::string_view("ssl.keystore.certificate.chain"),
    std::string_view("ssl.keystore.key"),
    std::string_view("ssl.engine.factory.class"),
    std::string_view("security.providers"),
};

std::string upper(std::string_view text) {
  std::string out(text);
  for (auto& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

class Mapper {
 public:
  Mapper(ConnectionSettings& settings, const java::PropertiesParse& props, std::string path)
      : s_(settings), props_(props), path_(std::move(path)) {}

  void run() {
    refuse_unmappable();
    map_simple();
    map_sasl();
    map_truststore();
    map_keystore();
  }

 private:
  [[noreturn]] void fail(const java::Property& p, const std::string& what) const {
    throw InputError(path_, fmt::format("{}: {}", p.key, what), p.line);
  }

  std::string source(const java::Property& p) const { return fmt::format("{}:{}", path_, p.line); }

  void record(std::string_view key, const java::Property& p) {
    s_.sources[std::string(key)] = source(p);
  }

  // Runs a value parser; its std::invalid_argument becomes path:line: key: message.
  template <typename F>
  auto parse(const java::Property& p, F&& parser) const {
    try {
      return parser(p.value);
    } catch (const std::invalid_argument& e) {
      fail(p, e.what());
    }
  }

  void refuse_unmappable() const {
    for (const auto key : kUnmappable)
      if (const auto* p = props_.find(key))
        fail(*p, "kepoch cannot honour this setting (it has its own SSL and SASL code)");
  }

  void map_simple() {
    if (const auto* p = props_.find("bootstrap.servers")) {
      s_.bootstrap = parse(*p, [](std::string_view v) { return parse_bootstrap(v); });
      record("bootstrap.servers", *p);
    }
    if (const auto* p = props_.find("client.id")) {
      s_.client_id = p->value;
      record("client.id", *p);
    }
    if (const auto* p = props_.find("security.protocol")) {
      s_.security_protocol =
          parse(*p, [](std::string_view v) { return parse_security_protocol(v); });
      record("security.protocol", *p);
    }
    if (const auto* p = props_.find("request.timeout.ms")) {
      s_.timeout = parse(*p, [](std::string_view v) { return parse_timeout_ms(v); });
      record("timeout.ms", *p);
    }
    if (const auto* p = props_.find("ssl.endpoint.identification.algorithm")) {
      // Java: an empty value turns hostname verification off; https is the only algorithm.
      if (p->value.empty()) {
        s_.tls.verify_hostname = false;
      } else if (upper(p->value) == "HTTPS") {
        s_.tls.verify_hostname = true;
      } else {
        fail(*p, fmt::format("'{}' is not https or empty", p->value));
      }
      record("ssl.endpoint.identification.algorithm", *p);
    }
  }

  void map_sasl() {
    const auto* mechanism = props_.find("sasl.mechanism");
    if (mechanism) {
      s_.sasl_mechanism =
          parse(*mechanism, [](std::string_view v) { return parse_sasl_mechanism(v); });
      record("sasl.mechanism", *mechanism);
    }
    const auto* jaas = props_.find("sasl.jaas.config");
    if (!jaas) return;
    auto module = parse(*jaas, [](std::string_view v) { return parse_jaas_config(v); });
    const bool plain = module.login_module == kPlainModule;
    if (!plain && module.login_module != kScramModule)
      fail(*jaas, fmt::format("login module {} is not supported (PlainLoginModule or "
                              "ScramLoginModule)",
                              module.login_module));
    if (mechanism && s_.sasl_mechanism) {
      const bool wants_plain = *s_.sasl_mechanism == SaslMechanism::kPlain;
      if (plain != wants_plain)
        fail(*jaas, fmt::format("{} does not fit sasl.mechanism={}", module.login_module,
                                to_string(*s_.sasl_mechanism)));
    }
    const auto user = module.options.find("username");
    const auto password = module.options.find("password");
    if (user == module.options.end() || password == module.options.end())
      fail(*jaas, "the login module needs username=\"...\" and password=\"...\"");
    s_.sasl_username = user->second;
    s_.sasl_password = Secret(std::move(password->second));
    record("sasl.username", *jaas);
    record("sasl.password", *jaas);
  }

  // Java's default store type is JKS, which OpenSSL cannot read.
  StoreFormat store_format(const char* type_key, const java::Property& location,
                           std::string_view convert_hint) const {
    const auto* type = props_.find(type_key);
    const std::string name = type ? upper(type->value) : "JKS";
    if (name == "PEM") return StoreFormat::kPem;
    if (name == "PKCS12") return StoreFormat::kPkcs12;
    const auto& at = type ? *type : location;
    if (name == "JKS")
      fail(at,
           fmt::format("{} is a JKS store{}, which kepoch cannot read; {}, and set {}",
                       location.key, type ? "" : " (Java's default type)", convert_hint, type_key));
    fail(at, fmt::format("store type '{}' is not supported (PEM or PKCS12)", type->value));
  }

  void map_password(std::string_view key, Secret& to) {
    if (const auto* p = props_.find(key)) {
      to = Secret(p->value);
      record(key, *p);
    }
  }

  void map_truststore() {
    const auto* location = props_.find("ssl.truststore.location");
    if (!location) return;
    s_.tls.ca_format = store_format(
        "ssl.truststore.type", *location,
        "convert it to PEM (keytool -exportcert -rfc -keystore truststore.jks -alias CARoot "
        "-file ca.pem; ssl.truststore.type=PEM) or to PKCS12 (keytool -importkeystore "
        "-srckeystore truststore.jks -destkeystore truststore.p12 -deststoretype PKCS12)");
    s_.tls.ca_location = location->value;
    record("ssl.ca.location", *location);
    map_password("ssl.truststore.password", s_.tls.ca_password);
  }

  void map_keystore() {
    map_password("ssl.key.password", s_.tls.key_password);
    const auto* location = props_.find("ssl.keystore.location");
    if (!location) return;
    s_.tls.keystore_format = store_format(
        "ssl.keystore.type", *location,
        "convert it to PKCS12 (keytool -importkeystore -srckeystore keystore.jks "
        "-destkeystore keystore.p12 -deststoretype PKCS12; ssl.keystore.type=PKCS12), or from "
        "there to PEM (openssl pkcs12 -in keystore.p12 -out keystore.pem; ssl.keystore.type=PEM)");
    // A PEM key store holds the private key and the certificate chain in one file.
    s_.tls.certificate_location = location->value;
    s_.tls.key_location = s_.tls.keystore_format == StoreFormat::kPem ? location->value : "";
    record("ssl.certificate.location", *location);
    if (s_.tls.keystore_format == StoreFormat::kPem) record("ssl.key.location", *location);
    map_password("ssl.keystore.password", s_.tls.keystore_password);
  }

  ConnectionSettings& s_;
  const java::PropertiesParse& props_;
  std::string path_;
};

}  // namespace

void apply_command_config_text(ConnectionSettings& settings, std::string_view bytes,
                               const std::string& path) {
  const auto props = java::load_properties(bytes);
  if (props.error) throw InputError(path, *props.error, props.error_line);
  Mapper(settings, props, path).run();
}

void apply_command_config(ConnectionSettings& settings, const std::filesystem::path& path) {
  apply_command_config_text(settings, read_small_file(path, kMaxFileBytes), path.string());
}

}  // namespace kepoch::cluster
