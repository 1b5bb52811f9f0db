#include "kepoch/report/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <vector>

#include "kepoch/base/time_text.hpp"
#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/storage/segment_dump.hpp"

namespace kepoch::report {
namespace {

// ---- reading a report back -----------------------------------------------------------------

std::optional<std::int64_t> int_at(const Value& v, std::string_view key) {
  const Value* x = v.find(key);
  if (!x) return std::nullopt;
  if (const auto* i = std::get_if<std::int64_t>(&x->data())) return *i;
  return std::nullopt;
}

// true, false, or nullopt for null (or missing): "cannot be ruled out".
std::optional<bool> bool_at(const Value& v, std::string_view key) {
  const Value* x = v.find(key);
  if (!x) return std::nullopt;
  if (const auto* b = std::get_if<bool>(&x->data())) return *b;
  return std::nullopt;
}

std::string text_at(const Value& v, std::string_view key) {
  const Value* x = v.find(key);
  return x ? scalar_text(*x) : std::string();
}

std::size_t size_at(const Value& v, std::string_view key) {
  const Value* x = v.find(key);
  return x && x->is_array() ? x->as_array().size() : 0;
}

const Value::Array& array_at(const Value& v, std::string_view key) {
  static const Value::Array kEmpty;
  const Value* x = v.find(key);
  return x && x->is_array() ? x->as_array() : kEmpty;
}

std::string plural(std::int64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string records(std::int64_t n) {
  return plural(n, "record", "records");
}

std::string joined(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts)
    out += (out.empty() ? "" : std::string(sep)) + p;
  return out;
}

// At most `limit` names, then "and N more".
std::string names(const std::vector<std::string>& list, std::size_t limit = 3) {
  std::vector<std::string> shown(
      list.begin(), list.begin() + static_cast<std::ptrdiff_t>(std::min(limit, list.size())));
  std::string out = joined(shown, ", ");
  if (list.size() > limit) out += fmt::format(" and {} more", list.size() - limit);
  return out;
}

std::string partition_name(const Value& section) {
  return text_at(section, "topic") + "-" + text_at(section, "partition");
}

// How bad a section is, worst last: scripts and the paired sentence rank by it. Decided
// from typed fields only (numbers, booleans, nulls, enum values such as outcome "fails"),
// the same facts that decide the exit code; never from the wording of a message
// (tests/cli/verdict-from-structure.sh holds this file to that).
enum class Verdict { safe, differs, unknown, fails, loss };

// ---- predict --------------------------------------------------------------------------------

struct Clause {
  Verdict verdict = Verdict::safe;
  bool truncates = false;
  std::string text;
};

// One follower: where it truncates and what that costs (predict_report.hpp's fields).
Clause follower_clause(const Value& r) {
  Clause c;
  const std::string name = replica_name(text_at(r, "dir"));
  const auto truncate_to = int_at(r, "truncate_to").value_or(0);
  const auto log_end = int_at(r, "log_end_offset").value_or(0);
  const auto removed = int_at(r, "removed_records");
  const auto lost = int_at(r, "lost_records");
  const auto committed = int_at(r, "committed_lost_records");
  const auto unknown = int_at(r, "lost_unknown_records").value_or(0);
  const auto committed_loss = bool_at(r, "committed_loss");
  const bool fully = bool_at(r, "truncated_fully").value_or(false);
  // outcome (predict_report.hpp): "fails" (the follower's first fetch after truncating is
  // refused: UnexpectedAppendOffsetException, the partition marked failed), "follows", or
  // null when that cannot be told; both of the last two decide exit 1 as a loss does.
  const Value* outcome = r.find("outcome");
  const bool fails = outcome && scalar_text(*outcome) == "fails";
  const bool follow_unknown = !outcome || outcome->is_null();
  const Value* kept = r.find("kept_divergent_range");
  c.truncates = fully || truncate_to < log_end || (removed && *removed > 0);
  if (committed_loss == true)
    c.verdict = Verdict::loss;
  else if (fails)
    c.verdict = Verdict::fails;
  else if (!committed_loss || follow_unknown)
    c.verdict = Verdict::unknown;
  const std::string after =
      fails ? ", then fails: its first fetch is refused (UnexpectedAppendOffsetException) and "
              "the partition is marked failed, out of the ISR"
      : follow_unknown ? ", and whether it can follow the leader afterwards is unknown"
                       : "";
  if (!c.truncates && c.verdict == Verdict::safe)
    return {c.verdict, false, fmt::format("{} truncates nothing", name)};
  // Nothing cut, yet batches that differ from the leader's stay (kept_divergent_range).
  if (!c.truncates && removed && lost && *lost == 0 && unknown == 0) {
    if (kept && kept->is_object())
      return {c.verdict, false,
              fmt::format("{} truncates nothing but keeps batches that differ from the "
                          "leader's (offsets {}..{}), possibly committed ones{}",
                          name, text_at(*kept, "first"), text_at(*kept, "last"), after)};
    if (fails || follow_unknown)
      return {c.verdict, false, fmt::format("{} truncates nothing{}", name, after)};
    return {c.verdict, false,
            fmt::format("{} truncates nothing, but a committed loss cannot be ruled out (see "
                        "unanswered)",
                        name)};
  }
  std::string text = fully ? fmt::format("{} is truncated fully, to {}", name, truncate_to)
                           : fmt::format("{} truncates to {}", name, truncate_to);
  // A tiered follower truncating below its local log start (predict_report's remote_removed):
  // what its lineage held only in remote segments, forked off with it.
  std::string remote_text;
  std::int64_t remote_lost = 0;
  if (const Value* rr = r.find("remote_removed"); rr && rr->is_object()) {
    remote_lost = int_at(*rr, "lost_records").value_or(0);
    const auto undescribed = array_at(*rr, "undescribed_ranges").size();
    const Value* range = rr->find("range");
    const std::string span =
        range && range->is_object()
            ? fmt::format("offsets {}..{}", text_at(*range, "first"), text_at(*range, "last"))
            : std::string("its remote offsets");
    if (remote_lost > 0)
      remote_text = fmt::format(
          "; below its local log start it forks off {} held in remote segments ({}), committed",
          records(remote_lost), span);
    if (undescribed > 0)
      remote_text += fmt::format(
          "; what remote storage holds of {} is not described by the remote log metadata given, "
          "possibly committed",
          span);
  }
  if (!removed) {
    text += ": how many records it removes is unknown (the snapshot did not keep that batch)";
  } else if (!lost) {
    text += fmt::format(": removes {}; how many are lost is unknown", records(*removed));
  } else if (*lost == 0 && unknown == 0 && remote_lost == 0) {
    // Records below the leader's log start are not fetched back: the leader deleted them.
    const auto below = int_at(r, "below_leader_start_records").value_or(0);
    const Value* tier = r.find("remote_tier");
    const auto remote =
        tier && tier->is_object() ? int_at(*tier, "remote_held_records").value_or(0) : 0;
    if (remote > 0)
      text += fmt::format(
          ": removes {} ({} held in remote storage, {} below the leader's log start; the rest "
          "fetched back), none lost",
          records(*removed), remote, below);
    else if (below == 0)
      text += fmt::format(": removes {}, all fetched back from the leader, none lost",
                          records(*removed));
    else if (below >= *removed)
      text +=
          fmt::format(": removes {}, all below the leader's log start (deleted there), none lost",
                      records(*removed));
    else
      text += fmt::format(
          ": removes {} ({} below the leader's log start, deleted there; the rest "
          "fetched back), none lost",
          records(*removed), below);
  } else if (*lost == 0 && unknown == 0) {
    text += fmt::format(": loses none of the {} it removes from its local log", records(*removed));
  } else {
    text += fmt::format(": loses {}", records(*lost));
    if (*removed > *lost + unknown) text += fmt::format(" of {} removed", *removed);
  }
  if (committed_loss == true) {
    // (true from remote segments alone: the local clause then says nothing of it)
    if (committed.value_or(0) > 0)
      text += fmt::format(", {} committed", committed.value_or(0) == 1
                                                ? "1 of them"
                                                : fmt::format("{} of them", committed.value_or(0)));
    else if (lost && *lost > 0)
      text += ", none of them committed";
  } else if (!committed_loss) {
    // The opening says a committed loss cannot be ruled out: the clause says which records.
    text += unknown > 0 ? fmt::format(", and {} the leader could not show, possibly committed",
                                      records(unknown))
                        : ", possibly committed";
  } else if (lost && *lost > 0) {
    text += ", none committed";
  }
  text += remote_text;
  c.text = std::move(text) + after;
  return c;
}

Verdict predict_verdict(const Value& section, std::vector<Clause>* clauses) {
  Verdict worst = Verdict::safe;
  for (const auto& r : array_at(section, "replicas")) {
    Clause c = follower_clause(r);
    worst = std::max(worst, c.verdict);
    if (clauses) clauses->push_back(std::move(c));
  }
  if (!section.find("replicas")) return Verdict::unknown;  // --elect found no leader
  return worst;
}

std::string verdict_opening(Verdict v, std::string_view safe) {
  switch (v) {
    case Verdict::loss:
      return "Committed records would be lost.";
    case Verdict::fails:
      return "A follower fails after its truncation.";
    case Verdict::unknown:
      return "A committed loss cannot be ruled out.";
    default:
      return std::string(safe);
  }
}

// ---- diff -----------------------------------------------------------------------------------

std::optional<std::int64_t> fork_of(const Value& c) {
  const auto a = int_at(c, "fork_offset_by_epochs");
  const auto b = int_at(c, "fork_offset_by_batches");
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}

std::string range_text(const Value& c, std::string_view key) {
  const Value* r = c.find(key);
  if (!r || !r->is_object()) return "";
  return fmt::format("{}..{}", text_at(*r, "first"), text_at(*r, "last"));
}

Clause comparison_clause(const Value& c) {
  Clause out;
  const std::string name = replica_name(text_at(c, "dir"));
  const std::string ref = replica_name(text_at(c, "against"));
  if (bool_at(c, "identical").value_or(false)) {
    out.text = fmt::format("{} equals {}", name, ref);
    return out;
  }
  const auto fork = fork_of(c);
  const std::string here = range_text(c, "only_here");
  const std::string there = range_text(c, "only_there");
  const std::size_t batches = size_at(c, "differing_batches");
  const std::size_t unanswered = size_at(c, "unanswered");
  out.verdict = Verdict::differs;
  if (!fork && batches == 0 && here.empty() && !there.empty()) {
    // A strict prefix of the reference: it has not fetched the rest yet. Not a divergence.
    out.text = fmt::format("{} lags {}: it lacks offsets {}, no divergence", name, ref, there);
  } else if (!fork && batches == 0 && there.empty() && !here.empty()) {
    out.text = fmt::format("{} is ahead of {}: only it holds offsets {}, no divergence below", name,
                           ref, here);
  } else if (fork || batches > 0) {
    out.verdict = Verdict::loss;  // two histories: the one that is not the leader's truncates
    std::string text = fork ? fmt::format("{} forked from {} at offset {}", name, ref, *fork)
                            : fmt::format("{} differs from {}", name, ref);
    std::vector<std::string> what;
    if (batches > 0)
      what.push_back(plural(static_cast<std::int64_t>(batches), "batch differs", "batches differ"));
    if (!here.empty()) what.push_back(fmt::format("only it holds {}", here));
    if (!there.empty()) what.push_back(fmt::format("it lacks {}", there));
    if (!what.empty()) text += " (" + joined(what, ", ") + ")";
    out.text = std::move(text);
  } else {
    out.verdict = Verdict::unknown;
    out.text = fmt::format("{} and {} agree where both were read", name, ref);
  }
  if (unanswered > 0) {
    out.verdict = std::max(out.verdict, Verdict::unknown);
    out.text += fmt::format("; {} left open (see unanswered)",
                            plural(static_cast<std::int64_t>(unanswered), "question", "questions"));
  }
  return out;
}

// safe: identical; differs: only lagging/ahead; loss: diverged; unknown: cannot tell.
Verdict diff_verdict(const Value& section, std::vector<Clause>* clauses) {
  Verdict worst = Verdict::safe;
  bool open = false;
  for (const auto& c : array_at(section, "comparisons")) {
    Clause x = comparison_clause(c);
    if (x.verdict == Verdict::unknown)
      open = true;
    else
      worst = std::max(worst, x.verdict);
    if (clauses) clauses->push_back(std::move(x));
  }
  if (worst == Verdict::loss) return Verdict::loss;
  return open ? Verdict::unknown : worst;
}

}  // namespace

std::string replica_name(std::string_view dir) {
  while (dir.size() > 1 && dir.back() == '/')
    dir.remove_suffix(1);
  const auto last = dir.rfind('/');
  if (last == std::string_view::npos || last == 0) return std::string(dir);
  const auto before = dir.rfind('/', last - 1);
  return std::string(before == std::string_view::npos ? dir : dir.substr(before + 1));
}

Value with_summary(Value report, std::string sentence) {
  if (!report.is_object()) return report;
  Value out = Value::object();
  const Value* existing = report.find("summary");
  if (existing && existing->is_object()) {
    for (const auto& [k, v] : report.as_object()) {
      if (k != "summary") {
        out.set(k, v);
        continue;
      }
      Value counts = Value::object().set("text", sentence);
      for (const auto& [ck, cv] : v.as_object())
        if (ck != "text") counts.set(ck, cv);
      out.set(k, std::move(counts));
    }
    return out;
  }
  out.set("summary", std::move(sentence));
  for (const auto& [k, v] : report.as_object())
    if (k != "summary") out.set(k, v);
  return out;
}

const Value* summary_text(const Value& report) {
  const Value* s = report.find("summary");
  if (!s) return nullptr;
  if (std::holds_alternative<std::string>(s->data())) return s;
  const Value* text = s->find("text");
  return text && std::holds_alternative<std::string>(text->data()) ? text : nullptr;
}

std::string predict_summary(const Value& section) {
  const Value* election = section.find("election");
  if (!section.find("replicas")) {
    // From the election's typed fields (election_report.hpp), not its reason's words.
    if (!election || !election->is_object()) return "No replica can lead.";
    const auto ids = [&](std::string_view key) {
      std::vector<std::string> out;
      for (const auto& id : array_at(*election, key))
        out.push_back(scalar_text(id));
      return joined(out, ",");
    };
    const std::string elr = ids("elr");
    return fmt::format("No replica can lead: no member of the ISR [{}]{} is alive (alive: [{}]).",
                       ids("isr"), elr.empty() ? "" : fmt::format(" or the ELR [{}]", elr),
                       ids("alive"));
  }
  std::vector<Clause> clauses;
  const Verdict v = predict_verdict(section, &clauses);
  std::vector<std::string> parts;
  for (const auto& c : clauses)
    parts.push_back(c.text);
  std::string out = verdict_opening(v, "No committed record is lost.");
  if (election) {
    const Value* leader = section.find("leader");
    out += fmt::format(
        " {} would lead{}.",
        leader ? replica_name(text_at(*leader, "dir")) : std::string("a replica"),
        int_at(*election, "new_leader_epoch_at_least")
            ? fmt::format(" at epoch {} or above", *int_at(*election, "new_leader_epoch_at_least"))
            : std::string());
  }
  if (parts.empty()) return out + " No follower was given.";
  return out + " " + joined(parts, "; ") + ".";
}

std::string diff_summary(const Value& section) {
  std::vector<Clause> clauses;
  const Verdict v = diff_verdict(section, &clauses);
  const std::size_t n = size_at(section, "replicas");
  const std::string partition = partition_name(section);
  if (v == Verdict::safe) {
    std::int64_t end = 0;
    for (const auto& r : array_at(section, "replicas"))
      end = std::max(end, int_at(r, "log_end_offset").value_or(0));
    return fmt::format("The {} replicas of {} are identical (log end {}).", n, partition, end);
  }
  std::vector<std::string> parts;
  for (const auto& c : clauses)
    if (c.verdict != Verdict::safe) parts.push_back(c.text);
  const std::string opening =
      v == Verdict::loss ? fmt::format("The replicas of {} have diverged.", partition)
      : v == Verdict::unknown
          ? fmt::format("Whether the replicas of {} agree is unknown.", partition)
          : fmt::format("The replicas of {} differ only in length.", partition);
  const std::string details = joined(parts, "; ");
  return opening + (details.empty() ? "" : " " + details + ".");
}

namespace {

template <typename VerdictOf>
std::string paired_summary(const Value& paired, std::string_view action, VerdictOf verdict_of,
                           std::string_view loss_words, std::string_view safe_words) {
  std::vector<std::string> loss, fails, unknown, differs;
  std::size_t total = 0;
  for (const auto& s : array_at(paired, "partitions")) {
    ++total;
    switch (verdict_of(s)) {
      case Verdict::loss:
        loss.push_back(partition_name(s));
        break;
      case Verdict::fails:
        fails.push_back(partition_name(s));
        break;
      case Verdict::unknown:
        unknown.push_back(partition_name(s));
        break;
      case Verdict::differs:
        differs.push_back(partition_name(s));
        break;
      case Verdict::safe:
        break;
    }
  }
  std::vector<std::string> parts;
  if (!loss.empty())
    parts.push_back(
        fmt::format("{} in {} of {} ({})", loss_words, loss.size(), total, names(loss)));
  if (!fails.empty())
    parts.push_back(
        fmt::format("a follower fails in {} of {} ({})", fails.size(), total, names(fails)));
  if (!unknown.empty())
    parts.push_back(fmt::format("cannot be told in {} ({})", unknown.size(), names(unknown)));
  if (!differs.empty())
    parts.push_back(fmt::format("{} differ only in length ({})", differs.size(), names(differs)));
  const std::size_t notes = size_at(paired, "notes");
  const std::string unpaired =
      notes
          ? fmt::format(" {} held by one side only (see notes).",
                        plural(static_cast<std::int64_t>(notes), "partition is", "partitions are"))
          : "";
  if (parts.empty())
    return fmt::format("{} {}: {}.{}",
                       plural(static_cast<std::int64_t>(total), "partition", "partitions"), action,
                       safe_words, unpaired);
  std::string details = joined(parts, "; ");
  details[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(details[0])));
  return fmt::format("{} {}. {}.{}",
                     plural(static_cast<std::int64_t>(total), "partition", "partitions"), action,
                     details, unpaired);
}

}  // namespace

