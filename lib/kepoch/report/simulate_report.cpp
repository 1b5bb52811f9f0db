#include "kepoch/report/simulate_report.hpp"

#include <cctype>

#include <fmt/format.h>

#include "kepoch/report/common_values.hpp"

namespace kepoch::report {
namespace {

using sim::SimReplica;
using sim::SimulationRun;
using sim::StepResult;

std::string name_of(const StepResult& step, std::int32_t broker) {
  for (const auto& r : step.replicas)
    if (r.broker == broker) return r.name;
  return "";
}

Value names_value(const StepResult& step, const std::vector<std::int32_t>& brokers) {
  Value list = Value::array();
  for (auto b : brokers)
    list.push(name_of(step, b));
  return list;
}

Value epochs_value(const LeaderEpochCache& cache) {
  Value list = Value::array();
  for (const auto& e : cache.entries())
    list.push(fmt::format("({},{})", e.epoch, e.start_offset));
  return list;
}

std::string state_of(const StepResult& step, const SimReplica& r) {
  if (!r.alive) return "down";
  return step.partition.leader == r.broker ? "leader" : "follower";
}

Value replica_value(const StepResult& step, const SimReplica& r) {
  return Value::object()
      .set("replica", r.name)
      .set("broker", r.broker)
      .set("state", state_of(step, r))
      .set("log", log_value(r.records))
      .set("log_end_offset", r.log.log_end_offset)
      .set("high_watermark", r.log.high_watermark)
      .set("epochs", epochs_value(r.log.cache));
}

Value step_value(const StepResult& step) {
  Value replicas = Value::array();
  for (const auto& r : step.replicas)
    replicas.push(replica_value(step, r));
  const std::string leader = name_of(step, step.partition.leader);
  return Value::object()
      .set("step", step.index)
      .set("action", step.action)
      .set("line", step.line)
      .set("leader", leader.empty() ? Value() : Value(leader))
      .set("leader_epoch", step.partition.leader_epoch)
      .set("isr", names_value(step, step.partition.isr))
      .set("notes", strings_value(step.notes))
      .set("replicas", std::move(replicas));
}

Value verdict_value(const sim::Verdict& v) {
  Value acknowledged = Value::array();
  for (const auto& p : v.acknowledged)
    acknowledged.push(p.value);
  Value lost = Value::array();
  for (const auto& p : v.lost_acknowledged)
    lost.push(Value::object().set("value", p.value).set("offset", p.offset).set("epoch", p.epoch));
  Value maybe_lost = Value::array();
  for (const auto& p : v.maybe_lost_acknowledged)
    maybe_lost.push(
        Value::object().set("value", p.value).set("offset", p.offset).set("epoch", p.epoch));
  Value divergent = Value::array();
  for (auto o : v.divergent_offsets)
    divergent.push(o);
  Value truncations = Value::array();
  for (const auto& t : v.truncations)
    truncations.push(Value::object()
                         .set("replica", t.replica)
                         .set("step", t.step)
                         .set("from", t.from)
                         .set("to", t.to)
                         .set("reason", t.reason));
  return Value::object()
      .set("acknowledged", std::move(acknowledged))
      .set("lost_acknowledged", std::move(lost))
      .set("maybe_lost_acknowledged", std::move(maybe_lost))
      .set("divergent_offsets", std::move(divergent))
      .set("consistent", v.consistent)
      .set("truncations", std::move(truncations));
}

Value expect_holds(const SimulationOutcome& o) {
  return o.expectation_given ? Value(o.expectation_failures.empty()) : Value();
}

// Where the two rules leave a replica in a different state, step by step.
Value differences(const SimulationRun& epoch, const SimulationRun& hw) {
  Value out = Value::array();
  for (std::size_t i = 0; i < epoch.steps.size() && i < hw.steps.size(); ++i) {
    const StepResult& a = epoch.steps[i];
    const StepResult& b = hw.steps[i];
    for (std::size_t r = 0; r < a.replicas.size() && r < b.replicas.size(); ++r) {
      const SimReplica& x = a.replicas[r];
      const SimReplica& y = b.replicas[r];
      auto diff = [&](const char* field, const std::string& ex, const std::string& hy) {
        if (ex != hy)
          out.push(Value::object()
                       .set("step", a.index)
                       .set("action", a.action)
                       .set("replica", x.name)
                       .set("field", field)
                       .set("epoch", ex)
                       .set("hw", hy));
      };
      auto log_text = [](const SimReplica& s) {
        std::string t;
        const Value log = log_value(s.records);
        for (const auto& e : log.as_array()) {
          if (!t.empty()) t += ' ';
          t += scalar_text(e);
        }
        return t.empty() ? std::string("(empty)") : t;
      };
      diff("log", log_text(x), log_text(y));
      diff("high_watermark", std::to_string(x.log.high_watermark),
           std::to_string(y.log.high_watermark));
    }
  }
  return out;
}

std::string rule_words(sim::Rule rule) {
  return rule == sim::Rule::epoch ? "the leader-epoch rule" : "the pre-0.11 high-watermark rule";
}

// "m2 (offset 1)", at most three, then how many more.
std::string produced_names(const std::vector<sim::Produced>& list) {
  std::string out;
  for (std::size_t i = 0; i < list.size() && i < 3; ++i)
    out += fmt::format("{}{} (offset {})", i ? ", " : "", list[i].value, list[i].offset);
  if (list.size() > 3) out += fmt::format(" and {} more", list.size() - 3);
  return out;
}

// What one rule's run ends with: acknowledged records lost, maybe lost, divergent offsets.
std::string run_clause(const SimulationOutcome& o) {
  const sim::Verdict& v = o.run.verdict;
  std::vector<std::string> parts;
  if (!v.lost_acknowledged.empty())
    parts.push_back(fmt::format("{} {} lost", produced_names(v.lost_acknowledged),
                                v.lost_acknowledged.size() == 1 ? "is" : "are"));
  if (!v.maybe_lost_acknowledged.empty())
    parts.push_back(fmt::format("{} may be lost (no leader at the end)",
                                produced_names(v.maybe_lost_acknowledged)));
  if (parts.empty())
    parts.push_back(v.acknowledged.empty()
                        ? std::string("no record is acknowledged")
                        : fmt::format("all {} acknowledged record{} kept", v.acknowledged.size(),
                                      v.acknowledged.size() == 1 ? " is" : "s are"));
  if (!v.divergent_offsets.empty()) {
    std::string offsets;
    for (std::size_t i = 0; i < v.divergent_offsets.size() && i < 5; ++i)
      offsets += fmt::format("{}{}", i ? ", " : "", v.divergent_offsets[i]);
    if (v.divergent_offsets.size() > 5) offsets += ", ...";
    parts.push_back(fmt::format("the replicas disagree at offset{} {}",
                                v.divergent_offsets.size() == 1 ? "" : "s", offsets));
  }
  std::string out = fmt::format("under {} ", rule_words(o.run.rule));
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return out;
}

}  // namespace

Value log_value(const std::vector<sim::SimRecord>& records) {
  Value list = Value::array();
  for (std::size_t o = 0; o < records.size();) {
    const auto& rec = records[o];
    if (rec.named) {
      list.push(fmt::format("{}:{}:{}", o, rec.epoch, rec.value));
      ++o;
      continue;
    }
    std::size_t end = o;
    while (end + 1 < records.size() && !records[end + 1].named &&
           records[end + 1].epoch == rec.epoch)
      ++end;
    list.push(end == o ? fmt::format("{}:{}", o, rec.epoch)
                       : fmt::format("{}-{}:{}", o, end, rec.epoch));
    o = end + 1;
  }
  return list;
}

Value simulate_value(const std::string& scenario_path, const sim::Scenario& scenario,
                     const std::vector<SimulationOutcome>& runs) {
  Value run_values = Value::array();
  Value verdicts = Value::array();
  bool any_expectation = false;
  bool all_hold = true;
  for (const auto& o : runs) {
    Value steps = Value::array();
    for (const auto& s : o.run.steps)
      steps.push(step_value(s));
    run_values.push(Value::object()
                        .set("rule", sim::rule_name(o.run.rule))
                        .set("steps", std::move(steps))
                        .set("verdict", verdict_value(o.run.verdict))
                        .set("expect_holds", expect_holds(o))
                        .set("expect_failures", strings_value(o.expectation_failures)));
    const auto& v = o.run.verdict;
    Value lost = Value::array();
    for (const auto& p : v.lost_acknowledged)
      lost.push(p.value);
    Value maybe_lost = Value::array();
    for (const auto& p : v.maybe_lost_acknowledged)
      maybe_lost.push(p.value);
    Value divergent = Value::array();
    for (auto d : v.divergent_offsets)
      divergent.push(d);
    Value truncations = Value::array();
    for (const auto& t : v.truncations)
      truncations.push(fmt::format("{}->{}", t.replica, t.to));
    verdicts.push(Value::object()
                      .set("rule", sim::rule_name(o.run.rule))
                      .set("lost_acknowledged", std::move(lost))
                      .set("maybe_lost_acknowledged", std::move(maybe_lost))
                      .set("divergent_offsets", std::move(divergent))
                      .set("consistent", v.consistent)
                      .set("truncations", std::move(truncations))
                      .set("expect", !o.expectation_given             ? "-"
                                     : o.expectation_failures.empty() ? "holds"
                                                                      : "fails"));
    any_expectation = any_expectation || o.expectation_given;
    all_hold = all_hold && o.expectation_failures.empty();
  }
  Value out = Value::object()
                  .set("summary", simulate_summary(runs))
                  .set("scenario", scenario_path)
                  .set("description", scenario.description)
                  .set("runs", std::move(run_values));
  if (runs.size() == 2) out.set("differences", differences(runs[0].run, runs[1].run));
  return out.set("verdicts", std::move(verdicts))
      .set("expect_holds", any_expectation ? Value(all_hold) : Value());
}

}  // namespace kepoch::report

