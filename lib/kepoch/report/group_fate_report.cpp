#include "kepoch/report/group_fate_report.hpp"

#include <map>
#include <set>

#include <fmt/format.h>

namespace kepoch::report {
namespace {

// An integer member, 0 when null or missing.
std::int64_t int_of(const Value* v) {
  if (!v) return 0;
  const auto* i = std::get_if<std::int64_t>(&v->data());
  return i ? *i : 0;
}

Value optional_int(const std::optional<std::int64_t>& v) {
  return v ? Value(*v) : Value();
}

std::string_view exception_of(forecast::FateAction a, forecast::ConsumerClient client) {
  const bool java = client == forecast::ConsumerClient::java;
  switch (a) {
    case forecast::FateAction::log_truncation_exception:
      return "LogTruncationException";
    case forecast::FateAction::out_of_range_exception:
      return java ? "OffsetOutOfRangeException" : "RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET";
    default:
      return "";
  }
}

Value span_count(const forecast::OffsetSpan& s, bool known) {
  return known ? Value(s.count()) : Value();
}

Value span_from(const forecast::OffsetSpan& s, bool known) {
  return known && s.count() > 0 ? Value(s.from) : Value();
}

// A bool member, `fallback` when missing or not a bool.
bool bool_of(const Value* v, bool fallback) {
  if (!v) return fallback;
  const auto* b = std::get_if<bool>(&v->data());
  return b ? *b : fallback;
}

// The clauses both fate sentences (offline and live) share, in the order a reader weighs them.
void append_fate_clauses(std::vector<std::string>& parts_text, const std::set<std::string>& lose,
                         std::int64_t lost_total, const std::set<std::string>& fail,
                         const std::set<std::string>& skip, const std::set<std::string>& reread) {
  if (!lose.empty())
    parts_text.push_back(fmt::format("{} lose{} {} consumed offset(s) for good", lose.size(),
                                     lose.size() == 1 ? "s" : "", lost_total));
  if (!fail.empty())
    parts_text.push_back(fmt::format("{} fail{} with auto.offset.reset=none", fail.size(),
                                     fail.size() == 1 ? "s" : ""));
  if (!skip.empty())
    parts_text.push_back(
        fmt::format("{} skip{} records unseen", skip.size(), skip.size() == 1 ? "s" : ""));
  if (!reread.empty())
    parts_text.push_back(
        fmt::format("{} re-read{} records", reread.size(), reread.size() == 1 ? "s" : ""));
}

}  // namespace

Value group_fates_value(const forecast::PartitionGroupFates& f,
                        const std::vector<std::string>& offsets_partitions) {
  Value parts = Value::array();
  for (const auto& p : offsets_partitions)
    parts.push(p);
  Value rows = Value::array();
  std::int64_t affected = 0;
  std::int64_t unknown = 0;
  for (const auto& g : f.groups) {
    if (!g.committed) {
      ++unknown;
      rows.push(Value::object()
                    .set("group", g.group)
                    .set("auto_offset_reset", Value())
                    .set("action", "unknown")
                    .set("next_position", Value())
                    .set("consumed_lost", Value())
                    .set("reread", Value())
                    .set("skipped_unseen", Value())
                    .set("exception", Value())
                    .set("divergent_offset", Value())
                    .set("committed_offset", Value())
                    .set("committed_leader_epoch", Value())
                    .set("validated", Value())
                    .set("epoch_end_offset", Value())
                    .set("epoch_end_epoch", Value())
                    .set("consumed_lost_from", Value())
                    .set("reread_from", Value())
                    .set("skipped_from", Value())
                    .set("rule", !g.unknown_reason.empty()
                                     ? g.unknown_reason
                                     : std::string("a transactional offset commit awaits its "
                                                   "COMMIT or ABORT marker: the offset the "
                                                   "group fetches from is not known")));
      continue;
    }
    bool group_affected = false;
    for (const auto& o : g.outcomes) {
      const auto& fate = o.fate;
      if (fate.action != forecast::FateAction::no_change) group_affected = true;
      const std::string_view exception = exception_of(fate.action, f.client);
      rows.push(
          Value::object()
              .set("group", g.group)
              .set("auto_offset_reset", forecast::reset_policy_name(o.policy))
              .set("action", forecast::fate_action_name(fate.action))
              .set("next_position", optional_int(fate.next_position))
              .set("consumed_lost", fate.lost_known ? Value(fate.consumed_lost.count()) : Value())
              .set("reread", span_count(fate.reread, fate.counts_known))
              .set("skipped_unseen", span_count(fate.skipped_unseen, fate.counts_known))
              .set("exception", exception.empty() ? Value() : Value(exception))
              .set("divergent_offset", optional_int(fate.divergent_offset))
              .set("committed_offset", g.committed->offset)
              .set("committed_leader_epoch",
                   g.committed->leader_epoch ? Value(*g.committed->leader_epoch) : Value())
              .set("validated", fate.validated)
              .set("epoch_end_offset",
                   fate.epoch_end_offset ? Value(fate.epoch_end_offset->start_offset) : Value())
              .set("epoch_end_epoch",
                   fate.epoch_end_offset ? Value(fate.epoch_end_offset->epoch) : Value())
              .set("consumed_lost_from", span_from(fate.consumed_lost, fate.lost_known))
              .set("reread_from", span_from(fate.reread, fate.counts_known))
              .set("skipped_from", span_from(fate.skipped_unseen, fate.counts_known))
              .set("rule", fate.rule));
    }
    if (group_affected) ++affected;
  }
  return Value::object()
      .set("offsets_partitions", std::move(parts))
      .set("client", forecast::consumer_client_name(f.client))
      .set("consumed_from", f.previous_leader)
      .set("divergence_offset", f.consumed.divergence_offset)
      .set("consumed_log_end_offset", f.consumed.log_end_offset)
      .set("leader_epoch", f.leader_epoch)
      .set("leader_log_start_offset", f.leader.log_start_offset)
      .set("leader_log_end_offset", f.leader.log_end_offset)
      .set("latest_offset", f.leader.latest_offset)
      .set("affected_groups", affected)
      .set("unknown_groups", unknown)
      .set("groups", std::move(rows));
}

Value live_group_fates_value(const forecast::PartitionGroupFates& f, bool complete) {
  const Value base = group_fates_value(f, {});
  const bool leader_known = f.leader_epoch >= 0;
  Value out = Value::object().set("topic", f.topic).set("partition", f.partition);
  for (const auto& [key, v] : base.as_object()) {
    if (key == "offsets_partitions") continue;
    const bool consumed_field =
        key == "consumed_from" || key == "divergence_offset" || key == "consumed_log_end_offset";
    const bool leader_field = key == "leader_epoch" || key == "leader_log_start_offset" ||
                              key == "leader_log_end_offset" || key == "latest_offset";
    if ((consumed_field && !f.consumed_known) || (leader_field && !leader_known))
      out.set(key, Value());
    else
      out.set(key, v);
  }
  // Groups fetched at a known position whose consumed records are not known (no committed
  // epoch to place the divergence): they may skip records unseen.
  std::int64_t uncertain = 0;
  for (const auto& g : f.groups) {
    bool any = false;
    for (const auto& o : g.outcomes)
      any = any || !o.fate.lost_known;
    if (any) ++uncertain;
  }
  out.set("uncertain_groups", uncertain);
  out.set("groups_complete", complete);
  return out;
}

std::string live_group_fates_summary(const Value& partitions) {
  std::set<std::string> all, lose, skip, reread, fail, unknown, uncertain;
  std::int64_t lost_total = 0;
  bool complete = true;
  std::size_t n = 0;
  if (partitions.is_array())
    for (const auto& p : partitions.as_array()) {
      ++n;
      if (!bool_of(p.find("groups_complete"), true)) complete = false;
      const Value* groups = p.find("groups");
      if (!groups || !groups->is_array()) continue;
      const std::string where =
          scalar_text(*p.find("topic")) + "-" + scalar_text(*p.find("partition")) + " ";
      for (const auto& row : groups->as_array()) {
        const std::string g = scalar_text(*row.find("group"));
        all.insert(g);
        if (scalar_text(*row.find("action")) == "unknown") {
          unknown.insert(g);
          continue;
        }
        const Value* c = row.find("consumed_lost");
        if (!c || c->is_null()) uncertain.insert(g);
        if (int_of(c) > 0) {
          if (!lose.contains(g)) lost_total += int_of(c);
          lose.insert(g);
        }
        if (int_of(row.find("skipped_unseen")) > 0) skip.insert(g);
        if (int_of(row.find("reread")) > 0) reread.insert(g);
        if (const Value* e = row.find("exception"); e && !e->is_null()) fail.insert(g);
      }
    }
  if (n == 0) return "";
  std::vector<std::string> parts_text;
  append_fate_clauses(parts_text, lose, lost_total, fail, skip, reread);
  if (!uncertain.empty())
    parts_text.push_back(fmt::format(
        "{} with consumed records unknown (no committed leader epoch, the old leader's log not "
        "given: they may skip records unseen)",
        uncertain.size()));
  if (!unknown.empty()) parts_text.push_back(fmt::format("{} unknown", unknown.size()));
  std::string joined;
  for (std::size_t i = 0; i < parts_text.size(); ++i)
    joined += (i ? ", " : "") + parts_text[i];
  std::string s =
      all.empty()
          ? fmt::format(
                "No consumer group has an offset on the {} partition(s) whose leader "
                "changes log.",
                n)
          : fmt::format("Consumer groups on the {} partition(s) whose leader changes log: {}{}.", n,
                        all.size(), joined.empty() ? "" : " (" + joined + ")");
  if (!complete) s += " Some broker did not list its groups: others may be affected.";
  return s;
}

bool live_groups_affected(const Value& partitions) {
  if (!partitions.is_array()) return false;
  for (const auto& p : partitions.as_array()) {
    if (groups_affected(p)) return true;
    if (int_of(p.find("uncertain_groups")) > 0) return true;
    if (!bool_of(p.find("groups_complete"), true)) return true;
  }
  return false;
}

bool groups_affected(const Value& v) {
  const Value* a = v.find("affected_groups");
  const Value* u = v.find("unknown_groups");
  return int_of(a) > 0 || int_of(u) > 0;
}

std::string group_fates_summary(const Value& v) {
  // Per group, from the rows: which outcomes it meets across the policies shown.
  std::set<std::string> all, lose, skip, reread, fail, unknown;
  std::map<std::string, std::int64_t> lost;
  const Value* groups = v.find("groups");
  if (groups && groups->is_array())
    for (const auto& row : groups->as_array()) {
      const std::string g = scalar_text(*row.find("group"));
      all.insert(g);
      const std::string action = scalar_text(*row.find("action"));
      if (action == "unknown") {
        unknown.insert(g);
        continue;
      }
      if (const Value* c = row.find("consumed_lost"); int_of(c) > 0) {
        lose.insert(g);
        lost[g] = int_of(c);
      }
      if (const Value* s = row.find("skipped_unseen"); int_of(s) > 0) skip.insert(g);
      if (const Value* r = row.find("reread"); int_of(r) > 0) reread.insert(g);
      if (const Value* e = row.find("exception"); e && !e->is_null()) fail.insert(g);
    }
  const Value* parts = v.find("offsets_partitions");
  const std::size_t read = parts && parts->is_array() ? parts->as_array().size() : 0;
  if (all.empty())
    return fmt::format(
        "No consumer group committed an offset here in the {} __consumer_offsets partition(s) "
        "read (groups coordinated by others are not known).",
        read);
  std::vector<std::string> parts_text;
  std::int64_t lost_total = 0;
  for (const auto& [g, n] : lost)
    lost_total += n;
  append_fate_clauses(parts_text, lose, lost_total, fail, skip, reread);
  if (!unknown.empty())
    parts_text.push_back(fmt::format("{} unknown (a transaction's offset commit awaits its marker)",
                                     unknown.size()));
  const std::int64_t affected = int_of(v.find("affected_groups"));
  const std::size_t unchanged = all.size() - static_cast<std::size_t>(affected) - unknown.size();
  if (unchanged > 0) parts_text.push_back(fmt::format("{} unchanged", unchanged));
  std::string joined;
  for (std::size_t i = 0; i < parts_text.size(); ++i)
    joined += (i ? ", " : "") + parts_text[i];
  return fmt::format("Consumer groups with offsets here: {} ({}).", all.size(), joined);
}

}  // namespace kepoch::report
