#pragma once
// Named cluster profiles: $XDG_CONFIG_HOME/kepoch/config.yaml (by default
// ~/.config/kepoch/config.yaml), chosen with --cluster NAME or KEPOCH_CLUSTER=NAME.
//
//   clusters:
//     prod:
//       bootstrap: "kafka1.example.com:9093,kafka2.example.com:9093"
//       command_config: prod-client.properties   # the Java client's file, relative to
//                                                # this file's directory (optional)
//       properties:                              # librdkafka names, as with -X (optional)
//         security.protocol: SASL_SSL
//         sasl.mechanism: SCRAM-SHA-512
//         sasl.username: ops
//     local:
//       bootstrap: "localhost:9092"
//
//   current_profile: local                       # `kepoch profile use local` writes it:
//                                                # the profile used when a command names
//                                                # no cluster (-b, --cluster, KEPOCH_CLUSTER)
//
// Within a profile, command_config applies first, then properties, then bootstrap. Every
// profile needs at least one of the three. Other keys are an error (with the file's line),
// so a typo does not silently connect elsewhere.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kepoch::cluster {

struct ProfileProperty {
  std::string key;
  std::string value;
  int line = 0;
};

struct ClusterProfile {
  std::string name;
  std::string path;  // the config file
  int line = 0;      // where the profile starts
  std::optional<std::string> bootstrap;
  int bootstrap_line = 0;
  std::optional<std::filesystem::path> command_config;  // resolved against the file's dir
  std::vector<ProfileProperty> properties;
};

// Parses the config file's text and returns the named profile. Throws InputError (path,
// line) for malformed YAML or unknown keys, UsageError for a missing profile (the message
// lists the known names).
ClusterProfile find_cluster_profile(std::string_view yaml_text, const std::string& path,
                                    std::string_view name);

// Reads `path` (UsageError when it does not exist: a profile was asked for) and finds `name`.
ClusterProfile load_cluster_profile(const std::filesystem::path& path, std::string_view name);

// The whole file: every profile (each checked as find_cluster_profile checks it) and the
// current one. InputError (path, line) as above; a current_profile naming no profile too.
struct ProfilesFile {
  std::string path;
  std::optional<std::string> current_profile;
  int current_profile_line = 0;
  std::vector<ClusterProfile> profiles;  // in the file's order
};
ProfilesFile parse_profiles_file(std::string_view yaml_text, const std::string& path);

// Reads `path`; a file that does not exist is one without profiles.
ProfilesFile load_profiles_file(const std::filesystem::path& path);

// The config file's text with `current_profile: name` set: the top-level line replaced where
// there is one, else added at the top; every other line (comments included) as it was.
// UsageError when the file has no profile `name`.
std::string with_current_profile(std::string_view yaml_text, const std::string& path,
                                 std::string_view name);

}  // namespace kepoch::cluster
