#include "kepoch/cluster/settings_sources.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_profiles.hpp"
#include "kepoch/cluster/command_config.hpp"
#include "kepoch/cluster/librdkafka_properties.hpp"
#include "kepoch/cluster/redaction.hpp"

namespace kepoch::cluster {
namespace {

std::optional<std::string> env_var(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

void apply_profile(ConnectionSettings& settings, const ClusterProfile& profile) {
  if (profile.command_config) apply_command_config(settings, *profile.command_config);
  for (const auto& property : profile.properties) {
    const auto where = fmt::format("{}:{}", profile.path, property.line);
    try {
      apply_librdkafka_property(settings, property.key, property.value,
                                fmt::format("profile {} ({})", profile.name, where));
    } catch (const std::invalid_argument& e) {
      throw InputError(
          profile.path,
          fmt::format("clusters.{}.properties.{}: {}", profile.name, property.key, e.what()),
          property.line);
    }
  }
  if (profile.bootstrap) {
    try {
      settings.bootstrap = parse_bootstrap(*profile.bootstrap);
    } catch (const std::invalid_argument& e) {
      throw InputError(profile.path,
                       fmt::format("clusters.{}.bootstrap: {}", profile.name, e.what()),
                       profile.bootstrap_line);
    }
    settings.sources["bootstrap.servers"] =
        fmt::format("profile {} ({}:{})", profile.name, profile.path, profile.bootstrap_line);
  }
}

struct ChosenProfile {
  std::string name;
  std::string chosen_by;
};

// --cluster, else KEPOCH_CLUSTER, else (when the command line names no broker: no -b, no
// --command-config) the config file's current_profile.
std::optional<ChosenProfile> chosen_profile(const ConnectionFlags& flags,
                                            const SettingsEnvironment& env) {
  if (flags.cluster) return ChosenProfile{*flags.cluster, "--cluster"};
  if (env.kepoch_cluster && !env.kepoch_cluster->empty())
    return ChosenProfile{*env.kepoch_cluster, "KEPOCH_CLUSTER"};
  if (flags.bootstrap || flags.command_config) return std::nullopt;
  const ProfilesFile file = load_profiles_file(profiles_path(env));
  if (file.current_profile)
    return ChosenProfile{*file.current_profile, fmt::format("current_profile ({}:{})", file.path,
                                                            file.current_profile_line)};
  return std::nullopt;
}

}  // namespace

SettingsEnvironment SettingsEnvironment::from_process() {
  return {env_var("KEPOCH_CLUSTER"), env_var("XDG_CONFIG_HOME"), env_var("HOME")};
}

std::filesystem::path profiles_path(const SettingsEnvironment& env) {
  if (env.xdg_config_home && std::filesystem::path(*env.xdg_config_home).is_absolute())
    return std::filesystem::path(*env.xdg_config_home) / "kepoch" / "config.yaml";
  return std::filesystem::path(env.home.value_or("")) / ".config" / "kepoch" / "config.yaml";
}

namespace {

// The name an -X argument starts with (letters, digits, '.', '_', '-'): what an error may
// quote of an argument without '=' (`-X sasl.password:VALUE`, `-X "sasl.password VALUE"`),
// whose rest may be a secret.
std::string_view leading_name(std::string_view argument) {
  std::size_t n = 0;
  while (n < argument.size()) {
    const char c = argument[n];
    const bool name_char = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!name_char) break;
    ++n;
  }
  return argument.substr(0, n);
}

// Whether kepoch knows `key` (a property it honours): only then, or for a key redaction
// names secret, can it tell whether the value is a secret. A misspelt or foreign key
// (`sasl.passwrd`) may carry one: never shown.
bool known_property(std::string_view key) {
  const auto& names = honoured_librdkafka_properties();
  return std::find(names.begin(), names.end(), key) != names.end();
}

}  // namespace

void apply_x_argument(ConnectionSettings& settings, std::string_view argument) {
  const auto equals = argument.find('=');
  if (equals == std::string_view::npos || equals == 0) {
    const auto name = equals == 0 ? std::string_view() : leading_name(argument);
    if (name.size() == argument.size())
      throw UsageError(fmt::format("-X {}: expected key=value", argument));
    throw UsageError(
        fmt::format("-X {}: expected key=value (the rest of the argument is not "
                    "shown: it may be a secret)",
                    name.empty() ? "argument" : name));
  }
  const auto key = argument.substr(0, equals);
  const auto value = argument.substr(equals + 1);
  try {
    apply_librdkafka_property(settings, key, value, fmt::format("-X {}", key));
  } catch (const std::invalid_argument& e) {
    // A key known to be secret is shown by shown_value's rule (*** or a JAAS config's form).
    const bool known = known_property(key) || is_secret_key(key);
    const std::string shown = known ? shown_value(key, value) : "***";
    throw UsageError(
        fmt::format("-X {}={}: {}", key, shown, known ? e.what() : redact(e.what(), value)));
  }
}

ConnectionSettings resolve_connection_settings(const ConnectionFlags& flags,
                                               const SettingsEnvironment& env) {
  ConnectionSettings settings;
  if (const auto chosen = chosen_profile(flags, env)) {
    apply_profile(settings, load_cluster_profile(profiles_path(env), chosen->name));
    settings.profile = chosen->name;
    settings.profile_chosen_by = chosen->chosen_by;
  }
  if (flags.command_config) apply_command_config(settings, *flags.command_config);
  for (const auto& argument : flags.properties)
    apply_x_argument(settings, argument);
  if (flags.bootstrap) {
    try {
      settings.bootstrap = parse_bootstrap(*flags.bootstrap);
    } catch (const std::invalid_argument& e) {
      throw UsageError(
          fmt::format("--bootstrap {}: {}", without_credentials(*flags.bootstrap), e.what()));
    }
    settings.sources["bootstrap.servers"] = "--bootstrap";
  }
  if (flags.timeout) {
    if (flags.timeout->count() <= 0) throw UsageError("--timeout must be positive");
    settings.timeout = *flags.timeout;
    settings.sources["timeout.ms"] = "--timeout";
  }
  validate_settings(settings);
  return settings;
}

}  // namespace kepoch::cluster
