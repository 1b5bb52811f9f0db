// Log-dir name parsing; the rules are in segment_file_name.hpp.
#include "kepoch/format/segment_file_name.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

#include "kepoch/base/java_text.hpp"

namespace kepoch {

std::string_view to_string(SegmentFileKind kind) {
  switch (kind) {
    case SegmentFileKind::log:
      return "log";
    case SegmentFileKind::index:
      return "index";
    case SegmentFileKind::timeindex:
      return "timeindex";
    case SegmentFileKind::txnindex:
      return "txnindex";
    case SegmentFileKind::snapshot:
      return "snapshot";
    case SegmentFileKind::leader_epoch_checkpoint:
      return "leader-epoch-checkpoint";
    case SegmentFileKind::partition_metadata:
      return "partition.metadata";
    case SegmentFileKind::other:
      return "other";
  }
  return "other";
}

std::string_view to_string(LeftoverState state) {
  switch (state) {
    case LeftoverState::none:
      return "";
    case LeftoverState::deleted:
      return "deleted";
    case LeftoverState::cleaned:
      return "cleaned";
    case LeftoverState::swap:
      return "swap";
  }
  return "";
}

std::string_view to_string(PartitionDirState state) {
  switch (state) {
    case PartitionDirState::normal:
      return "";
    case PartitionDirState::deleted:
      return "delete";
    case PartitionDirState::future:
      return "future";
    case PartitionDirState::stray:
      return "stray";
  }
  return "";
}

namespace {

bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

// Java's \s without UNICODE_CHARACTER_CLASS: [ \t\n\x0B\f\r].
bool is_java_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\x0B' || c == '\f' || c == '\r';
}

// Long.parseLong's NumberFormatException message (JDK 11+, radix 10).
std::string number_format_message(std::string_view s) {
  return fmt::format("java.lang.NumberFormatException: For input string: \"{}\"", s);
}

constexpr std::array<std::pair<std::string_view, SegmentFileKind>, 5> kSegmentSuffixes{{
    {".log", SegmentFileKind::log},
    {".index", SegmentFileKind::index},
    {".timeindex", SegmentFileKind::timeindex},
    {".txnindex", SegmentFileKind::txnindex},
    {".snapshot", SegmentFileKind::snapshot},
}};

}  // namespace

SegmentFileName parse_segment_file_name(std::string_view name) {
  SegmentFileName f;

  // The leftover suffix comes last (LogLoader matches it with endsWith first).
  std::string_view rest = name;
  if (rest.ends_with(".deleted")) {
    f.state = LeftoverState::deleted;
    rest.remove_suffix(8);
  } else if (rest.ends_with(".cleaned")) {
    f.state = LeftoverState::cleaned;
    rest.remove_suffix(8);
  } else if (rest.ends_with(".swap")) {
    f.state = LeftoverState::swap;
    rest.remove_suffix(5);
  }

  std::string_view kind_suffix;
  for (const auto& [suffix, kind] : kSegmentSuffixes) {
    if (rest.ends_with(suffix)) {
      f.kind = kind;
      kind_suffix = suffix;
      break;
    }
  }
  if (f.kind == SegmentFileKind::other && f.state == LeftoverState::none) {
    std::string_view target = name;
    if (target.ends_with(".tmp")) {
      f.tmp = true;
      target.remove_suffix(4);
    }
    if (target == "leader-epoch-checkpoint") {
      f.kind = SegmentFileKind::leader_epoch_checkpoint;
    } else if (target == "partition.metadata") {
      f.kind = SegmentFileKind::partition_metadata;
    } else {
      f.tmp = false;
    }
  }

  // LogFileUtils.offsetFromFileName: the text before the first '.'.
  const auto dot = name.find('.');
  std::string_view prefix;
  if (dot != std::string_view::npos) {
    prefix = name.substr(0, dot);
    f.offset = java::parse_long(prefix);
  }

  // Which names Kafka's loader reads an offset from (the "*.checkpoint.deleted" exception
  // only matters for deleted files, which are never parsed anyway).
  switch (f.state) {
    case LeftoverState::deleted:
      f.offset_read_by_kafka = false;
      break;
    case LeftoverState::cleaned:
    case LeftoverState::swap:
      f.offset_read_by_kafka = true;
      break;
    case LeftoverState::none:
      f.offset_read_by_kafka = f.kind == SegmentFileKind::log || f.kind == SegmentFileKind::index ||
                               f.kind == SegmentFileKind::timeindex ||
                               f.kind == SegmentFileKind::txnindex ||
                               f.kind == SegmentFileKind::snapshot;
      break;
  }
  if (f.offset_read_by_kafka && !f.offset) {
    // Every such name ends in a suffix starting with '.', so there is a '.'.
    f.kafka_failure = number_format_message(prefix);
  }

  // Exactly filenamePrefixFromOffset's 20 digits, then the kind's suffix (a long has at
  // most 19 digits, so the padded form is always 20 characters).
  if (!kind_suffix.empty() && prefix.size() == 20 && rest.size() == 20 + kind_suffix.size()) {
    f.canonical = true;
    for (char c : prefix)
      f.canonical = f.canonical && is_ascii_digit(c);
  }
  return f;
}

