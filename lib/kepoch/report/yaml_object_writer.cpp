#include "kepoch/report/yaml_object_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace kepoch::report::detail {
namespace {

// The member line's text of `name` at `column`: "\n", spaces, the name, ": ".
std::string member_text(std::string_view name, std::size_t column) {
  std::string line(1, '\n');
  line.append(column, ' ');
  line += name;
  line += ": ";
  return line;
}

// The member line of `name` at `column`, the map's first line at `start` unless none;
// nullopt when the name is not a plain simple key (quoted, or past 1024 bytes: a long key)
// or its line is too long to be held as one.
std::optional<MemberLine> member_line(const YamlEmitter& e, std::string_view name,
                                      std::size_t column, YamlEmitter::MapStart start) {
  if (name.size() > 1024 || !yaml_plain_ok(name)) return std::nullopt;
  std::string text = member_text(name, column);
  if (start != YamlEmitter::MapStart::none) text = e.first_line(text, start);
  return MemberLine::make(text, name.size());
}

// Fibonacci hashing of a name's or run's address (literals sit a few bytes apart), its size
// and a column, into `bits` bits.
std::size_t slot_of(const void* address, std::size_t size, std::size_t column, int bits) {
  return static_cast<std::size_t>(
      ((reinterpret_cast<std::uintptr_t>(address) + size + column) * 0x9E3779B97F4A7C15ull) >>
      (64 - bits));
}

// Whether the n bytes at a and b are equal. Keys are short: compared a word at a time (the
// last word overlapping the one before), without a call.
bool same_bytes(const char* a, const char* b, std::size_t n) {
  const auto word = [](const char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  };
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  for (std::size_t i = 0; i + 8 < n; i += 8)
    if (word(a + i) != word(b + i)) return false;
  return word(a + n - 8) == word(b + n - 8);
}

}  // namespace

bool YamlObjectWriter::block_member_key(std::string_view k) {
  if (!emitter_.block_ready()) return false;
  if (pending_) {
    if (!key_line(k, emitter_.new_map_key_column())) return false;
    emitter_.block_begin(/*map=*/true, /*flow=*/false);
    pending_ = false;
  } else if (!key_line(k, emitter_.key_column())) {
    return false;
  }
  emitter_.block_key(k);
  return true;
}

void YamlObjectWriter::key(std::string_view k) {
  if (block_member_key(k)) return;
  if (pending_) {
    emitter_.begin_map();
    pending_ = false;
  }
  emitter_.string(k);
}

void YamlObjectWriter::close() {
  if (pending_) {
    emitter_.begin_map(/*flow=*/true);
    pending_ = false;
  }
  emitter_.end_map();
}

const MemberLine* YamlObjectWriter::key_line(std::string_view k, std::size_t column) {
  const auto matches = [&](const KeyLine& c) {
    return c.column == column && c.name.size() == k.size() &&
           same_bytes(c.name.data(), k.data(), k.size());
  };
  KeyLine* const set = &key_lines_[2 * slot_of(k.data(), k.size(), column, kSetBits)];
  // Two ways: two names of a batch that meet in one set would otherwise render each other
  // out for every batch. A name rendered goes first, the first moves second.
  KeyLine* found = matches(set[0]) ? &set[0] : matches(set[1]) ? &set[1] : nullptr;
  if (!found) {
    set[1] = std::move(set[0]);
    render(set[0], k, column);
    found = &set[0];
  }
  return found->line ? &*found->line : nullptr;
}

// key_line's slow part, kept out of it: key_line runs per member and stays small.
void YamlObjectWriter::render(KeyLine& cached, std::string_view k, std::size_t column) const {
  cached.name.assign(k);
  cached.column = column;
  cached.line = member_line(emitter_, k, column, MapStart::none);
}

// Each scalar member after a map's first goes as one line through its key's member line
// when the key is plain (all of a report's keys): the emitter's general path decides the
// same thing per call.
void YamlObjectWriter::null(std::string_view k) {
  if (const MemberLine* line = simple_line(k)) return emitter_.scalar_member(*line, "~");
  if (block_member_key(k)) return emitter_.block_scalar("~");
  key(k);
  emitter_.null();
}

