#include "kepoch/report/live_groups_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kepoch/cluster/protocol/error_codes.hpp"

namespace kepoch::report {
namespace {

Value error_value(std::int16_t code) {
  if (code == 0) return Value();
  if (code == -1) return Value("not_asked");
  return Value(cluster::protocol::error_code_name(code));
}

Value or_null(const std::string& s) {
  return s.empty() ? Value() : Value(s);
}

}  // namespace

bool live_groups_complete(const LiveGroups& g) {
  return g.complete && std::none_of(g.offsets.begin(), g.offsets.end(),
                                    [](const auto& o) { return o.error_code != 0; });
}

Value live_groups_value(const LiveGroups& g, const std::optional<std::regex>& topic) {
  std::map<std::string, std::int16_t> group_errors;
  for (const auto& o : g.offsets)
    group_errors[o.group_id] = o.error_code;
  Value groups = Value::array();
  for (const auto& l : g.groups) {
    const auto e = group_errors.find(l.group_id);
    groups.push(Value::object()
                    .set("group", l.group_id)
                    .set("type", or_null(l.type))
                    .set("state", or_null(l.state))
                    .set("protocol_type", l.protocol_type)
                    .set("error", error_value(e == group_errors.end() ? -1 : e->second)));
  }
  Value offsets = Value::array();
  std::size_t rows = 0, with_epoch = 0;
  for (const auto& gr : g.offsets)
    for (const auto& o : gr.offsets) {
      if (topic && !std::regex_match(o.topic, *topic)) continue;
      ++rows;
      if (o.committed_leader_epoch >= 0) ++with_epoch;
      offsets.push(Value::object()
                       .set("group", o.group_id)
                       .set("topic", o.topic)
                       .set("partition", o.partition)
                       .set("committed_offset", o.committed_offset)
                       .set("leader_epoch", o.committed_leader_epoch >= 0
                                                ? Value(o.committed_leader_epoch)
                                                : Value())
                       .set("metadata", o.metadata ? Value(*o.metadata) : Value())
                       .set("error", error_value(o.error_code)));
    }
  Value warnings = Value::array();
  for (const auto& w : g.warnings)
    warnings.push(w);
  const auto plural = [](std::size_t n, std::string_view what) {
    return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
  };
  std::string summary =
      fmt::format("{} listed, {} ({} with a leader epoch).", plural(g.groups.size(), "group"),
                  plural(rows, "committed offset"), with_epoch);
  if (!live_groups_complete(g))
    summary = "Incomplete: some groups or offsets could not be read (see warnings). " + summary;
  return Value::object()
      .set("summary", summary)
      .set("groups_listed", static_cast<std::int64_t>(g.groups.size()))
      .set("complete", live_groups_complete(g))
      .set("groups", std::move(groups))
      .set("offsets", std::move(offsets))
      .set("warnings", std::move(warnings));
}

}  // namespace kepoch::report