std::string paired_predict_summary(const Value& paired) {
  return paired_summary(
      paired, "predicted", [](const Value& s) { return predict_verdict(s, nullptr); },
      "committed records lost", "no committed record is lost");
}

std::string paired_diff_summary(const Value& paired) {
  return paired_summary(
      paired, "compared", [](const Value& s) { return diff_verdict(s, nullptr); }, "diverged",
      "every one identical");
}

std::string verify_summary(const Value& v) {
  const std::string name = replica_name(text_at(v, "dir"));
  const auto errors = int_at(v, "error_count").value_or(0);
  const auto warnings = int_at(v, "warning_count").value_or(0);
  const std::string warned =
      warnings ? fmt::format(" ({}: see findings)", plural(warnings, "warning", "warnings")) : "";
  if (const Value* f = v.find("next_start_failure"); f && f->is_object()) {
    std::string exception = text_at(*f, "exception");
    exception = exception.substr(exception.rfind('.') + 1);
    return fmt::format("{} stops the broker on its next start: {} in {} at byte {}.", name,
                       exception, text_at(*f, "segment"), text_at(*f, "position"));
  }
  std::string out;
  if (const Value* t = v.find("recovery_next_start"); t && t->is_object()) {
    out = fmt::format("{}'s next start truncates it to offset {} ({} bytes cut: {}).", name,
                      text_at(*t, "truncate_to_offset"), text_at(*t, "truncated_bytes"),
                      text_at(*t, "stop_reason"));
  }
  if (errors > 0) {
    std::string first;
    for (const auto& f : array_at(v, "findings"))
      if (text_at(f, "severity") == "error") {
        first = text_at(f, "file") + ": " + text_at(f, "message");
        break;
      }
    out += fmt::format("{}{} has {}{}: {}.", out.empty() ? "" : " ", name,
                       plural(errors, "error", "errors"), warned, first);
    return out;
  }
  if (!out.empty()) return out + warned;
  return fmt::format("{} loads as it is: offsets {}..{}, high watermark {}, no error{}.", name,
                     text_at(v, "log_start_offset"), text_at(v, "log_end_offset"),
                     v.find("high_watermark") && !v.find("high_watermark")->is_null()
                         ? text_at(v, "high_watermark")
                         : std::string("unknown"),
                     warned);
}

