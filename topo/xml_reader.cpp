#include "topo/xml_reader.hpp"

#include <iconv.h>

#include <array>
#include <charconv>
#include <cstdint>

namespace collbench::topo {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool is_name_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ':' ||
         c == '-' || c == '.' || u >= 0x80;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

class Parser {
 public:
  Parser(std::string_view text, const XmlLimits& limits) : s_(text), limits_(limits) {}

  Result<XmlElement> document(bool root_only) {
    if (s_.size() > limits_.max_bytes) {
      return Status::error(ErrorCode::kUsage,
                           "XML input is larger than " + std::to_string(limits_.max_bytes) + " bytes");
    }
    // XML forbids these, and a NUL would cut the document short for C parsers such as hwloc's.
    for (std::size_t i = 0; i < s_.size(); ++i) {
      const auto c = static_cast<unsigned char>(s_[i]);
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
        pos_ = i;
        return fail("control character " + std::to_string(c) + " is not allowed in XML");
      }
    }
    pos_ = 0;
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    COLLBENCH_RETURN_IF_ERROR(skip_misc(true));
    if (at_end() || s_[pos_] != '<') return fail("expected the root element");
    if (root_only) {
      XmlElement root;
      bool empty = false;
      COLLBENCH_RETURN_IF_ERROR(start_tag(root, empty));
      return root;
    }
    COLLBENCH_ASSIGN_OR_RETURN(XmlElement root, elements());
    COLLBENCH_RETURN_IF_ERROR(skip_misc(false));
    if (!at_end()) return fail("unexpected content after the root element </" + root.name + ">");
    return root;
  }

 private:
  bool at_end() const { return pos_ >= s_.size(); }
  bool looking_at(std::string_view token) const { return s_.substr(pos_, token.size()) == token; }

  int line() {
    for (; line_pos_ < pos_ && line_pos_ < s_.size(); ++line_pos_) {
      if (s_[line_pos_] == '\n') ++line_;
    }
    return line_;
  }

  Status fail(const std::string& what) {
    return Status::error(ErrorCode::kUsage, "malformed XML at line " + std::to_string(line()) + ": " + what);
  }

  void skip_space() {
    while (!at_end() && is_space(s_[pos_])) ++pos_;
  }

  Status skip_past(std::string_view terminator, const char* what) {
    const auto end = s_.find(terminator, pos_);
    if (end == std::string_view::npos) return fail(std::string("unterminated ") + what);
    pos_ = end + terminator.size();
    return ok_status();
  }

  Status skip_doctype() {
    int brackets = 0;
    for (; !at_end(); ++pos_) {
      const char c = s_[pos_];
      if (c == '[') ++brackets;
      if (c == ']') --brackets;
      if (c == '>' && brackets <= 0) {
        ++pos_;
        return ok_status();
      }
    }
    return fail("unterminated <!DOCTYPE");
  }

  // Whitespace, comments and processing instructions; a DOCTYPE only before the root.
  Status skip_misc(bool prolog) {
    while (true) {
      skip_space();
      if (looking_at("<?")) {
        COLLBENCH_RETURN_IF_ERROR(skip_past("?>", "processing instruction"));
      } else if (looking_at("<!--")) {
        COLLBENCH_RETURN_IF_ERROR(skip_past("-->", "comment"));
      } else if (prolog && looking_at("<!DOCTYPE")) {
        COLLBENCH_RETURN_IF_ERROR(skip_doctype());
      } else {
        return ok_status();
      }
    }
  }

  Result<std::string> name() {
    const std::size_t start = pos_;
    while (!at_end() && is_name_char(s_[pos_])) ++pos_;
    if (pos_ == start) return fail("expected a name");
    return std::string(s_.substr(start, pos_ - start));
  }

  Status entity(std::string& out) {
    const auto end = s_.find(';', pos_);
    if (end == std::string_view::npos || end - pos_ > 12) return fail("bad entity reference");
    const std::string_view ref = s_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    if (ref == "lt") out += '<';
    else if (ref == "gt") out += '>';
    else if (ref == "amp") out += '&';
    else if (ref == "quot") out += '"';
    else if (ref == "apos") out += '\'';
    else if (ref.size() > 1 && ref[0] == '#') {
      const bool hex = ref[1] == 'x' || ref[1] == 'X';
      const std::string_view digits = ref.substr(hex ? 2 : 1);
      std::uint32_t cp = 0;
      auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
      if (ec != std::errc() || p != digits.data() + digits.size() || cp == 0 || cp > 0x10ffff) {
        return fail("bad character reference &" + std::string(ref) + ";");
      }
      append_utf8(out, cp);
    } else {
      return fail("unknown entity &" + std::string(ref) + ";");
    }
    return ok_status();
  }

