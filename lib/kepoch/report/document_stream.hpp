#pragma once
// One report object written a piece at a time, for a document whose lists are too long to
// hold (`metadata history` of a large metadata log): its members in order, where a member
// may be a list of objects written element by element, and an element may be written as its
// leading members followed by one nested list written row by row. The text is the same,
// byte for byte, as render() of the whole Value, in every format; only the piece being
// written is held.
//
//   {"target": ..., "start": {...},            member()
//    "partitions": [                            begin_list()
//      {"topic": ..., "partition": 0,           begin_element(leading, "steps", ...)
//       "steps": [{...}, {...}]},               element() per row, end_element()
//      ...],                                    end_list()
//    "brokers": [{...}, ...],                   begin_list(), element() per row, end_list()
//    "problems": [...]}                         member(); finish()
//
// JSON, JSON lines and YAML are composed of the renderers' own text of each piece, indented
// into place. The table form needs to know, before the first line, what render() learns from
// the whole value:
//   - the document's key column: the outline given to make_document_stream (the document's
//     members in order, each streamed list as an empty array if it will be empty, else an
//     array holding one empty object) sets it as render() would;
//   - each streamed list's layout (TableLayout): whether its rows are a table (every member
//     of every row inline) and the table's columns and natural widths, from a pass over the
//     rows made beforehand with TableLayoutBuilder.
// An element written with begin_element has only inline leading members (scalars, short
// arrays) and a non-empty nested list; a verdict sentence ("summary", a string member)
// opens the table as text, as render() writes it.

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/report/render.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

// What the table renderer decides from all the rows of a list of objects.
struct TableLayout {
  bool table = false;  // every member of every row inline: aligned columns, else one block each
  std::vector<std::string> columns;  // the inline members, in order of first appearance
  std::vector<std::size_t> widths;   // natural widths (header and every cell)
};

class TableLayoutBuilder {
 public:
  void add(const Value& row);
  const TableLayout& layout() const { return layout_; }

 private:
  TableLayout layout_;
  bool any_ = false;
  bool all_inline_ = true;
};

class DocumentStream {
 public:
  virtual ~DocumentStream() = default;
  virtual void member(std::string_view key, const Value& value) = 0;
  virtual void begin_list(std::string_view key, const TableLayout& rows) = 0;
  // A whole element of the current list, or a row of the current element's nested list.
  virtual void element(const Value& element) = 0;
  virtual void begin_element(const Value& leading, std::string_view list_key,
                             const TableLayout& rows) = 0;
  virtual void end_element() = 0;
  virtual void end_list() = 0;
  virtual void finish() = 0;
};

std::unique_ptr<DocumentStream> make_document_stream(Format format, std::ostream& out,
                                                     std::ostream& err,
                                                     const RenderOptions& options,
                                                     const Value& outline);

}  // namespace kepoch::report
