#include "kepoch/report/live_groups_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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

bool live_groups_complete(const LiveGroups& g, const std::optional<std::regex>& topic) {
  return g.complete && !g.hidden.may_withhold(topic) && !g.hidden.groups_may_be_withheld &&
         std::none_of(g.offsets.begin(), g.offsets.end(),
                      [](const auto& o) { return o.error_code != 0; });
}

Value live_groups_value(const LiveGroups& g, const std::optional<std::regex>& topic) {
  std::map<std::string, std::int16_t> group_errors;
  for (const auto& o : g.offsets)
    group_errors[o.group_id] = o.error_code;
  const auto hidden = g.hidden.matching(topic);
  // Why a group read without error may still miss offsets (empty: it does not).
  std::string offsets_unknown;
  if (!hidden.empty())
    offsets_unknown = fmt::format(
        "its committed offsets on {} {} are not known: OffsetFetch leaves out, without a word, "
        "the topics this principal may not Describe",
        hidden.size() == 1 ? "topic" : "topics", fmt::join(hidden, ", "));
  else if (!g.hidden.ruled_out)
    offsets_unknown =
        "its committed offsets may leave out topics withheld from this principal (OffsetFetch "
        "leaves them out without a word; that none is withheld could not be ruled out)";
  Value groups = Value::array();
  for (const auto& l : g.groups) {
    const auto e = group_errors.find(l.group_id);
    const std::int16_t error = e == group_errors.end() ? -1 : e->second;
    groups.push(Value::object()
                    .set("group", l.group_id)
                    .set("type", or_null(l.type))
                    .set("state", or_null(l.state))
                    .set("protocol_type", l.protocol_type)
                    .set("error", error_value(error))
                    .set("offsets_unknown", error == 0 ? or_null(offsets_unknown) : Value()));
  }
  Value hidden_topics = Value::array();
  for (const auto& name : hidden)
    hidden_topics.push(Value::object().set("topic", name).set("reason", g.hidden.topics.at(name)));
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
  for (const auto& w : live::hidden_topic_warnings(g.hidden, topic, "committed offsets"))
    warnings.push(w);
  const bool complete = live_groups_complete(g, topic);
  const auto plural = [](std::size_t n, std::string_view what) {
    return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
  };
  std::string summary =
      fmt::format("{} listed, {} ({} with a leader epoch).", plural(g.groups.size(), "group"),
                  plural(rows, "committed offset"), with_epoch);
  if (!complete)
    summary =
        "Incomplete: some groups or offsets could not be read or may be withheld (see "
        "warnings). " +
        summary;
  return Value::object()
      .set("summary", summary)
      .set("groups_listed", static_cast<std::int64_t>(g.groups.size()))
      .set("complete", complete)
      .set("hidden_topics", std::move(hidden_topics))
      .set("hidden_topics_ruled_out", g.hidden.ruled_out)
      .set("groups", std::move(groups))
      .set("offsets", std::move(offsets))
      .set("warnings", std::move(warnings));
}

}  // namespace kepoch::report
