#include "kepoch/sim/scenario_parser.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include "kepoch/base/error.hpp"

namespace kepoch::sim {
namespace {

using Keys = std::vector<std::string_view>;

class Parser {
 public:
  explicit Parser(const std::string& path) : path_(path) {}

  Scenario scenario(const YAML::Node& root) {
    if (!root.IsMap()) fail(root, "expected a scenario (a map with replicas and steps)", root);
    keys(root, {"description", "replicas", "leader", "leader_epoch", "isr", "min_insync_replicas",
                "unclean_leader_election", "eligible_leader_replicas", "steps", "expect"});
    Scenario s;
    if (root["description"]) s.description = text(root["description"], "a description");
    for (const auto& r : list(required(root, "replicas"), "a list of replicas"))
      s.replicas.push_back(replica(r));
    if (s.replicas.empty()) fail(root["replicas"], "expected at least one replica", root);
    for (const auto& r : s.replicas) {
      if (std::count(names_.begin(), names_.end(), r.name) > 0)
        throw InputError(path_, fmt::format("replica '{}' is listed twice", r.name), r.line);
      names_.push_back(r.name);
    }
    s.leader = root["leader"] ? name(root["leader"]) : s.replicas.front().name;
    if (root["leader_epoch"])
      s.leader_epoch = static_cast<std::int32_t>(integer(root["leader_epoch"], 0));
    if (root["isr"])
      for (const auto& n : list(root["isr"], "a list of replica names"))
        s.isr.push_back(name(n));
    else
      s.isr = names_;
    const YAML::Node where = root["leader"] ? root["leader"] : root["replicas"];
    if (std::find(s.isr.begin(), s.isr.end(), s.leader) == s.isr.end())
      fail(
          where,
          fmt::format("expected the leader '{}' in the ISR [{}]", s.leader, fmt::join(s.isr, ", ")),
          root);
    for (const auto& r : s.replicas)
      if (r.name == s.leader && !r.alive)
        fail(where, fmt::format("expected the leader '{}' alive, found alive: false", s.leader),
             root);
    if (root["min_insync_replicas"])
      s.min_insync_replicas = static_cast<std::int32_t>(integer(root["min_insync_replicas"], 1));
    if (root["unclean_leader_election"])
      s.unclean_leader_election = boolean(root["unclean_leader_election"]);
    if (root["eligible_leader_replicas"])
      s.eligible_leader_replicas = boolean(root["eligible_leader_replicas"]);
    for (const auto& st : list(required(root, "steps"), "a list of steps"))
      s.steps.push_back(step(st));
    if (root["expect"]) expect(root["expect"], s);
    return s;
  }

 private:
  [[noreturn]] void fail(const YAML::Node& node, const std::string& what,
                         const YAML::Node& parent) const {
    const YAML::Mark mark = node.IsDefined() && node.Mark().line >= 0 ? node.Mark() : parent.Mark();
    throw InputError(path_, what, mark.line >= 0 ? mark.line + 1 : 0);
  }
  [[noreturn]] void fail(const YAML::Node& node, const std::string& what) const {
    fail(node, what, node);
  }

  static std::string found(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull()) return "nothing";
    if (node.IsMap()) return "a map";
    if (node.IsSequence()) return "a list";
    return fmt::format("'{}'", node.Scalar());
  }

  void keys(const YAML::Node& map, const Keys& allowed) const {
    for (const auto& kv : map) {
      const std::string key = kv.first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(kv.first,
             fmt::format("unknown key '{}' (expected one of: {})", key, fmt::join(allowed, ", ")));
    }
  }

  YAML::Node required(const YAML::Node& map, const char* key) const {
    const YAML::Node node = map[key];
    if (!node) fail(map, fmt::format("missing '{}'", key));
    return node;
  }

  std::vector<YAML::Node> list(const YAML::Node& node, const char* what) const {
    if (!node.IsSequence()) fail(node, fmt::format("expected {}, found {}", what, found(node)));
    return {node.begin(), node.end()};
  }

  std::string text(const YAML::Node& node, const char* what) const {
    if (!node.IsScalar()) fail(node, fmt::format("expected {}, found {}", what, found(node)));
    return node.Scalar();
  }