std::string inspect_summary(const Value& v) {
  const std::string name = replica_name(text_at(v, "dir"));
  const Value* controller = v.find("controller");
  // The exit code's finding (--metadata): an epoch of the replica's cache the controller
  // never issued with a leader (controller_report.hpp); it leads.
  std::string out;
  if (controller && controller->is_object() && size_at(*controller, "findings") > 0) {
    const auto& first = array_at(*controller, "findings").front();
    out = fmt::format("{}'s epoch cache disagrees with the controller's log: {}{}. ", name,
                      text_at(first, "message"),
                      size_at(*controller, "findings") > 1
                          ? fmt::format(" (and {} more)", size_at(*controller, "findings") - 1)
                          : "");
  }
  const auto start = int_at(v, "log_start_offset").value_or(0);
  const auto end = int_at(v, "log_end_offset").value_or(0);
  const auto segments = static_cast<std::int64_t>(size_at(v, "segments"));
  out += fmt::format("{} holds {} in {}", name,
                     start == end ? fmt::format("no record (log end {})", end)
                                  : fmt::format("offsets {}..{}", start, end - 1),
                     plural(segments, "segment", "segments"));
  const Value* hw = v.find("high_watermark");
  out += hw && !hw->is_null() ? fmt::format(", high watermark {}", text_at(v, "high_watermark"))
                              : ", high watermark unknown";
  const auto& cache = array_at(v, "loaded_epoch_cache");
  if (!cache.empty())
    out += fmt::format(", latest leader epoch {} from offset {}", text_at(cache.back(), "epoch"),
                       text_at(cache.back(), "start_offset"));
  const Value* cmp = v.find("checkpoint_vs_rebuilt");
  if (cmp && bool_at(*cmp, "equal").value_or(false))
    out += "; its leader-epoch-checkpoint agrees with the batches";
  else if (cmp)
    out += fmt::format(
        "; its leader-epoch-checkpoint differs from the batches ({} only in the checkpoint, {} "
        "only in the batches)",
        size_at(*cmp, "only_in_checkpoint"), size_at(*cmp, "only_in_rebuilt"));
  if (!bool_at(v, "clean_shutdown").value_or(false)) out += "; no clean shutdown recorded";
  if (controller && controller->is_object()) {
    const Value* leader = controller->find("leader");
    const Value* issued = controller->find("issued");  // null: no timeline for the partition
    if (!issued || issued->is_null())
      out += "; the metadata log has no record of the partition";
    else if (!leader || int_at(*controller, "leader").value_or(-1) < 0)
      out += "; the controller's log leaves it without a leader";
    else
      out += fmt::format("; the controller's log: leader {} at epoch {}", scalar_text(*leader),
                         text_at(*controller, "leader_epoch"));
  }
  out += ".";
  if (const auto notes = size_at(v, "notes"); notes > 0)
    out +=
        fmt::format(" {} (see notes).", plural(static_cast<std::int64_t>(notes), "note", "notes"));
  return out;
}

