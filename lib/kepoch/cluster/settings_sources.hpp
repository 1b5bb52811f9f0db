#pragma once
// Where ConnectionSettings come from, lowest precedence first:
//   1. a named profile (cluster_profiles.hpp), chosen by --cluster NAME, else by the
//      KEPOCH_CLUSTER environment variable, else (no -b and no --command-config given) the
//      config file's current_profile (`kepoch profile use`);
//   2. --command-config FILE, the Java client's properties (command_config.hpp);
//   3. -X key=value, librdkafka's property names, in order (librdkafka_properties.hpp);
//   4. -b/--bootstrap and the timeout flag.
// A later source overrides single settings, not whole groups. The result is validated
// (validate_settings) before it is returned.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/cluster/connection_settings.hpp"

namespace kepoch::cluster {

// The command line as the commands parse it.
struct ConnectionFlags {
  std::optional<std::string> cluster;         // --cluster NAME
  std::optional<std::string> command_config;  // --command-config FILE
  std::vector<std::string> properties;        // each -X key=value, in order
  std::optional<std::string> bootstrap;       // -b/--bootstrap HOST:PORT[,...]
  std::optional<std::chrono::milliseconds> timeout;
};

// The process environment the settings depend on (injected, for tests).
struct SettingsEnvironment {
  std::optional<std::string> kepoch_cluster;   // KEPOCH_CLUSTER
  std::optional<std::string> xdg_config_home;  // XDG_CONFIG_HOME
  std::optional<std::string> home;             // HOME

  static SettingsEnvironment from_process();
};

// $XDG_CONFIG_HOME/kepoch/config.yaml when XDG_CONFIG_HOME is an absolute path (the XDG
// rule), else $HOME/.config/kepoch/config.yaml.
std::filesystem::path profiles_path(const SettingsEnvironment& env);

// Throws UsageError (flags, a missing profile, settings that do not fit together) or
// InputError (a file, with its line). No message contains a secret.
ConnectionSettings resolve_connection_settings(const ConnectionFlags& flags,
                                               const SettingsEnvironment& env);

// One -X argument: "key=value" (UsageError naming the argument, with a secret value
// redacted, when it is malformed, unknown to librdkafka or not honoured).
void apply_x_argument(ConnectionSettings& settings, std::string_view argument);

}  // namespace kepoch::cluster