  std::int64_t integer(const YAML::Node& node, std::int64_t minimum) const {
    const std::string s = node.IsScalar() ? node.Scalar() : std::string();
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (!node.IsScalar() || s.empty() || ec != std::errc() || ptr != s.data() + s.size())
      fail(node, fmt::format("expected an integer, found {}", found(node)));
    if (v < minimum) fail(node, fmt::format("expected an integer >= {}, found {}", minimum, v));
    return v;
  }

  bool boolean(const YAML::Node& node) const {
    const std::string s = node.IsScalar() ? node.Scalar() : std::string();
    if (s == "true") return true;
    if (s == "false") return false;
    fail(node, fmt::format("expected true or false, found {}", found(node)));
  }

  // A reference to a replica listed under replicas.
  std::string name(const YAML::Node& node) const {
    const std::string n = text(node, "a replica name");
    if (std::find(names_.begin(), names_.end(), n) == names_.end())
      fail(node, fmt::format("unknown replica '{}' (replicas: {})", n, fmt::join(names_, ", ")));
    return n;
  }

  ReplicaSpec replica(const YAML::Node& node) const {
    ReplicaSpec r;
    r.line = node.Mark().line + 1;
    if (node.IsScalar()) {
      r.name = node.Scalar();
      return r;
    }
    if (!node.IsMap())
      fail(node, fmt::format("expected a replica name or map, found {}", found(node)));
    keys(node, {"name", "log", "epochs", "log_end_offset", "high_watermark", "alive"});
    r.name = text(required(node, "name"), "a replica name");
    if (node["log"] && node["epochs"])
      fail(node["epochs"], "give the log either as records (log) or as epochs, not both");
    if (node["log"])
      for (const auto& rec : list(node["log"], "a list of records"))
        r.log.push_back(record(rec));
    if (node["epochs"]) {
      for (const auto& e : list(node["epochs"], "a list of [epoch, start_offset] pairs")) {
        if (!e.IsSequence() || e.size() != 2)
          fail(e, fmt::format("expected an [epoch, start_offset] pair, found {}", found(e)));
        r.epochs.push_back({static_cast<std::int32_t>(integer(e[0], 0)), integer(e[1], 0)});
      }
      r.log_end_offset = integer(required(node, "log_end_offset"), 0);
    } else if (node["log_end_offset"]) {
      fail(node["log_end_offset"],
           "log_end_offset goes with epochs (a log of records has its own)");
    } else {
      r.log_end_offset = static_cast<std::int64_t>(r.log.size());
    }
    if (node["high_watermark"]) r.high_watermark = integer(node["high_watermark"], 0);
    if (r.high_watermark > r.log_end_offset)
      fail(node["high_watermark"],
           fmt::format("expected a high watermark <= the log end offset {}, found {}",
                       r.log_end_offset, r.high_watermark));
    if (node["alive"]) r.alive = boolean(node["alive"]);
    return r;
  }

  InitialRecord record(const YAML::Node& node) const {
    if (node.IsScalar()) return {0, node.Scalar()};
    if (!node.IsMap())
      fail(node,
           fmt::format("expected a record (a value, or {{epoch, value}}), found {}", found(node)));
    keys(node, {"epoch", "value"});
    return {static_cast<std::int32_t>(integer(required(node, "epoch"), 0)),
            text(required(node, "value"), "a record value")};
  }