  Result<std::string> attribute_value() {
    if (at_end() || (s_[pos_] != '"' && s_[pos_] != '\'')) return fail("expected a quoted attribute value");
    const char quote = s_[pos_++];
    std::string value;
    while (true) {
      if (at_end()) return fail("unterminated attribute value");
      const char c = s_[pos_];
      if (c == quote) break;
      if (c == '<') return fail("'<' inside an attribute value");
      if (c == '&') {
        COLLBENCH_RETURN_IF_ERROR(entity(value));
      } else {
        value += c;
        ++pos_;
      }
    }
    ++pos_;
    return value;
  }

  // At '<' of a start tag; leaves pos_ after '>' and sets `empty` for "/>".
  Status start_tag(XmlElement& element, bool& empty) {
    element.line = line();
    ++pos_;
    COLLBENCH_ASSIGN_OR_RETURN(element.name, name());
    while (true) {
      const std::size_t before = pos_;
      skip_space();
      if (at_end()) return fail("unterminated start tag <" + element.name);
      if (looking_at("/>")) {
        pos_ += 2;
        empty = true;
        return ok_status();
      }
      if (s_[pos_] == '>') {
        ++pos_;
        empty = false;
        return ok_status();
      }
      if (before == pos_) return fail("expected whitespace before an attribute in <" + element.name);
      COLLBENCH_ASSIGN_OR_RETURN(std::string key, name());
      skip_space();
      if (at_end() || s_[pos_] != '=') return fail("expected '=' after attribute " + key);
      ++pos_;
      skip_space();
      COLLBENCH_ASSIGN_OR_RETURN(std::string value, attribute_value());
      if (element.attribute(key) != nullptr) return fail("duplicate attribute " + key + " in <" + element.name + ">");
      element.attributes.emplace_back(std::move(key), std::move(value));
    }
  }

  Status end_tag(const std::string& open) {
    pos_ += 2;
    COLLBENCH_ASSIGN_OR_RETURN(const std::string closing, name());
    skip_space();
    if (at_end() || s_[pos_] != '>') return fail("expected '>' after </" + closing);
    ++pos_;
    if (closing != open) return fail("</" + closing + "> does not close <" + open + ">");
    return ok_status();
  }

  Status text(XmlElement& element) {
    while (!at_end() && s_[pos_] != '<') {
      if (s_[pos_] == '&') {
        COLLBENCH_RETURN_IF_ERROR(entity(element.text));
      } else {
        element.text += s_[pos_++];
      }
    }
    return ok_status();
  }

  static void mark_other_content(XmlElement& e) {
    if (e.children_before_other_content == SIZE_MAX) e.children_before_other_content = e.children.size();
  }

  // Iterative, so that deep input is bounded by max_depth rather than by the call stack.
  Result<XmlElement> elements() {
    std::vector<XmlElement> stack;
    while (true) {
      if (at_end()) {
        return fail(stack.empty() ? "missing root element"
                                  : "unexpected end of file inside <" + stack.back().name + ">");
      }
      if (!stack.empty() && s_[pos_] != '<') {
        const std::size_t start = pos_;
        COLLBENCH_RETURN_IF_ERROR(text(stack.back()));
        if (s_.substr(start, pos_ - start).find_first_not_of(" \t\r\n") != std::string_view::npos) {
          mark_other_content(stack.back());
        }
        continue;
      }
      if (stack.empty() && (looking_at("</") || looking_at("<![CDATA["))) return fail("expected the root element");
      const bool other = looking_at("<!--") || looking_at("<?") || looking_at("<![CDATA[");
      if (other && !stack.empty()) mark_other_content(stack.back());
      if (looking_at("<!--")) {
        COLLBENCH_RETURN_IF_ERROR(skip_past("-->", "comment"));
      } else if (looking_at("<?")) {
        COLLBENCH_RETURN_IF_ERROR(skip_past("?>", "processing instruction"));
      } else if (looking_at("<![CDATA[")) {
        const std::size_t start = pos_ + 9;
        COLLBENCH_RETURN_IF_ERROR(skip_past("]]>", "CDATA section"));
        stack.back().text += s_.substr(start, pos_ - 3 - start);
      } else if (looking_at("</")) {
        COLLBENCH_RETURN_IF_ERROR(end_tag(stack.back().name));
        XmlElement done = std::move(stack.back());
        stack.pop_back();
        if (stack.empty()) return done;
        stack.back().children.push_back(std::move(done));
      } else {
        if (++elements_ > limits_.max_elements)
          return fail("more than " + std::to_string(limits_.max_elements) + " elements");
        XmlElement element;
        bool empty = false;
        COLLBENCH_RETURN_IF_ERROR(start_tag(element, empty));
        if (empty && stack.empty()) return element;
        if (empty) {
          stack.back().children.push_back(std::move(element));
        } else {
          if (stack.size() >= limits_.max_depth)
            return fail("elements nested deeper than " + std::to_string(limits_.max_depth));
          stack.push_back(std::move(element));
        }
      }
    }
  }

