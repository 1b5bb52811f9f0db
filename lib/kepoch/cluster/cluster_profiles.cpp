#include "kepoch/cluster/cluster_profiles.hpp"

#include <fmt/format.h>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"

namespace kepoch::cluster {
namespace {

constexpr std::uint64_t kMaxFileBytes = 1 << 20;

int line_of(const YAML::Node& node) {
  return node.Mark().line + 1;
}

std::string scalar(const YAML::Node& node, const std::string& path, std::string_view what) {
  if (!node.IsScalar())
    throw InputError(path, fmt::format("{} must be a string", what), line_of(node));
  return node.Scalar();
}

ClusterProfile read_profile(const std::string& name, const YAML::Node& body,
                            const std::string& path, int line) {
  ClusterProfile profile{name, path, line, {}, 0, {}, {}};
  if (!body.IsMap())
    throw InputError(
        path,
        fmt::format("clusters.{} must be a map (bootstrap, command_config, properties)", name),
        line);
  for (const auto& entry : body) {
    const auto key = entry.first.as<std::string>();
    const auto& value = entry.second;
    const auto where = fmt::format("clusters.{}.{}", name, key);
    if (key == "bootstrap") {
      profile.bootstrap = scalar(value, path, where);
      profile.bootstrap_line = line_of(value);
    } else if (key == "command_config") {
      const std::filesystem::path file = scalar(value, path, where);
      profile.command_config =
          file.is_absolute() ? file : std::filesystem::path(path).parent_path() / file;
    } else if (key == "properties") {
      if (!value.IsMap())
        throw InputError(path, fmt::format("{} must be a map of librdkafka properties", where),
                         line_of(value));
      for (const auto& property : value)
        profile.properties.push_back(
            {property.first.as<std::string>(),
             scalar(property.second, path, where + "." + property.first.as<std::string>()),
             line_of(property.first)});
    } else {
      throw InputError(path,
                       fmt::format("unknown key {} (bootstrap, command_config, properties)", where),
                       line_of(entry.first));
    }
  }
  if (!profile.bootstrap && !profile.command_config && profile.properties.empty())
    throw InputError(
        path, fmt::format("clusters.{} sets nothing (bootstrap, command_config, properties)", name),
        line);
  return profile;
}

YAML::Node parse_yaml(std::string_view text, const std::string& path) {
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own message for it is "bad file"
    throw InputError(path,
                     fmt::format("nested {} levels deep, more than yaml-cpp reads", e.depth()),
                     e.mark.line + 1);
  } catch (const YAML::ParserException& e) {
    throw InputError(path, e.msg, e.mark.line + 1);
  }
}

// The top level: `clusters` (required) and `current_profile` (optional), nothing else.
YAML::Node checked_root(std::string_view yaml_text, const std::string& path) {
  const auto root = parse_yaml(yaml_text, path);
  if (!root.IsMap() || !root["clusters"])
    throw InputError(path, "expected a top-level 'clusters:' map of profiles");
  // A key given twice: yaml-cpp keeps one silently, so which the user meant cannot be told.
  const auto refuse_twice = [&path](const YAML::Node& map, std::string_view where) {
    std::map<std::string, int> seen;
    for (const auto& entry : map) {
      const auto key = entry.first.as<std::string>();
      const auto [it, fresh] = seen.emplace(key, line_of(entry.first));
      if (!fresh)
        throw InputError(
            path, fmt::format("{}{} is given twice (also on line {})", where, key, it->second),
            line_of(entry.first));
    }
  };
  refuse_twice(root, "");
  for (const auto& entry : root) {
    const auto key = entry.first.as<std::string>();
    if (key != "clusters" && key != "current_profile")
      throw InputError(path,
                       fmt::format("unknown top-level key {} (clusters, current_profile)", key),
                       line_of(entry.first));
  }
  const auto clusters = root["clusters"];
  if (!clusters.IsMap())
    throw InputError(path, "clusters must be a map of profile names", line_of(clusters));
  refuse_twice(clusters, "clusters.");
  return root;
}

ClusterProfile find_profile_in(std::string_view yaml_text, const std::string& path,
                               std::string_view name) {
  const auto root = checked_root(yaml_text, path);
  std::vector<std::string> known;
  for (const auto& entry : root["clusters"]) {
    const auto profile_name = entry.first.as<std::string>();
    if (profile_name == name)
      return read_profile(profile_name, entry.second, path, line_of(entry.first));
    known.push_back(profile_name);
  }
  throw UsageError(fmt::format("no cluster profile '{}' in {} (known: {})", name, path,
                               known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
}

ProfilesFile parse_profiles_in(std::string_view yaml_text, const std::string& path) {
  const auto root = checked_root(yaml_text, path);
  ProfilesFile file{path, std::nullopt, 0, {}};
  for (const auto& entry : root["clusters"])
    file.profiles.push_back(
        read_profile(entry.first.as<std::string>(), entry.second, path, line_of(entry.first)));
  if (const auto current = root["current_profile"]) {
    file.current_profile = scalar(current, path, "current_profile");
    file.current_profile_line = line_of(current);
    const bool known =
        std::any_of(file.profiles.begin(), file.profiles.end(),
                    [&](const ClusterProfile& p) { return p.name == *file.current_profile; });
    if (!known)
      throw InputError(
          path,
          fmt::format("current_profile {} names no profile under clusters", *file.current_profile),
          file.current_profile_line);
  }
  return file;
}

// A name as a YAML scalar: plain when it is one, else double-quoted.
std::string yaml_scalar(std::string_view name) {
  const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
  if (plain && name != "true" && name != "false" && name != "null" && name != "~")
    return std::string(name);
  std::string out = "\"";
  for (const char c : name) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

ClusterProfile find_cluster_profile(std::string_view yaml_text, const std::string& path,
                                    std::string_view name) {
  try {
    return find_profile_in(yaml_text, path, name);
  } catch (const YAML::Exception& e) {  // e.g. a map where a name belongs
    throw InputError(path, e.msg, e.mark.line + 1);
  }
}

ProfilesFile parse_profiles_file(std::string_view yaml_text, const std::string& path) {
  try {
    return parse_profiles_in(yaml_text, path);
  } catch (const YAML::Exception& e) {
    throw InputError(path, e.msg, e.mark.line + 1);
  }
}

ProfilesFile load_profiles_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return ProfilesFile{path.string(), std::nullopt, 0, {}};
  return parse_profiles_file(read_small_file(path, kMaxFileBytes), path.string());
}

std::string with_current_profile(std::string_view yaml_text, const std::string& path,
                                 std::string_view name) {
  find_cluster_profile(yaml_text, path, name);  // the profile exists (UsageError otherwise)
  const std::string line = "current_profile: " + yaml_scalar(name);
  std::string out;
  bool replaced = false;
  std::size_t at = 0;
  while (at < yaml_text.size()) {
    std::size_t end = yaml_text.find('\n', at);
    const bool last = end == std::string_view::npos;
    if (last) end = yaml_text.size();
    const std::string_view current = yaml_text.substr(at, end - at);
    if (!replaced && current.starts_with("current_profile:")) {
      out += line;
      replaced = true;
    } else {
      out += current;
    }
    if (!last) out += '\n';
    at = end + 1;
  }
  if (!replaced) out = line + "\n" + out;
  parse_profiles_file(out, path);  // the result still reads as the file it was
  return out;
}

ClusterProfile load_cluster_profile(const std::filesystem::path& path, std::string_view name) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw UsageError(
        fmt::format("cluster profile '{}' asked for, but {} does not exist", name, path.string()));
  return find_cluster_profile(read_small_file(path, kMaxFileBytes), path.string(), name);
}

}  // namespace kepoch::cluster
