// kepoch profile list|show|use
// The named cluster profiles of the config file ($XDG_CONFIG_HOME/kepoch/config.yaml,
// cluster/cluster_profiles.hpp) and the current one: the profile a live command uses when it
// names no cluster, as `rpk profile use` or `kafkactl config use-context` keep one. `use`
// rewrites the file with current_profile set (every other line as it was), through
// output_file.hpp: replaced whole, a symbolic link edited through its target. Secrets are
// never shown.

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <sys/stat.h>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/cluster/cluster_profiles.hpp"
#include "kepoch/cluster/redaction.hpp"
#include "kepoch/cluster/settings_sources.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/report/value.hpp"
#include "output_file.hpp"

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
    out.set(property.key, cluster::shown_value(property.key, property.value));
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
            .set("bootstrap",
                 p.bootstrap ? Value(cluster::without_credentials(*p.bootstrap)) : Value())
            .set("command_config", p.command_config ? Value(p.command_config->string()) : Value())
            .set("properties", std::move(keys)));
  }
  Value report =
      Value::object()
          .set("file", file.path)
          .set("current_profile", file.current_profile ? Value(*file.current_profile) : Value())
          .set("profiles", std::move(profiles));
  std::string sentence = report::profile_list_summary(report);
  emit(report::with_summary(std::move(report), std::move(sentence)), globals);
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
    // The sentence reads this report, whose values are redacted already: it cannot say more.
    Value report =
        Value::object()
            .set("name", p.name)
            .set("file", p.path)
            .set("line", p.line)
            .set("current", file.current_profile == p.name)
            .set("bootstrap",
                 p.bootstrap ? Value(cluster::without_credentials(*p.bootstrap)) : Value())
            .set("command_config", p.command_config ? Value(p.command_config->string()) : Value())
            .set("properties", properties_value(p));
    std::string sentence = report::profile_show_summary(report);
    emit(report::with_summary(std::move(report), std::move(sentence)), globals);
    return kOk;
  }
  std::string known;
  for (const auto& p : file.profiles)
    known += (known.empty() ? "" : ", ") + p.name;
  throw UsageError(fmt::format("no cluster profile '{}' in {} (known: {})", name, file.path,
                               known.empty() ? "none" : known));
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
  const std::string edited = cluster::with_current_profile(text, path.string(), o.name);
  // The profile current before the edit, for the sentence; unknown (left out) when the file
  // does not parse as profiles.
  std::optional<Value> previous;
  try {
    const auto before = cluster::parse_profiles_file(text, path.string());
    previous = before.current_profile ? Value(*before.current_profile) : Value();
  } catch (const InputError&) {
  }
  // Through output_file.hpp: a symbolic link (a dotfiles repo) is edited through its target,
  // never inside a log dir; replaced whole, permission bits kept.
  write_output("profile use", path.string(), OutputKind::config_edit, {}, "config file",
               [&edited](std::ostream& out) { out << edited; });
  Value report = Value::object().set("file", path.string()).set("current_profile", o.name);
  if (previous) report.set("previous_profile", *previous);
  std::string sentence = report::profile_use_summary(report);
  emit(report::with_summary(std::move(report), std::move(sentence)), globals);
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
      "\nSecrets show as ***: every property Kafka types PASSWORD (ssl.key.password,\n"
      "ssl.truststore.password, sasl.oauthbearer.client.credentials.client.secret, ...),\n"
      "librdkafka's (sasl.password, ...), any key naming a password or secret, the secret\n"
      "options of sasl.jaas.config and the password of user:password@ in an address. The\n"
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