std::string scan_summary(const Value& scan, std::size_t unreadable) {
  std::vector<std::string> parts;
  bool bad = false;
  for (const auto& d : array_at(scan, "log_dirs")) {
    const auto n = int_at(d, "partitions").value_or(0);
    const auto errors = int_at(d, "with_errors").value_or(0);
    const auto warnings = int_at(d, "with_warnings").value_or(0);
    const bool checkpoints = bool_at(d, "checkpoints_valid").value_or(false);
    std::string text = fmt::format("{}: {}", replica_name(text_at(d, "dir")),
                                   plural(n, "partition", "partitions"));
    if (errors) text += fmt::format(", {} with errors", errors);
    if (warnings) text += fmt::format(", {} with warnings", warnings);
    if (!errors && !warnings) text += ", none with a problem";
    if (!checkpoints) text += ", a checkpoint file invalid";
    // has_errors decides the exit code; what it counts beyond the partitions and the
    // checkpoints is an error of the log dir itself (problems: a directory Kafka refuses).
    const bool dir_errors = bool_at(d, "has_errors").value_or(true);
    std::int64_t own = 0;
    for (const auto& p : array_at(d, "problems"))
      own += text_at(p, "severity") == "error" ? 1 : 0;
    if (dir_errors && !errors && checkpoints)
      text += own > 0 ? fmt::format(", {} in the log dir itself (see problems)",
                                    plural(own, "error", "errors"))
                      : ", errors in the log dir itself (see problems)";
    bad = bad || dir_errors;
    parts.push_back(std::move(text));
  }
  std::string opening = bad ? "Errors found." : "No error found.";
  if (unreadable)
    opening = fmt::format("{} could not be read{}.",
                          plural(static_cast<std::int64_t>(unreadable), "log dir", "log dirs"),
                          bad ? "; errors in the others" : ": the others have no error");
  if (parts.empty()) return opening;
  return fmt::format("{} {}.", opening, joined(parts, "; "));
}