void YamlObjectWriter::boolean(std::string_view k, bool v) {
  if (const MemberLine* line = simple_line(k))
    return emitter_.scalar_member(*line, v ? std::string_view("true") : std::string_view("false"));
  if (block_member_key(k))
    return emitter_.block_scalar(v ? std::string_view("true") : std::string_view("false"));
  key(k);
  emitter_.boolean(v);
}

void YamlObjectWriter::integer(std::string_view k, std::int64_t v) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  const std::string_view text(digits, static_cast<std::size_t>(end - digits));
  if (const MemberLine* line = simple_line(k)) return emitter_.scalar_member(*line, text);
  if (block_member_key(k)) return emitter_.block_scalar(text);
  key(k);
  emitter_.integer(v);
}

void YamlObjectWriter::string(std::string_view k, std::string_view v) {
  const bool as_is = yaml_as_is(v);
  if (const MemberLine* line = simple_line(k); line && as_is)
    return emitter_.scalar_member(*line, v);
  if (as_is && block_member_key(k)) return emitter_.block_scalar(v);
  key(k);
  emitter_.string(v, !as_is);
}

void YamlObjectWriter::value(std::string_view k, const Value& v) {
  key(k);
  emit_yaml(emitter_, v);
}

void YamlObjectWriter::lazy_shown(std::string_view k, const LazyMember& member, LazyTimes times) {
  key(k);
  member.emit_yaml(emitter_, times);
  // Not flushed (end() flushes, or a map's end past 64 KiB): one copy of many records' text.
}

const YamlObjectWriter::RenderedRun* YamlObjectWriter::rendered(const MemberNames& names,
                                                                MapStart start) {
  const std::size_t column =
      start == MapStart::none ? emitter_.key_column() : emitter_.new_map_key_column();
  const RecentRun key{names.names().data(), names.size(), column, start, nullptr};
  for (const RecentRun& r : recent_runs_)
    if (r.same(key)) return r.run->lines.empty() ? nullptr : r.run;
  std::copy_backward(recent_runs_.begin(), recent_runs_.end() - 1, recent_runs_.end());
  recent_runs_[0] = key;
  recent_runs_[0].run = &render(names, column, start);
  return recent_runs_[0].run->lines.empty() ? nullptr : recent_runs_[0].run;
}

const YamlObjectWriter::RenderedRun& YamlObjectWriter::render(const MemberNames& names,
                                                              std::size_t column, MapStart start) {
  for (const auto& r : runs_)
    if (names.same(r->names) && r->column == column && r->start == start) return *r;
  RenderedRun& r = *runs_.emplace_back(
      std::make_unique<RenderedRun>(RenderedRun{names.names(), column, start, {}}));
  for (const std::string_view name : names.names()) {
    const MapStart line_start = r.lines.empty() ? start : MapStart::none;
    const std::optional<MemberLine> line = member_line(emitter_, name, column, line_start);
    if (!line) {  // the run goes member by member
      r.lines.clear();
      break;
    }
    r.lines.push_back(*line);
  }
  return r;
}

// Lines rendered once per run and depth. A run that begins the map (a record's offset, a
// batch's position: "- offset: " in a list) goes out with its first line as the map's
// beginning; otherwise the first member may begin the map through the general path.
void YamlObjectWriter::integers(const MemberNames& names, std::span<const std::int64_t> values) {
  if (values.empty()) return;
  if (pending_) {
    if (const MapStart start = emitter_.map_start(); start != MapStart::none) {
      if (const RenderedRun* run = rendered(names, start)) {
        emitter_.begin_map_members(run->lines, values);
        pending_ = false;
        return;
      }
    }
  }
  std::size_t i = 0;
  if (pending_ || !emitter_.at_next_simple_key()) {
    integer(names.names()[0], values[0]);
    i = 1;
  }
  const RenderedRun* run = rendered(names, MapStart::none);
  if (!run || !emitter_.at_next_simple_key()) {
    for (; i < values.size(); ++i)
      integer(names.names()[i], values[i]);
    return;
  }
  emitter_.integer_members(std::span(run->lines).subspan(i), values.subspan(i));
}

