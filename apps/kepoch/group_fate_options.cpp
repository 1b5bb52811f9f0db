#include "group_fate_options.hpp"

namespace kepoch::cli {

std::vector<forecast::OffsetResetPolicy> GroupFateOptions::policies() const {
  using forecast::OffsetResetPolicy;
  if (auto_offset_reset == "earliest") return {OffsetResetPolicy::earliest};
  if (auto_offset_reset == "latest") return {OffsetResetPolicy::latest};
  if (auto_offset_reset == "none") return {OffsetResetPolicy::none};
  if (auto_offset_reset == "by_duration") return {OffsetResetPolicy::by_duration};
  return {OffsetResetPolicy::earliest, OffsetResetPolicy::latest, OffsetResetPolicy::none};
}

forecast::ConsumerClient GroupFateOptions::consumer_client() const {
  return client == "java" ? forecast::ConsumerClient::java
                          : forecast::ConsumerClient::librdkafka_2_0;
}

void add_group_fate_options(CLI::App* cmd, GroupFateOptions& o) {
  cmd->add_option("--offsets", o.offsets,
                  "Forecast each consumer group's next fetch: a __consumer_offsets-N dir, or a "
                  "log dir holding __consumer_offsets partitions (the coordinator's copy)")
      ->type_name("DIR");
  add_group_policy_options(cmd, o);
}

void add_group_policy_options(CLI::App* cmd, GroupFateOptions& o) {
  cmd->add_option("--auto-offset-reset", o.auto_offset_reset,
                  "The groups' auto.offset.reset (Kafka does not store it): earliest, latest, "
                  "none, by_duration, or all (earliest, latest and none side by side)")
      ->check(CLI::IsMember({"earliest", "latest", "none", "by_duration", "all"}))
      ->default_str("all");
  cmd->add_option("--client", o.client,
                  "The groups' client: java (the Java consumer 2.3+, and librdkafka 2.1+: "
                  "KIP-320 validation with the committed leader epoch) or librdkafka-2.0 "
                  "(librdkafka before 2.1, Debian 12's 2.0.2: no validation)")
      ->check(CLI::IsMember({"java", "librdkafka-2.0"}))
      ->default_str("java");
}

std::vector<std::string> offsets_partitions_of(const CommittedOffsets& c) {
  std::vector<std::string> out;
  for (const auto& p : c.partitions)
    out.push_back(p.string());
  return out;
}

}  // namespace kepoch::cli