  std::string_view s_;
  XmlLimits limits_;
  std::size_t pos_ = 0;
  std::size_t line_pos_ = 0;
  int line_ = 1;
  std::size_t elements_ = 0;
};

}  // namespace

const std::string* XmlElement::attribute(std::string_view key) const {
  for (const auto& [k, v] : attributes) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string XmlElement::attribute_or(std::string_view key, std::string_view fallback) const {
  const std::string* value = attribute(key);
  return value != nullptr ? *value : std::string(fallback);
}

Result<XmlElement> parse_xml(std::string_view text, const XmlLimits& limits) {
  return Parser(text, limits).document(false);
}

Result<XmlElement> peek_xml_root(std::string_view text) { return Parser(text, XmlLimits{}).document(true); }

namespace {

struct WideEncoding {
  std::string_view signature;  // the first bytes
  std::size_t bom_bytes;       // how many of them are a byte order mark, dropped
  const char* iconv_name;
};

// XML 1.0 Appendix F. UTF-32 first: its little-endian mark begins like UTF-16's.
constexpr std::array<WideEncoding, 8> kWideEncodings{{
    {std::string_view("\x00\x00\xFE\xFF", 4), 4, "UTF-32BE"},
    {std::string_view("\xFF\xFE\x00\x00", 4), 4, "UTF-32LE"},
    {std::string_view("\xFE\xFF", 2), 2, "UTF-16BE"},
    {std::string_view("\xFF\xFE", 2), 2, "UTF-16LE"},
    {std::string_view("\x00\x00\x00\x3C", 4), 0, "UTF-32BE"},
    {std::string_view("\x3C\x00\x00\x00", 4), 0, "UTF-32LE"},
    {std::string_view("\x00\x3C\x00\x3F", 4), 0, "UTF-16BE"},
    {std::string_view("\x3C\x00\x3F\x00", 4), 0, "UTF-16LE"},
}};

// iconv_open's failure value is (iconv_t)-1, as POSIX defines it.
bool opened(iconv_t cd) {
  return cd != reinterpret_cast<iconv_t>(-1);  // NOLINT(performance-no-int-to-ptr): POSIX's failure value
}

Result<std::string> to_utf8(std::string_view bytes, const char* from) {
  iconv_t cd = iconv_open("UTF-8", from);
  if (!opened(cd)) return Status::error(ErrorCode::kUsage, std::string("iconv cannot read ") + from);
  std::string out(bytes.size() * 2 + 16, '\0');  // UTF-16 to UTF-8 at most 3 bytes per 2
  std::string in(bytes);
  char* in_ptr = in.data();
  std::size_t in_left = in.size();
  char* out_ptr = out.data();
  std::size_t out_left = out.size();
  const std::size_t rc = iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left);
  iconv_close(cd);
  if (rc == static_cast<std::size_t>(-1) || in_left != 0) {
    return Status::error(ErrorCode::kUsage,
                         std::string("not valid ") + from + " at byte " + std::to_string(in.size() - in_left));
  }
  out.resize(out.size() - out_left);
  return out;
}

}  // namespace

bool iconv_reads(std::string_view encoding) {
  const std::string name(encoding);
  iconv_t cd = iconv_open("UTF-8", name.c_str());
  if (!opened(cd)) return false;
  iconv_close(cd);
  return true;
}

Result<std::optional<std::string>> wide_xml_as_utf8(std::string_view bytes) {
  for (const WideEncoding& e : kWideEncodings) {
    if (bytes.substr(0, e.signature.size()) != e.signature) continue;
    COLLBENCH_ASSIGN_OR_RETURN(std::string text, to_utf8(bytes.substr(e.bom_bytes), e.iconv_name));
    return std::optional<std::string>(std::move(text));
  }
  return std::optional<std::string>();
}

}  // namespace collbench::topo