namespace kepoch::report {

bool simulation_findings(const std::vector<SimulationOutcome>& runs) {
  bool any_expectation = false, failed = false;
  for (const auto& out : runs) {
    any_expectation = any_expectation || out.expectation_given;
    failed = failed || !out.expectation_failures.empty();
  }
  if (any_expectation) return failed;
  // No expectation: losing acknowledged records under the first rule run (epoch unless
  // --rule hw) is the finding, or records that may be lost (no leader at the end).
  if (runs.empty()) return false;
  const sim::Verdict& first = runs.front().run.verdict;
  return !first.lost_acknowledged.empty() || !first.maybe_lost_acknowledged.empty();
}

std::string simulate_summary(const std::vector<SimulationOutcome>& runs) {
  if (runs.empty()) return "Nothing was simulated.";
  bool any_expectation = false;
  const SimulationOutcome* failing = nullptr;
  for (const auto& o : runs) {
    any_expectation = any_expectation || o.expectation_given;
    if (!failing && !o.expectation_failures.empty()) failing = &o;
  }
  // The decision, on simulation_findings' own facts.
  std::string out;
  if (failing) {
    out = fmt::format("The scenario's expectation fails under {}: {}{}.",
                      rule_words(failing->run.rule), failing->expectation_failures.front(),
                      failing->expectation_failures.size() > 1
                          ? fmt::format(" (and {} more)", failing->expectation_failures.size() - 1)
                          : "");
  } else if (any_expectation) {
    out = "The scenario's expectations hold.";
  } else {
    const SimulationOutcome& first = runs.front();
    const sim::Verdict& v = first.run.verdict;
    out =
        !v.lost_acknowledged.empty()
            ? fmt::format("Acknowledged records are lost under {}.", rule_words(first.run.rule))
        : !v.maybe_lost_acknowledged.empty()
            ? fmt::format("Acknowledged records may be lost under {}.", rule_words(first.run.rule))
            : fmt::format("No acknowledged record is lost under {}.", rule_words(first.run.rule));
  }
  std::string details;
  for (std::size_t i = 0; i < runs.size(); ++i)
    details += (i ? "; " : "") + run_clause(runs[i]);
  details[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(details[0])));
  return out + " " + details + ".";
}

}  // namespace kepoch::report
