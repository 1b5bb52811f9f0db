// kepoch profile list|show|use
// The named cluster profiles of the config file ($XDG_CONFIG_HOME/kepoch/config.yaml,
// cluster/cluster_profiles.hpp) and the current one: the profile a live command uses when it
// names no cluster, as `rpk profile use` or `kafkactl config use-context` keep one. `use`
// rewrites the file with current_profile set (every other line as it was), atomically: a
// temporary file beside it, then a rename. Secrets are never shown.

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <sys/stat.h>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/cluster/cluster_profiles.hpp"
#include "kepoch/cluster/librdkafka_properties.hpp"
#include "kepoch/cluster/secret.hpp"
#include "kepoch/cluster/settings_sources.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::cli {
namespace {

using report::Value;

constexpr std::uint64_t kMaxConfigBytes = 1 << 20;

struct ProfileOptions {
  bool names = false;
  std::string name;
};

std::filesystem::path config_path() {
  return cluster::profiles_path(cluster::SettingsEnvironment::from_process());
}

Value properties_value(const cluster::ClusterProfile& p) {
  Value out = Value::object();
  for (const auto& property : p.properties)
    out.set(property.key, cluster::is_secret_property(property.key)
                              ? Value(std::string(cluster::kRedacted))
                              : Value(property.value));
  return out;
}

int run_list(const ProfileOptions& o, const Globals& globals) {
  const auto file = cluster::load_profiles_file(config_path());
  if (o.names) {  // for the shell completions: one name a line, nothing else
    if (!globals.quiet)
      for (const auto& p : file.profiles)
        std::cout << p.name << '\n';
    return kOk;
  }
  Value profiles = Value::array();
  for (const auto& p : file.profiles) {
    Value keys = Value::array();
    for (const auto& property : p.properties)
      keys.push(property.key);
    profiles.push(
        Value::object()
            .set("name", p.name)
            .set("current", file.current_profile == p.name)
            .set("bootstrap", p.bootstrap ? Value(*p.bootstrap) : Value())
            .set("command_config", p.command_config ? Value(p.command_config->string()) : Value())
            .set("properties", std::move(keys)));
  }
  emit(Value::object()
           .set("file", file.path)
           .set("current_profile", file.current_profile ? Value(*file.current_profile) : Value())
           .set("profiles", std::move(profiles)),
       globals);
  return kOk;
}

int run_show(const ProfileOptions& o, const Globals& globals) {
  const auto file = cluster::load_profiles_file(config_path());
  std::string name = o.name;
  if (name.empty()) {
    if (!file.current_profile)
      throw UsageError(
          fmt::format("no current profile in {}: name one, or set one with `kepoch "
                      "profile use NAME`",
                      file.path));
    name = *file.current_profile;
  }
  for (const auto& p : file.profiles) {
    if (p.name != name) continue;
    emit(Value::object()
             .set("name", p.name)
             .set("file", p.path)
             .set("line", p.line)
             .set("current", file.current_profile == p.name)
             .set("bootstrap", p.bootstrap ? Value(*p.bootstrap) : Value())
             .set("command_config", p.command_config ? Value(p.command_config->string()) : Value())
             .set("properties", properties_value(p)),
         globals);
    return kOk;
  }
  std::string known;
  for (const auto& p : file.profiles)
    known += (known.empty() ? "" : ", ") + p.name;
  throw UsageError(fmt::format("no cluster profile '{}' in {} (known: {})", name, file.path,
                               known.empty() ? "none" : known));
}

// `text` to `path` by a temporary file in the same directory and a rename: a reader sees the
// old file or the new one, never half of one; the file's permission bits are kept.
void write_atomically(const std::filesystem::path& path, const std::string& text) {
  const std::string tmp = path.string() + ".tmp-" + std::to_string(::getpid());
  struct stat st {};
  const mode_t mode = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0600;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) throw InputError(tmp, fmt::format("cannot create: {}", std::strerror(errno)));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw InputError(tmp, fmt::format("cannot write: {}", std::strerror(e)));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw InputError(tmp, fmt::format("cannot write: {}", std::strerror(e)));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw InputError(path.string(), fmt::format("cannot replace: {}", std::strerror(e)));
  }
}

int run_use(const ProfileOptions& o, const Globals& globals) {
  const auto path = config_path();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw UsageError(
        fmt::format("{} does not exist: write its clusters: first (see `kepoch "
                    "profile --help`)",
                    path.string()));
  const std::string text = read_small_file(path, kMaxConfigBytes);
  write_atomically(path, cluster::with_current_profile(text, path.string(), o.name));
  emit(Value::object().set("file", path.string()).set("current_profile", o.name), globals);
  return kOk;
}

}  // namespace

void register_profile(CLI::App& app, Globals& globals) {
  CLI::App* group = app.add_subcommand(
      "profile", "List, show and choose the named cluster profiles of the config file");
  group->require_subcommand(1);
  group->footer(
      "The file: $XDG_CONFIG_HOME/kepoch/config.yaml (else ~/.config/kepoch/config.yaml):\n"
      "  clusters:\n"
      "    prod:\n"
      "      bootstrap: \"kafka1.example.com:9093\"\n"
      "      command_config: prod-client.properties\n"
      "      properties: {security.protocol: SASL_SSL, sasl.mechanism: SCRAM-SHA-512}\n"
      "  current_profile: prod\n"
      "\nA live command (kepoch cluster ...) takes its brokers from -b, else --cluster NAME,\n"
      "else KEPOCH_CLUSTER, else the current profile (not when -b or --command-config is\n"
      "given); -b overrides the bootstrap of a chosen profile.");
  static ProfileOptions o;

  CLI::App* list = group->add_subcommand("list", "Every profile, and which one is current");
  list->add_flag("--names", o.names, "Only the names, one a line (the shell completions use it)");
  list->footer(
      "Examples:\n"
      "  kepoch profile list\n"
      "  kepoch profile list -o json\n"
      "\nExit status: 0, 2 usage, 3 the config file cannot be read.");
  list->callback([&globals] { globals.exit_code = run_list(o, globals); });

  CLI::App* show = group->add_subcommand(
      "show", "One profile's settings (the current one without NAME); secrets are ***");
  show->add_option("name", o.name, "A profile name (default: the current profile)")
      ->type_name("PROFILE");
  show->footer(
      "Examples:\n"
      "  kepoch profile show\n"
      "  kepoch profile show prod -o yaml\n"
      "\nSecret properties (sasl.password, ssl.key.password, ...) show as ***; the\n"
      "command_config file is named, not read.\n"
      "Exit status: 0, 2 no such profile or no current one, 3 the config file cannot be read.");
  show->callback([&globals] { globals.exit_code = run_show(o, globals); });

  CLI::App* use = group->add_subcommand(
      "use", "Make NAME the current profile: live commands use it when they name no cluster");
  use->add_option("name", o.name, "A profile name")->required()->type_name("PROFILE");
  use->footer(
      "Examples:\n"
      "  kepoch profile use prod\n"
      "\nWrites current_profile: NAME into the config file (every other line kept as it was),\n"
      "through a temporary file and a rename. Exit status: 0, 2 no such profile or no config\n"
      "file, 3 the file cannot be read or written.");
  use->callback([&globals] { globals.exit_code = run_use(o, globals); });
}

}  // namespace kepoch::cli