std::string restart_summary(const Value& r) {
  const Value* s = r.find("summary");
  if (!s || !s->is_object()) return "";
  const auto partitions = int_at(*s, "partitions").value_or(0);
  const auto truncates = int_at(*s, "truncates").value_or(0);
  const auto lost = int_at(*s, "lost_records").value_or(0);
  const auto committed = int_at(*s, "committed_lost_records").value_or(0);
  const auto loss = int_at(*s, "committed_loss_partitions").value_or(0);
  const auto unanswered = int_at(*s, "unanswered").value_or(0);
  std::vector<std::string> at_risk;
  for (const auto& p : array_at(*s, "at_risk"))
    at_risk.push_back(scalar_text(p));
  const std::string broker = text_at(r, "broker");
  const auto fails = int_at(*s, "fails").value_or(0);
  // committed_loss_possible is what decides the exit code (restart_report.hpp): never a
  // safe opening when it is true, whatever the counts below say.
  const bool at_risk_exit = bool_at(*s, "committed_loss_possible").value_or(true);
  std::string opening;
  if (loss > 0)
    opening = fmt::format("Broker {}'s restart loses committed records in {} ({}).", broker,
                          plural(loss, "partition", "partitions"), names(at_risk));
  else if (fails > 0)
    opening = fmt::format(
        "On broker {}'s restart a follower fails in {} ({}): truncated, then refused by its "
        "leader (UnexpectedAppendOffsetException), the partition marked failed.",
        broker, plural(fails, "partition", "partitions"), names(at_risk));
  else if (at_risk_exit)
    opening = fmt::format(
        "A committed loss on broker {}'s restart cannot be ruled out{}.", broker,
        at_risk.empty()
            ? fmt::format(": {} not answered", plural(unanswered, "partition", "partitions"))
            : " (" + names(at_risk) + ")");
  else if (size_at(r, "problems") > 0)
    opening = fmt::format(
        "Broker {}'s restart loses no committed record as far as kepoch could read (see the "
        "warnings: not proven safe).",
        broker);
  else
    opening = fmt::format("Broker {}'s restart loses no committed record.", broker);
  std::string details = fmt::format(
      "Of {}: {} follow a leader, {} fail, {} lead, {} stay leaderless, {} stray; {} truncate{}",
      plural(partitions, "partition", "partitions"), text_at(*s, "follows"), fails,
      text_at(*s, "leads"), text_at(*s, "leaderless"), text_at(*s, "stray"), truncates,
      truncates == 1 ? "s" : "");
  if (truncates > 0) details += fmt::format(", losing {} ({} committed)", records(lost), committed);
  if (unanswered > 0) details += fmt::format(", {} unanswered", unanswered);
  return opening + " " + details + ".";
}

std::string what_if_summary(const Value& w) {
  const Value* s = w.find("summary");
  if (!s || !s->is_object()) return "";
  std::vector<std::string> stopped;
  for (const auto& id : array_at(w, "stop"))
    stopped.push_back(scalar_text(id));
  const std::string who = fmt::format("Stopping broker{} {} ({})", stopped.size() == 1 ? "" : "s",
                                      joined(stopped, ","), text_at(w, "shutdown"));
  const auto unavailable = int_at(*s, "unavailable").value_or(0);
  const auto needs_unclean = int_at(*s, "needs_unclean_election").value_or(0);
  const auto unclean = int_at(*s, "unclean_election").value_or(0);
  const auto under = int_at(*s, "under_min_isr").value_or(0);
  const auto maybe_under = int_at(*s, "under_min_isr_unknown").value_or(0);
  const auto moved = int_at(*s, "leaders_moved").value_or(0);
  const auto partitions = int_at(*s, "partitions").value_or(0);
  std::vector<std::string> harm;
  if (unavailable)
    harm.push_back(fmt::format("takes {} offline{}", plural(unavailable, "partition", "partitions"),
                               needs_unclean ? fmt::format(" ({} only an unclean election could "
                                                           "bring back)",
                                                           needs_unclean)
                                             : ""));
  if (unclean)
    harm.push_back(fmt::format("forces {} unclean election{}", unclean, unclean == 1 ? "" : "s"));
  if (under)
    harm.push_back(
        fmt::format("leaves {} under min.insync.replicas (producers with "
                    "acks=all fail there)",
                    plural(under, "partition", "partitions")));
  if (maybe_under)
    harm.push_back(fmt::format("may leave {} under min.insync.replicas (not read: not ruled out)",
                               plural(maybe_under, "partition", "partitions")));
  const bool unread = size_at(w, "problems") > 0;
  std::string out;
  if (harm.empty())
    out = fmt::format("{} keeps all {} available, none under min.insync.replicas; {} move.", who,
                      plural(partitions, "partition", "partitions"),
                      plural(moved, "leader", "leaders"));
  else
    out =
        fmt::format("{} {}; {} move.", who, joined(harm, ", "), plural(moved, "leader", "leaders"));
  if (unread)
    out += harm.empty() ? " This assumes defaults for what could not be read (see the warnings): "
                          "not proven safe."
                        : " Some settings could not be read (see the warnings).";
  return out;
}

// ---- segment dump ---------------------------------------------------------------------------

