#pragma once
// The value of the Java client's sasl.jaas.config, as Kafka's JaasConfig reads it (a
// java.io.StreamTokenizer over "LoginModuleClass controlFlag name=value ... ;"): words of
// letters, digits and . _ - $, double-quoted strings with backslash escapes, // and /* */
// comments. The Kafka client accepts exactly one login module.

#include <map>
#include <string>
#include <string_view>

namespace kepoch::cluster {

struct JaasLoginModule {
  std::string login_module;  // e.g. org.apache.kafka.common.security.plain.PlainLoginModule
  std::string control_flag;  // required, requisite, sufficient or optional
  std::map<std::string, std::string> options;  // may hold a password: never print values
};

// Throws std::invalid_argument; messages never quote option values (they may be secret).
JaasLoginModule parse_jaas_config(std::string_view text);

}  // namespace kepoch::cluster
