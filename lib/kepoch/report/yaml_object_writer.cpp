#include "kepoch/report/yaml_object_writer.hpp"

#include <charconv>
#include <cstdint>
#include <cstring>

namespace kepoch::report::detail {
namespace {

// Whether `name` goes on a member line: a plain simple key (not quoted, not past 1024 bytes:
// a long key).
bool simple_key(std::string_view name) {
  return name.size() <= 1024 && yaml_plain_ok(name);
}

// The member line's text of `name` at `column`.
std::string member_text(std::string_view name, std::size_t column) {
  std::string line(1, '\n');
  line.append(column, ' ');
  line += name;
  line += ": ";
  return line;
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

void YamlObjectWriter::key(std::string_view k) {
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
  KeyLine& cached = key_lines_[slot_of(k.data(), k.size(), column, kSlotBits)];
  if (cached.column != column || cached.name.size() != k.size() ||
      !same_bytes(cached.name.data(), k.data(), k.size())) {
    cached.name.assign(k);
    cached.column = column;
    cached.line.reset();
    if (simple_key(k)) cached.line.emplace(member_text(k, column), k.size());
  }
  return cached.line ? &*cached.line : nullptr;
}

// Each scalar member after a map's first goes as one line through its key's member line
// when the key is plain (all of a report's keys): the emitter's general path decides the
// same thing per call.
void YamlObjectWriter::null(std::string_view k) {
  if (const MemberLine* line = simple_line(k)) return emitter_.scalar_member(*line, "~");
  key(k);
  emitter_.null();
}

void YamlObjectWriter::boolean(std::string_view k, bool v) {
  if (const MemberLine* line = simple_line(k))
    return emitter_.scalar_member(*line, v ? std::string_view("true") : std::string_view("false"));
  key(k);
  emitter_.boolean(v);
}

void YamlObjectWriter::integer(std::string_view k, std::int64_t v) {
  if (const MemberLine* line = simple_line(k)) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
    return emitter_.scalar_member(*line,
                                  std::string_view(digits, static_cast<std::size_t>(end - digits)));
  }
  key(k);
  emitter_.integer(v);
}

void YamlObjectWriter::string(std::string_view k, std::string_view v) {
  if (const MemberLine* line = simple_line(k); line && yaml_as_is(v))
    return emitter_.scalar_member(*line, v);
  key(k);
  emitter_.string(v, needs_quotes(v));
}

void YamlObjectWriter::value(std::string_view k, const Value& v) {
  key(k);
  emit_yaml(emitter_, v);
}

const YamlObjectWriter::RenderedRun* YamlObjectWriter::rendered(const MemberNames& names,
                                                                MapStart start) {
  const std::size_t column =
      start == MapStart::none ? emitter_.key_column() : emitter_.new_map_key_column();
  const auto names_of = names.names();
  const RenderedRun*& slot = run_slots_[slot_of(
      names_of.data(), names_of.size(), column + static_cast<std::size_t>(start) * 1024, 4)];
  if (!slot || !names.same(slot->names) || slot->column != column || slot->start != start)
    slot = &render(names, column, start);
  return slot->lines.empty() ? nullptr : slot;
}

const YamlObjectWriter::RenderedRun& YamlObjectWriter::render(const MemberNames& names,
                                                              std::size_t column, MapStart start) {
  for (const auto& r : runs_)
    if (names.same(r->names) && r->column == column && r->start == start) return *r;
  RenderedRun& r = *runs_.emplace_back(
      std::make_unique<RenderedRun>(RenderedRun{names.names(), column, start, {}}));
  for (const std::string_view name : names.names()) {
    if (!simple_key(name)) {
      r.lines.clear();
      break;
    }
    std::string text = member_text(name, column);
    if (r.lines.empty() && start != MapStart::none) text = emitter_.first_line(text, start);
    r.lines.emplace_back(std::move(text), name.size());
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
    emitter_.string(list_key_);
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