void SegmentFacts::add(const DumpedBatch& b) {
  const BatchHeader& h = b.header;
  ++batches;
  records += h.is_v2() ? static_cast<std::uint64_t>(std::max(h.records_count, 0)) : 1;
  if (h.is_control()) ++control_batches;
  if (h.is_transactional()) ++transactional_batches;
  if (!first_offset) first_offset = h.base_offset;
  last_offset = last_offset ? std::max(*last_offset, h.last_offset()) : h.last_offset();
  if (h.is_v2()) {
    min_epoch =
        min_epoch ? std::min(*min_epoch, h.partition_leader_epoch) : h.partition_leader_epoch;
    max_epoch =
        max_epoch ? std::max(*max_epoch, h.partition_leader_epoch) : h.partition_leader_epoch;
  }
  for (const std::int64_t t : {h.base_timestamp, h.max_timestamp}) {
    if (t < 0) continue;  // NO_TIMESTAMP (legacy magic 0), or a timestamp Kafka never writes
    first_time = first_time ? std::min(*first_time, t) : t;
    last_time = last_time ? std::max(*last_time, t) : t;
  }
  if (b.invalid) {
    ++invalid_batches;
    if (!first_invalid_offset) first_invalid_offset = h.base_offset;
  }
  const bool bad_control = std::any_of(b.controls.begin(), b.controls.end(),
                                       [](const DumpedControl& c) { return c.error.has_value(); });
  if (b.records_error || bad_control || b.coordinator_error_count) {
    record_errors += std::max<std::uint64_t>(b.coordinator_error_count, 1);
    if (!first_record_error_offset) first_record_error_offset = h.base_offset;
  }
}

bool SegmentFacts::findings() const {
  return invalid_batches > 0 || record_errors > 0 || nothing_selected || unloadable_name ||
         end.reason == LogEndReason::corrupt_size;
}

std::string segment_summary(const std::string& file, const SegmentFacts& f) {
  // What is in it: counts, offsets, epochs, time span.
  std::string held;
  if (f.batches == 0) {
    held = "no batch";
  } else {
    held = fmt::format(
        "{} ({}), offsets {}..{}", plural(static_cast<std::int64_t>(f.batches), "batch", "batches"),
        records(static_cast<std::int64_t>(f.records)), *f.first_offset, *f.last_offset);
    if (f.min_epoch)
      held += *f.min_epoch == *f.max_epoch
                  ? fmt::format(", leader epoch {}", *f.min_epoch)
                  : fmt::format(", leader epochs {}..{}", *f.min_epoch, *f.max_epoch);
    if (f.first_time) {
      const auto a = iso_time_text(*f.first_time).value_or("?");
      const auto b = iso_time_text(*f.last_time).value_or("?");
      held += a == b ? fmt::format(", written at {}", a) : fmt::format(", written {} to {}", a, b);
    }
    std::vector<std::string> kinds;
    if (f.control_batches)
      kinds.push_back(
          plural(static_cast<std::int64_t>(f.control_batches), "control batch", "control batches"));
    if (f.transactional_batches)
      kinds.push_back(
          fmt::format("{} transactional", static_cast<std::int64_t>(f.transactional_batches)));
    if (!kinds.empty()) held += " (" + joined(kinds, ", ") + ")";
  }
  // With --max-batches or a filter, the sentence is about the batches the dump shows.
  const bool part = f.stopped_early || f.filtered;
  const std::string whose = f.stopped_early ? fmt::format("The first batches of {}", file)
                            : f.filtered    ? fmt::format("The selected batches of {}", file)
                                            : file;
  const std::string verb = part ? "hold" : "holds";
  // What is wrong, worst first: each of these decides exit 1.
  std::vector<std::string> damage;
  if (f.unloadable_name)
    damage.push_back("Kafka cannot load a segment of this name (" + *f.unloadable_name + ")");
  if (f.end.reason == LogEndReason::corrupt_size)
    damage.push_back(
        fmt::format("a corrupt batch size at byte {} ends the walk ({} bytes not read)",
                    f.end.position, f.end.trailing_bytes));
  if (f.invalid_batches)
    damage.push_back(fmt::format(
        "{} Kafka's ensureValid (the first at offset {})",
        plural(static_cast<std::int64_t>(f.invalid_batches), "batch fails", "batches fail"),
        f.first_invalid_offset.value_or(-1)));
  if (f.record_errors)
    damage.push_back(fmt::format("{} (the first in the batch at offset {})",
                                 plural(static_cast<std::int64_t>(f.record_errors),
                                        "record does not decode", "records do not decode"),
                                 f.first_record_error_offset.value_or(-1)));
  // A torn tail (partial header or batch) is what a write cut short leaves: the walk stops
  // there as Kafka's does, the batches before it are whole (a warning, exit 0).
  const std::string tail =
      f.end.reason == LogEndReason::partial_header || f.end.reason == LogEndReason::partial_batch
          ? fmt::format(
                " It ends in a partial batch at byte {} ({} bytes), as a write cut short "
                "leaves.",
                f.end.position, f.end.trailing_bytes)
          : "";
  if (!damage.empty())
    return fmt::format("{} is damaged: {}. {} {} {}.{}", file, joined(damage, "; "),
                       part ? whose : "It", verb, held, tail);
  if (f.nothing_selected)
    return fmt::format(
        "Nothing selected: no batch of {} is at or after --from-offset or in the "
        "--from-time/--until range.{}",
        file, tail);
  // Headers and checksums sound, the records not yet decoded: nothing here says the
  // records are whole; the closing sentence does, and the exit code follows it.
  if (f.records_later)
    return fmt::format(
        "{} {} {}; its batch headers and checksums are sound, and the closing sentence says "
        "whether every record decodes.{}",
        whose, verb, held, tail);
  return fmt::format("{} {} {}; no damage found.{}", whose, verb, held, tail);
}

std::string segment_records_summary(const SegmentFacts& printed) {
  if (!printed.record_errors) return "Every record read decodes.";
  return fmt::format("{} (the first in the batch at offset {}).",
                     plural(static_cast<std::int64_t>(printed.record_errors),
                            "record does not decode", "records do not decode"),
                     printed.first_record_error_offset.value_or(-1));
}

// ---- metadata dump ------------------------------------------------------------------------

void MetadataDumpFacts::add(std::int64_t offset, std::int64_t timestamp, std::int32_t epoch,
                            bool decoded) {
  ++selected;
  if (!first_offset) first_offset = offset;
  last_offset = offset;
  if (timestamp >= 0) {
    first_time = first_time ? std::min(*first_time, timestamp) : timestamp;
    last_time = last_time ? std::max(*last_time, timestamp) : timestamp;
  }
  last_epoch = epoch;
  if (!decoded) ++undecoded;
}

