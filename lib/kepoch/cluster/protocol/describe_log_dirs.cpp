#include "kepoch/cluster/protocol/describe_log_dirs.hpp"

#include "kepoch/cluster/protocol/messages.hpp"

namespace kepoch::cluster::protocol {
namespace {

std::optional<std::int64_t> known(std::int64_t bytes) {
  if (bytes == -1) return std::nullopt;
  return bytes;
}

LogDir dir_from(const Struct& r) {
  LogDir out;
  out.error_code = r.get_int16("error_code");
  out.path = r.get_string("log_dir");
  out.total_bytes = known(r.get_int64("total_bytes"));
  out.usable_bytes = known(r.get_int64("usable_bytes"));
  for (const auto& t : r.get_array("topics")) {
    const Struct& topic = t.as_struct();
    for (const auto& p : topic.get_array("partitions")) {
      const Struct& e = p.as_struct();
      out.replicas.push_back({topic.get_string("name"), e.get_int32("partition_index"),
                              e.get_int64("partition_size"), e.get_int64("offset_lag"),
                              e.get_bool("is_future_key")});
    }
  }
  return out;
}

}  // namespace

Struct make_describe_log_dirs_request(const std::optional<std::vector<LogDirQuery>>& topics) {
  Struct body = make_request_body(ApiKey::kDescribeLogDirs);
  if (!topics) {
    body.set_null("topics");
    return body;
  }
  for (const auto& q : *topics)
    body.add_element("topics")
        .set_string("topic", q.topic)
        .set_int32_array("partitions", q.partitions);
  return body;
}

DescribeLogDirsResponse DescribeLogDirsResponse::from(const Struct& body) {
  DescribeLogDirsResponse out;
  out.throttle_time_ms = body.get_int32("throttle_time_ms");
  out.error_code = body.get_int16("error_code");
  for (const auto& r : body.get_array("results"))
    out.dirs.push_back(dir_from(r.as_struct()));
  return out;
}

}  // namespace kepoch::cluster::protocol