const YamlObjectWriter::RecordRun& YamlObjectWriter::record_run(const MemberNames& names,
                                                                std::size_t at,
                                                                std::string_view key,
                                                                MapStart start) {
  const std::size_t column = emitter_.new_map_key_column();
  for (std::size_t i = 0; i < record_runs_.size(); ++i) {
    const RecordRun& r = *record_runs_[i];
    if (names.same(r.names) && r.at == at && r.column == column && r.start == start &&
        r.key == key) {
      if (i > 0) std::swap(record_runs_[0], record_runs_[i]);
      return *record_runs_[0];
    }
  }
  auto r = std::make_unique<RecordRun>(
      RecordRun{names.names(), at, std::string(key), column, start, {}, std::nullopt});
  for (const std::string_view name : names.names()) {
    const MapStart line_start = r->lines.empty() ? start : MapStart::none;
    const std::optional<MemberLine> line = member_line(emitter_, name, column, line_start);
    if (!line) {
      r->lines.clear();
      break;
    }
    r->lines.push_back(*line);
  }
  // The key's line: "\n", the column, the key (its ": " is the value's to write).
  if (key.size() <= 1024 && yaml_plain_ok(key)) {
    std::string text = member_text(key, column);
    text.resize(text.size() - 2);
    r->key_line = MemberLine::make(text, key.size());
  }
  if (!r->key_line) r->lines.clear();
  record_runs_.insert(record_runs_.begin(), std::move(r));
  return *record_runs_[0];
}

void YamlObjectWriter::scalar(std::string_view k, const Scalar& v) {
  switch (v.kind) {
    case Scalar::Kind::integer:
      return integer(k, v.integer);
    case Scalar::Kind::string:
      return string(k, v.text);
    case Scalar::Kind::time_text:
      return time_text(k, v.text);
    default:
      return null(k);
  }
}

void YamlObjectWriter::run_members(const RecordRun& run, const MemberNames& names,
                                   std::span<const Scalar> values, std::size_t from,
                                   std::size_t to) {
  const std::span<const MemberLine> lines(run.lines);
  while (from < to) {
    from +=
        emitter_.scalar_members(lines.subspan(from, to - from), values.subspan(from, to - from));
    if (from == to) return;
    scalar(names.names()[from], values[from]);  // a string to be double-quoted
    ++from;
  }
}

void YamlObjectWriter::scalars_object_with(const MemberNames& names, std::span<const Scalar> values,
                                           std::size_t at, std::string_view k,
                                           const LazyMember& member, LazyTimes times) {
  begin_object();
  const MapStart start = emitter_.map_start();
  const RecordRun* run = nullptr;
  if (start != MapStart::none && at > 0 && at <= values.size() &&
      values[0].kind == Scalar::Kind::integer)
    run = &record_run(names, at, k, start);
  if (!run || run->lines.empty()) {  // ObjectWriter::scalars_object_with's calls, begun
    scalars(names.part(0, at), values.first(at));
    lazy_shown(k, member, times);
    scalars(names.part(at, values.size() - at), values.subspan(at));
    return end_object();
  }
  // The map begun by its first line and member, as integers() begins it.
  emitter_.begin_map_members(std::span(run->lines).first(1), std::span(&values[0].integer, 1));
  pending_ = false;
  run_members(*run, names, values, 1, at);
  emitter_.key_member(*run->key_line);
  member.emit_yaml(emitter_, times);
  // Not flushed (end() flushes, or a map's end past 64 KiB), as lazy_shown's.
  run_members(*run, names, values, at, values.size());
  end_object();
}

void YamlObjectWriter::begin_objects(std::string_view k) {
  if (pending_) {
    emitter_.begin_map();
    pending_ = false;
  }
  list_key_ = k;
  objects_ = 0;
}

void YamlObjectWriter::begin_object() {
  if (objects_++ == 0) {
    key(list_key_);
    if (emitter_.block_ready())  // after a key: always
      emitter_.block_begin(/*map=*/false, /*flow=*/false);
    else
      emitter_.begin_seq();
  }
  pending_ = true;
}

void YamlObjectWriter::end_object() {
  close();
}

void YamlObjectWriter::end_objects() {
  if (objects_ == 0) {
    emitter_.string(list_key_);
    emitter_.begin_seq(/*flow=*/true);
  }
  emitter_.end_seq();
}

}  // namespace kepoch::report::detail