PartitionDirParse parse_partition_dir_name(std::string_view name, std::string_view path) {
  PartitionDirParse out;
  const auto fail = [&] {
    out.kafka_failure = fmt::format(
        "Found directory {}, '{}' is not in the form of topic-partition or "
        "topic-partition.uniqueId-delete (if marked for deletion).\nKafka's log directories (and "
        "children) should only contain Kafka topic data.",
        path.empty() ? name : path, name);
    return out;
  };
  if (name.empty() || name.find('-') == std::string_view::npos) return fail();

  PartitionDirState state = PartitionDirState::normal;
  std::string_view suffix;
  if (name.ends_with("-delete")) {
    state = PartitionDirState::deleted;
    suffix = "-delete";
  } else if (name.ends_with("-future")) {
    state = PartitionDirState::future;
    suffix = "-future";
  } else if (name.ends_with("-stray")) {
    state = PartitionDirState::stray;
    suffix = "-stray";
  }

  std::string_view tp = name;
  std::string_view unique_id;
  if (state != PartitionDirState::normal) {
    // ^(\S+)-(\S+)\.(\S+)<suffix>$ (Matcher.matches): no white space anywhere, and the body
    // splits as A '-' B '.' C with A, B, C non-empty. Take the first '-' after index 0 and
    // the last '.' before the body's last character.
    const std::string_view body = name.substr(0, name.size() - suffix.size());
    for (char c : name)
      if (is_java_space(c)) return fail();
    const auto dash = body.size() > 1 ? body.find('-', 1) : std::string_view::npos;
    const auto dot = body.size() > 1 ? body.rfind('.', body.size() - 2) : std::string_view::npos;
    if (dash == std::string_view::npos || dot == std::string_view::npos || dot < dash + 2)
      return fail();
    const auto last_dot = name.rfind('.');
    tp = name.substr(0, last_dot);
    unique_id = body.substr(last_dot + 1);
  }

  const auto index = tp.rfind('-');
  if (index == std::string_view::npos) return fail();
  const std::string_view topic = tp.substr(0, index);
  const std::string_view partition = tp.substr(index + 1);
  if (topic.empty() || partition.empty()) return fail();
  const auto p = java::parse_int(partition);
  if (!p) return fail();

  PartitionDirName d;
  d.topic = std::string(topic);
  d.partition = *p;
  d.state = state;
  d.unique_id = std::string(unique_id);
  d.unique_id_is_uuid = unique_id.size() == 32;
  for (char c : unique_id)
    d.unique_id_is_uuid = d.unique_id_is_uuid && (is_ascii_digit(c) || (c >= 'a' && c <= 'f'));
  out.name = std::move(d);
  return out;
}

}  // namespace kepoch