std::string metadata_dump_summary(const std::string& target, const MetadataDumpFacts& f,
                                  const std::vector<std::string>& problems) {
  std::string held;
  if (f.selected == 0) {
    held = "no record";
  } else {
    held = f.filtered
               ? fmt::format("{} of {}", f.selected, records(static_cast<std::int64_t>(f.read)))
               : records(static_cast<std::int64_t>(f.selected));
    held += *f.first_offset == *f.last_offset
                ? fmt::format(" at offset {}", *f.first_offset)
                : fmt::format(", offsets {}..{}", *f.first_offset, *f.last_offset);
    if (f.first_time) {
      const auto a = iso_time_text(*f.first_time).value_or("?");
      const auto b = iso_time_text(*f.last_time).value_or("?");
      held += a == b ? fmt::format(", written at {}", a) : fmt::format(", written {} to {}", a, b);
    }
    if (f.last_epoch) held += fmt::format(", last Raft epoch {}", *f.last_epoch);
  }
  const std::string what = f.snapshot ? "The snapshot " + target : target;
  // The range chose nothing of what was read (cmd_metadata adds that problem last).
  if (f.filtered && f.selected == 0 && f.read > 0) {
    std::string out = fmt::format(
        "Nothing selected: no record of {} falls in the --from-time/--until range ({} read).",
        target, records(static_cast<std::int64_t>(f.read)));
    if (problems.size() > 1)
      out += fmt::format(
          " {}, the first: {}.",
          plural(static_cast<std::int64_t>(problems.size() - 1), "other problem", "other problems"),
          problems.front());
    return out;
  }
  if (problems.size() == 1)
    return fmt::format("{} has a problem: {}. It holds {}.", what, problems.front(), held);
  if (!problems.empty())
    return fmt::format("{} has {}, the first: {}. It holds {}.", what,
                       plural(static_cast<std::int64_t>(problems.size()), "problem", "problems"),
                       problems.front(), held);
  return fmt::format("{} holds {}; every record decodes.", what, held);
}

// ---- metadata history -----------------------------------------------------------------------

void HistoryTally::step(const PartitionTimeline& t, const PartitionStep& s, bool shown) {
  Partition& p = partitions_[{t.topic_id.to_string(), t.partition}];
  p.name = fmt::format("{}-{}", t.topic, t.partition);
  p.leaderless = s.state.leader == -1;
  const auto has = [&](std::string_view cause) {
    return std::find(s.causes.begin(), s.causes.end(), cause) != s.causes.end();
  };
  p.deleted = has("deleted");
  if (!shown) return;
  p.shown = true;
  if (has("leader_change") || has("unclean_election")) ++p.elections;
  if (has("unclean_election"))
    unclean_.push_back({p.name, s.at.snapshot ? -1 : s.at.offset, s.state.leader});
}

std::string HistoryTally::sentence(std::size_t partitions,
                                   const std::vector<std::string>& problems) const {
  std::vector<const Partition*> changed;
  std::size_t elections = 0, leaderless = 0;
  for (const auto& [key, p] : partitions_) {
    if (p.elections) changed.push_back(&p);
    elections += p.elections;
    if (p.shown && p.leaderless && !p.deleted) ++leaderless;
  }
  // Most changes first: the partitions an operator looks at.
  std::stable_sort(changed.begin(), changed.end(), [](const Partition* a, const Partition* b) {
    return a->elections > b->elections;
  });
  std::string out;
  if (!problems.empty())
    out = fmt::format("The replay found {}, the first: {}. ",
                      plural(static_cast<std::int64_t>(problems.size()), "problem", "problems"),
                      problems.front());
  if (partitions == 0) {
    out += "No partition to show";
  } else if (changed.empty()) {
    out += fmt::format("{}: none changed leader",
                       plural(static_cast<std::int64_t>(partitions), "partition", "partitions"));
  } else {
    std::vector<std::string> each;
    for (const auto* p : changed)
      each.push_back(p->elections == 1 ? p->name + " once"
                                       : fmt::format("{} {} times", p->name, p->elections));
    out += fmt::format(
        "{}: {} changed leader ({}; {})",
        plural(static_cast<std::int64_t>(partitions), "partition", "partitions"), changed.size(),
        plural(static_cast<std::int64_t>(elections), "election", "elections"), names(each));
  }
  if (leaderless) out += fmt::format(", {} without a leader at the end", leaderless);
  if (unclean_.empty()) return out + "; no unclean election.";
  // In log order (a snapshot's first), however the replay handed the partitions on.
  std::vector<Unclean> in_order = unclean_;
  std::stable_sort(in_order.begin(), in_order.end(),
                   [](const Unclean& a, const Unclean& b) { return a.offset < b.offset; });
  std::vector<std::string> where;
  for (const auto& u : in_order) {
    const std::string at =
        u.offset < 0 ? "in the snapshot" : fmt::format("at metadata offset {}", u.offset);
    where.push_back(fmt::format("{} {} (broker {} elected)", u.name, at, u.leader));
  }
  return out + fmt::format("; {}: {}.",
                           plural(static_cast<std::int64_t>(unclean_.size()), "unclean election",
                                  "unclean elections"),
                           names(where, 5));
}

// ---- profile and logdir snapshot -----------------------------------------------------------

namespace {

// The value of a JAAS option as shown (`username="alice"`), or "" (absent, or shown as ***).
std::string jaas_option(std::string_view jaas, std::string_view name) {
  for (std::size_t at = jaas.find(name); at != std::string_view::npos;
       at = jaas.find(name, at + 1)) {
    const bool starts =
        at == 0 || std::isspace(static_cast<unsigned char>(jaas[at - 1])) || jaas[at - 1] == ';';
    std::size_t i = at + name.size();
    while (i < jaas.size() && jaas[i] == ' ')
      ++i;
    if (!starts || i >= jaas.size() || jaas[i] != '=') continue;
    ++i;
    while (i < jaas.size() && jaas[i] == ' ')
      ++i;
    std::string value;
    if (i < jaas.size() && jaas[i] == '"') {
      const auto close = jaas.find('"', i + 1);
      if (close == std::string_view::npos) return {};
      value = std::string(jaas.substr(i + 1, close - i - 1));
    } else {
      const auto stop = jaas.find_first_of(" ;", i);
      value =
          std::string(jaas.substr(i, stop == std::string_view::npos ? jaas.size() - i : stop - i));
    }
    return value.find("***") == std::string::npos ? value : std::string();
  }
  return {};
}

// The user of `user:***@host` in a (redacted) bootstrap list, or "".
std::string address_user(std::string_view bootstrap) {
  const auto at = bootstrap.find('@');
  if (at == std::string_view::npos) return {};
  auto start = bootstrap.rfind("//", at);
  start = start == std::string_view::npos ? 0 : start + 2;
  const auto comma = bootstrap.rfind(',', at);
  if (comma != std::string_view::npos && comma + 1 > start) start = comma + 1;
  std::string user(bootstrap.substr(start, at - start));
  if (const auto colon = user.find(':'); colon != std::string::npos) user.resize(colon);
  while (!user.empty() && user.front() == ' ')
    user.erase(user.begin());
  return user.find("***") == std::string::npos ? user : std::string();
}

}  // namespace