  Step step(const YAML::Node& node) const {
    static const Keys kinds{"produce", "fetch", "crash", "restart", "shrink_isr", "elect"};
    if (!node.IsMap() || node.size() != 1)
      fail(node, fmt::format("expected a step (a map with one of: {}), found {}",
                             fmt::join(kinds, ", "), found(node)));
    const auto kv = *node.begin();
    const std::string kind = kv.first.Scalar();
    const YAML::Node arg = kv.second;
    Step s;
    s.line = node.Mark().line + 1;
    if (kind == "produce") {
      s.kind = StepKind::produce;
      if (!arg.IsMap())
        fail(arg, fmt::format("expected {{values: [...], acks: ...}}, found {}", found(arg)), node);
      keys(arg, {"values", "acks"});
      for (const auto& v : list(required(arg, "values"), "a list of record values"))
        s.values.push_back(text(v, "a record value"));
      if (arg["acks"]) {
        const std::string a = text(arg["acks"], "acks (0, 1 or all)");
        if (a == "0")
          s.acks = Acks::none;
        else if (a == "1")
          s.acks = Acks::leader;
        else if (a == "all" || a == "-1")
          s.acks = Acks::all;
        else
          fail(arg["acks"], fmt::format("expected acks 0, 1 or all, found '{}'", a));
      }
      return s;
    }
    if (kind == "elect") {
      s.kind = StepKind::elect;
      const std::string t = text(arg, "an election type (unclean, preferred or online)");
      if (t == "unclean")
        s.election = ElectionType::unclean;
      else if (t == "preferred")
        s.election = ElectionType::preferred;
      else if (t == "online")
        s.election = ElectionType::online;
      else
        fail(arg, fmt::format("expected unclean, preferred or online, found '{}'", t));
      return s;
    }
    if (kind == "fetch")
      s.kind = StepKind::fetch;
    else if (kind == "crash")
      s.kind = StepKind::crash;
    else if (kind == "restart")
      s.kind = StepKind::restart;
    else if (kind == "shrink_isr")
      s.kind = StepKind::shrink_isr;
    else
      fail(kv.first,
           fmt::format("unknown step '{}' (expected one of: {})", kind, fmt::join(kinds, ", ")));
    if (arg.IsMap()) {
      keys(arg, s.kind == StepKind::crash ? Keys{"replica", "fence"} : Keys{"replica"});
      s.replica = name(required(arg, "replica"));
      if (arg["fence"]) s.fence = boolean(arg["fence"]);
    } else if (arg.IsScalar()) {
      s.replica = name(arg);
    } else {
      fail(arg, fmt::format("expected a replica name, found {}", found(arg)), node);
    }
    return s;
  }

  void expect(const YAML::Node& node, Scenario& s) const {
    if (!node.IsMap())
      fail(node, fmt::format("expected a map of rules (epoch, hw), found {}", found(node)));
    keys(node, {"epoch", "hw"});
    if (node["epoch"]) s.expect_epoch = expectation(node["epoch"]);
    if (node["hw"]) s.expect_hw = expectation(node["hw"]);
  }

  Expectation expectation(const YAML::Node& node) const {
    if (!node.IsMap()) fail(node, fmt::format("expected a verdict map, found {}", found(node)));
    keys(node, {"lost_acknowledged", "divergent_offsets", "consistent", "truncations"});
    Expectation e;
    if (node["lost_acknowledged"]) {
      e.lost_acknowledged.emplace();
      for (const auto& v : list(node["lost_acknowledged"], "a list of record values"))
        e.lost_acknowledged->push_back(text(v, "a record value"));
    }
    if (node["divergent_offsets"]) {
      e.divergent_offsets.emplace();
      for (const auto& v : list(node["divergent_offsets"], "a list of offsets"))
        e.divergent_offsets->push_back(integer(v, 0));
    }
    if (node["consistent"]) e.consistent = boolean(node["consistent"]);
    if (node["truncations"]) {
      const YAML::Node t = node["truncations"];
      if (!t.IsMap())
        fail(t, fmt::format("expected a map of replica: [offsets], found {}", found(t)));
      e.truncations.emplace();
      for (const auto& kv : t) {
        std::vector<std::int64_t> offsets;
        for (const auto& v : list(kv.second, "a list of offsets"))
          offsets.push_back(integer(v, 0));
        e.truncations->emplace_back(name(kv.first), std::move(offsets));
      }
    }
    return e;
  }

  const std::string& path_;
  std::vector<std::string> names_;
};

}  // namespace

Scenario parse_scenario(const std::string& yaml_text, const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own message for it is "bad file"
    throw InputError(
        path,
        fmt::format("not valid YAML: nested {} levels deep, more than yaml-cpp reads", e.depth()),
        e.mark.line >= 0 ? e.mark.line + 1 : 0);
  } catch (const YAML::Exception& e) {
    throw InputError(path, "not valid YAML: " + e.msg, e.mark.line >= 0 ? e.mark.line + 1 : 0);
  }
  return Parser(path).scenario(root);
}

}  // namespace kepoch::sim
