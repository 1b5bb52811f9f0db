#include "cluster_options.hpp"

#include <iostream>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/settings_sources.hpp"

namespace kepoch::cli {

std::chrono::milliseconds to_ms(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
}

cluster::ConnectionSettings settings_from(const ConnectionOptions& o) {
  cluster::ConnectionFlags flags;
  flags.cluster = o.cluster;
  flags.command_config = o.command_config;
  flags.properties = o.properties;
  flags.bootstrap = o.bootstrap;
  flags.timeout = to_ms(o.timeout_seconds);
  cluster::ConnectionSettings settings =
      cluster::resolve_connection_settings(flags, cluster::SettingsEnvironment::from_process());
  if (o.verbose) {
    // Secrets are redacted by describe_settings itself.
    for (const auto& row : cluster::describe_settings(settings))
      std::cerr << "kepoch: setting " << row.key << "=" << row.value << " (" << row.source << ")\n";
  }
  return settings;
}

std::optional<std::regex> topic_regex(const TopicOptions& o) {
  if (!o.topic) return std::nullopt;
  try {
    return std::regex(*o.topic, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw UsageError("--topic: not a regular expression: " + *o.topic + " (" + e.what() + ")");
  }
}

cluster::ViewRequest view_request(const TopicOptions& t, bool sizes) {
  cluster::ViewRequest r;
  r.topic = topic_regex(t);
  r.exclude_internal = t.exclude_internal;
  r.log_dirs = sizes;
  return r;
}

void add_connection_options(CLI::App* cmd, ConnectionOptions& o) {
  cmd->add_option("-b,--bootstrap", o.bootstrap,
                  "Bootstrap brokers, HOST:PORT[,HOST:PORT...] (as bootstrap.servers)")
      ->type_name("HOSTS");
  cmd->add_option("-X", o.properties,
                  "A librdkafka property, KEY=VALUE (repeatable; like kcat): security.protocol, "
                  "sasl.mechanisms, sasl.username, sasl.password, ssl.ca.location, ...")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  cmd->add_option("--command-config", o.command_config,
                  "The Java client's properties file (as kafka-topics --command-config)")
      ->type_name("FILE");
  cmd->add_option("--cluster", o.cluster,
                  "A named profile of ~/.config/kepoch/config.yaml (default: $KEPOCH_CLUSTER, else "
                  "the current profile of `kepoch profile use` when -b is not given)")
      ->type_name("PROFILE");
  cmd->add_option("--timeout", o.timeout_seconds,
                  "Seconds to wait for a broker before giving up (exit 4)")
      ->type_name("SECONDS")
      ->default_str("10")
      // A range, not PositiveNumber: its message printed DBL_MAX's 310 digits.
      ->check(CLI::Range(0.001, 86400.0).description("SECONDS in (0, 86400]"));
  cmd->add_flag("-v,--verbose", o.verbose,
                "Show the connection settings and where each came from (secrets redacted)");
}

void add_topic_options(CLI::App* cmd, TopicOptions& o) {
  cmd->add_option("--topic", o.topic,
                  "Only topics whose whole name matches this regular expression")
      ->type_name("REGEX");
  cmd->add_flag("--exclude-internal", o.exclude_internal,
                "Leave out internal topics (__consumer_offsets, __transaction_state)");
}

}  // namespace kepoch::cli
