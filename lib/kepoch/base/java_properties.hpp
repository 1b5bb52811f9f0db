#pragma once
// java.util.Properties.load(InputStream), which Kafka uses for meta.properties: ISO-8859-1
// bytes, '#'/'!' comments, "key=value", "key:value" or "key value", backslash line
// continuations and escapes (\t \n \r \f, \uXXXX, \x for any other x). Trailing white space
// of a value is kept. The last duplicate key wins.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kepoch::java {

struct Property {
  std::string key;
  std::string value;  // UTF-8 (converted from ISO-8859-1 / \u escapes)
  int line = 0;       // first natural line of the logical line
};

struct PropertiesParse {
  std::vector<Property> properties;  // in file order, duplicates included
  std::optional<std::string>
      error;  // IllegalArgumentException text ("Malformed \\uxxxx encoding.")
  int error_line = 0;

  // Properties.getProperty: the last value for the key.
  const Property* find(std::string_view key) const;
};

PropertiesParse load_properties(std::string_view bytes);

}  // namespace kepoch::java