std::string profile_list_summary(const Value& list) {
  const std::string file = text_at(list, "file");
  std::vector<std::string> all;
  for (const auto& p : array_at(list, "profiles"))
    all.push_back(text_at(p, "name"));
  if (all.empty())
    return fmt::format(
        "No profiles in {}: live commands need -b until its clusters: section names one.", file);
  std::string out = fmt::format(
      "{} in {} ({}); ", plural(static_cast<std::int64_t>(all.size()), "profile", "profiles"), file,
      names(all, 5));
  const Value* current = list.find("current_profile");
  if (current && !current->is_null())
    out += fmt::format("the current one is {}.", scalar_text(*current));
  else
    out += "none is current: a live command needs -b, --cluster or KEPOCH_CLUSTER.";
  return out;
}

std::string profile_show_summary(const Value& show) {
  const std::string name = text_at(show, "name");
  std::string out = fmt::format(
      "Profile {}{}", name, bool_at(show, "current").value_or(false) ? " (the current one)" : "");
  const Value* props = show.find("properties");
  const auto property = [props](std::string_view key) -> std::string {
    if (!props || !props->is_object()) return {};
    const Value* v = props->find(key);
    return v ? scalar_text(*v) : std::string();
  };
  const Value* bootstrap = show.find("bootstrap");
  std::string user;
  if (!bootstrap || bootstrap->is_null()) {
    out += " names no bootstrap brokers (a live command needs -b with it)";
  } else {
    const std::string list = scalar_text(*bootstrap);
    std::int64_t brokers = 0;
    std::size_t from = 0;
    while (from <= list.size()) {
      const auto comma = list.find(',', from);
      const auto item =
          list.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
      if (item.find_first_not_of(' ') != std::string::npos) ++brokers;
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
    out += fmt::format(" reaches {}", plural(brokers, "bootstrap broker", "bootstrap brokers"));
    user = address_user(list);
  }
  const std::string protocol = property("security.protocol");
  const std::string mechanism = property("sasl.mechanism").empty()
                                    ? property("sasl.mechanisms")  // librdkafka's name
                                    : property("sasl.mechanism");
  const Value* command_config = show.find("command_config");
  const bool has_command_config = command_config && !command_config->is_null();
  if (!protocol.empty() && protocol.find("***") == std::string::npos)
    out += fmt::format(" over {}", protocol);
  else if (!has_command_config)
    out += " over PLAINTEXT (no security.protocol set)";
  if (!mechanism.empty() && mechanism.find("***") == std::string::npos)
    out += fmt::format(" ({})", mechanism);
  if (user.empty()) user = property("sasl.username");  // librdkafka's; not a secret
  if (user.empty()) user = jaas_option(property("sasl.jaas.config"), "username");
  if (!user.empty() && user.find("***") == std::string::npos)
    out += fmt::format(" as user {}", user);
  if (has_command_config)
    out += fmt::format(", with the client settings of {} (named, not read)",
                       scalar_text(*command_config));
  std::int64_t hidden = 0;
  if (props && props->is_object())
    for (const auto& [key, value] : props->as_object())
      hidden += scalar_text(value).find("***") != std::string::npos ? 1 : 0;
  if (bootstrap && !bootstrap->is_null() &&
      scalar_text(*bootstrap).find("***") != std::string::npos)
    ++hidden;
  if (hidden > 0)
    out += fmt::format("; {} shown as ***", plural(hidden, "secret value", "secret values"));
  return out + ".";
}

std::string profile_use_summary(const Value& use) {
  const std::string name = text_at(use, "current_profile");
  std::string out = fmt::format("{} is now the current profile in {}", name, text_at(use, "file"));
  const Value* previous = use.find("previous_profile");
  if (!previous) {
    // not known: the file did not parse as profiles before the edit
  } else if (previous->is_null())
    out += " (none was before)";
  else if (scalar_text(*previous) == name)
    out += " (it was already)";
  else
    out += fmt::format(" (was {})", scalar_text(*previous));
  return out + ": live commands use it when they name no cluster.";
}

std::string logdir_snapshot_summary(const Value& snap) {
  std::vector<std::string> dirs;
  for (const auto& d : array_at(snap, "log_dirs"))
    dirs.push_back(scalar_text(d));
  const Value* broker = snap.find("broker");
  const std::string whose = broker && !broker->is_null()
                                ? fmt::format("broker {}", scalar_text(*broker))
                                : std::string("a broker of unknown id");
  const auto replicas = int_at(snap, "replicas").value_or(0);
  const auto batches = int_at(snap, "batches").value_or(0);
  const auto kept = int_at(snap, "kept_batches").value_or(0);
  std::vector<std::string> unreadable;
  std::int64_t other = 0;
  for (const auto& k : array_at(snap, "skipped")) {
    if (bool_at(k, "unreadable").value_or(true))
      unreadable.push_back(replica_name(text_at(k, "dir")));
    else
      ++other;
  }
  std::string out;
  if (!unreadable.empty())
    out = fmt::format(
        "The snapshot is not the whole broker: {} could not be read and {} left "
        "out ({}). ",
        plural(static_cast<std::int64_t>(unreadable.size()), "replica", "replicas"),
        unreadable.size() == 1 ? "is" : "are", names(unreadable));
  out += fmt::format("Wrote a snapshot of {} of {} ({} {}{}) to {}: ",
                     plural(replicas, "partition replica", "partition replicas"), whose,
                     dirs.size() == 1 ? "log dir" : "log dirs", joined(dirs, ", "),
                     broker && !broker->is_null() ? "" : ", no meta.properties read",
                     text_at(snap, "file"));
  out += fmt::format("{} of their {} kept", kept, plural(batches, "batch header", "batch headers"));
  if (other > 0)
    out += fmt::format("; {} that {} no live replica skipped", plural(other, "dir", "dirs"),
                       other == 1 ? "holds" : "hold");
  return out + ".";
}

}  // namespace kepoch::report
