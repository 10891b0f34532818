// A small XML well-formedness checker for the report tests (no dependency): one root element,
// tags that nest and match, quoted attributes without '<', unique attribute names per element,
// entity references that exist (&amp; &lt; &gt; &quot; &apos; and numeric ones), comments,
// processing instructions and an optional XML declaration. No DTDs, no namespaces checks.
#pragma once

#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace collbench::report::testing {

class XmlChecker {
 public:
  explicit XmlChecker(std::string_view text) : text_(text) {}

  // nullopt when well-formed, else what is wrong and where.
  std::optional<std::string> check() {
    skip_space();
    if (starts("<?xml")) {
      if (!skip_past("?>")) return fail("unterminated XML declaration");
    }
    skip_misc();
    if (!starts("<")) return fail("no root element");
    if (auto e = element()) return e;
    skip_misc();
    if (pos_ != text_.size()) return fail("content after the root element");
    return std::nullopt;
  }

 private:
  std::optional<std::string> fail(const std::string& what) const { return what + " at offset " + std::to_string(pos_); }
  bool starts(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }
  bool skip_past(std::string_view s) {
    const auto at = text_.find(s, pos_);
    if (at == std::string_view::npos) return false;
    pos_ = at + s.size();
    return true;
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  void skip_misc() {
    while (true) {
      skip_space();
      if (starts("<!--") && skip_past("-->")) continue;
      if (starts("<?") && skip_past("?>")) continue;
      return;
    }
  }
  static bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.' ||
           (static_cast<unsigned char>(c) >= 0x80);
  }
  std::string name() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && name_char(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  std::optional<std::string> reference() {
    const auto end = text_.find(';', pos_);
    if (end == std::string_view::npos || end - pos_ > 10) return fail("bare '&'");
    const std::string_view ref = text_.substr(pos_ + 1, end - pos_ - 1);
    static const std::set<std::string_view> kNamed = {"amp", "lt", "gt", "quot", "apos"};
    const bool numeric = ref.size() > 1 && ref[0] == '#';
    if (!numeric && !kNamed.contains(ref)) return fail("unknown entity &" + std::string(ref) + ";");
    pos_ = end + 1;
    return std::nullopt;
  }
  std::optional<std::string> attributes(bool* self_closing) {
    std::set<std::string> seen;
    while (true) {
      skip_space();
      if (starts("/>")) {
        pos_ += 2;
        *self_closing = true;
        return std::nullopt;
      }
      if (starts(">")) {
        ++pos_;
        return std::nullopt;
      }
      const std::string attr = name();
      if (attr.empty()) return fail("bad attribute");
      if (!seen.insert(attr).second) return fail("duplicate attribute " + attr);
      skip_space();
      if (!starts("=")) return fail("attribute without '='");
      ++pos_;
      skip_space();
      if (pos_ >= text_.size() || (text_[pos_] != '"' && text_[pos_] != '\'')) return fail("unquoted attribute");
      const char quote = text_[pos_++];
      while (pos_ < text_.size() && text_[pos_] != quote) {
        if (text_[pos_] == '<') return fail("'<' in an attribute value");
        if (text_[pos_] == '&') {
          if (auto e = reference()) return e;
          continue;
        }
        ++pos_;
      }
      if (pos_ >= text_.size()) return fail("unterminated attribute");
      ++pos_;
    }
  }
  std::optional<std::string> element() {
    ++pos_;  // '<'
    const std::string tag = name();
    if (tag.empty()) return fail("element without a name");
    bool self_closing = false;
    if (auto e = attributes(&self_closing)) return e;
    if (self_closing) return std::nullopt;
    while (pos_ < text_.size()) {
      if (starts("</")) {
        pos_ += 2;
        const std::string closing = name();
        skip_space();
        if (closing != tag || !starts(">")) return fail("</" + closing + "> closes <" + tag + ">");
        ++pos_;
        return std::nullopt;
      }
      if (starts("<!--")) {
        if (!skip_past("-->")) return fail("unterminated comment");
        continue;
      }
      if (starts("<")) {
        if (auto e = element()) return e;
        continue;
      }
      if (text_[pos_] == '&') {
        if (auto e = reference()) return e;
        continue;
      }
      ++pos_;
    }
    return fail("<" + tag + "> is never closed");
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

inline std::optional<std::string> xml_error(std::string_view text) { return XmlChecker(text).check(); }

// Every "<svg ...>...</svg>" fragment of an HTML page, in order.
inline std::vector<std::string> svg_fragments(const std::string& html) {
  std::vector<std::string> out;
  for (std::size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) {
    const auto end = html.find("</svg>", at);
    if (end == std::string::npos) {
      out.push_back(html.substr(at));  // unterminated: the checker will say so
      break;
    }
    out.push_back(html.substr(at, end + 6 - at));
  }
  return out;
}

}  // namespace collbench::report::testing
