// A librdkafka consumer for consumer-fate-vs-kafka: what Debian 12's librdkafka (2.0.2, no
// KIP-320) does with a group's committed offset after an unclean election.
//
//   kepoch_consumer_probe BOOTSTRAP TOPIC GROUP:POLICY...
//
// For each GROUP: a consumer (group.id GROUP, auto.offset.reset POLICY: earliest, latest or
// error, no commits) assigned partition 0 of TOPIC at its committed offset
// (RD_KAFKA_OFFSET_STORED), polled until the first message, an error, or the end of the
// partition; prints one line: "GROUP position N" (the first message's offset, or where the
// end of the partition was reached) or "GROUP exception ERROR_NAME".
#include <librdkafka/rdkafka.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace {

bool set(rd_kafka_conf_t* conf, const char* name, const std::string& value) {
  char err[512];
  if (rd_kafka_conf_set(conf, name, value.c_str(), err, sizeof err) == RD_KAFKA_CONF_OK)
    return true;
  std::fprintf(stderr, "%s: %s\n", name, err);
  return false;
}

std::string probe(const std::string& bootstrap, const std::string& topic, const std::string& group,
                  const std::string& policy) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  if (!set(conf, "bootstrap.servers", bootstrap) || !set(conf, "group.id", group) ||
      !set(conf, "auto.offset.reset", policy) || !set(conf, "enable.auto.commit", "false") ||
      !set(conf, "enable.partition.eof", "true"))
    return "config-error";
  char err[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
  if (!rk) return std::string("create-error ") + err;
  rd_kafka_topic_partition_list_t* parts = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(parts, topic.c_str(), 0)->offset = RD_KAFKA_OFFSET_STORED;
  rd_kafka_assign(rk, parts);
  rd_kafka_topic_partition_list_destroy(parts);
  std::string result = "timeout";
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(30)) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 300);
    if (!m) continue;
    if (!m->err) {
      result = "position " + std::to_string(m->offset);
    } else if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      result = "position " + std::to_string(m->offset);
    } else {
      result = std::string("exception ") + rd_kafka_err2name(m->err);
    }
    rd_kafka_message_destroy(m);
    break;
  }
  rd_kafka_consumer_close(rk);
  rd_kafka_destroy(rk);
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: kepoch_consumer_probe BOOTSTRAP TOPIC GROUP:POLICY...\n");
    return 2;
  }
  for (int i = 3; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto colon = arg.rfind(':');
    const std::string group = arg.substr(0, colon);
    std::printf("%s %s\n", group.c_str(),
                probe(argv[1], argv[2], group, arg.substr(colon + 1)).c_str());
    std::fflush(stdout);
  }
  return 0;
}
