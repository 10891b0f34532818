#include "report/documents/run_digest.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/parallel_for.hpp"
#include "report/documents/run_fields.hpp"

namespace collbench::report {
namespace {

using Json = nlohmann::json;

// Keys outside "results" whose values the history never reads: their values are lexed but not
// kept (the hosts' topology is most of a GPU run's context).
constexpr std::array<std::string_view, 7> kDropped = {"topology",       "argv", "anomalies", "expectations",
                                                      "expected_busbw", "pid",  "pci_bus_id"};

bool dropped(const std::string& key) { return std::find(kDropped.begin(), kDropped.end(), key) != kDropped.end(); }

// A SAX handler that keeps the context, config and summary as a small DOM (without the dropped
// keys) and turns each "results" item straight into a DigestPoint, skipping its statistics:
// no DOM for the bulk of the file.
// NOLINTNEXTLINE(bugprone-exception-escape): its implicit constructor makes empty members only
class DigestSax final : public nlohmann::json_sax<Json> {
 public:
  Json root;
  std::vector<DigestPoint> points;
  bool results_seen = false;

  // Values are routed before any is built: skipped ones (most of a file) cost nothing more.
  bool null() override {
    return scalar([] { return Json(nullptr); });
  }
  bool boolean(bool v) override {
    return scalar([v] { return Json(v); });
  }
  bool number_integer(number_integer_t v) override {
    return scalar([v] { return Json(v); });
  }
  bool number_unsigned(number_unsigned_t v) override {
    return scalar([v] { return Json(v); });
  }
  bool number_float(number_float_t v, const string_t& /*text*/) override {
    return scalar([v] { return Json(v); });
  }
  bool string(string_t& v) override {
    return scalar([&v] { return Json(std::move(v)); });
  }
  bool binary(binary_t& /*v*/) override {
    return scalar([] { return Json(nullptr); });
  }
  bool start_object(std::size_t /*size*/) override { return open(Json::object()); }
  bool start_array(std::size_t /*size*/) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& name) override;
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& e) override {
    error = e.what();
    return false;
  }
  std::string error;

 private:
  template <typename Make>
  bool scalar(Make make);
  bool open(Json container);
  bool close();
  void item_field(const Json& value);
  bool wanted_item_key() const;
  Json& add(Json value);

  int depth_ = 0;              // open containers
  int skipping_ = 0;           // open containers of a value being skipped
  bool skip_next_ = false;     // the next value is skipped (its key was dropped)
  bool results_next_ = false;  // the next value is the results array
  bool in_results_ = false;    // inside the results array (depth 2) or one of its items (depth 3)
  bool item_skipped_ = false;  // the item is a size that did not run
  std::string item_key_;
  DigestPoint item_;
  std::vector<Json*> stack_;  // the DOM's open containers
  std::string key_;           // the DOM's pending key
};

Json& DigestSax::add(Json value) {
  if (stack_.empty()) {
    root = std::move(value);
    return root;
  }
  Json& parent = *stack_.back();
  if (parent.is_array()) {
    parent.push_back(std::move(value));
    return parent.back();
  }
  return parent[key_] = std::move(value);
}

bool DigestSax::key(string_t& name) {
  if (skipping_ > 0) return true;
  if (in_results_) {
    if (depth_ == 3) item_key_ = std::move(name);
    return true;
  }
  if (depth_ == 1 && name == "results") {
    results_next_ = true;
    results_seen = true;
    return true;
  }
  if (dropped(name)) {
    skip_next_ = true;
    return true;
  }
  key_ = std::move(name);
  return true;
}

template <typename Make>
bool DigestSax::scalar(Make make) {
  if (skipping_ > 0) return true;
  if (skip_next_ || results_next_) {  // a dropped value, or "results" that is no array
    skip_next_ = results_next_ = false;
    return true;
  }
  if (in_results_) {
    if (depth_ == 3 && wanted_item_key()) item_field(make());
    return true;
  }
  add(make());
  return true;
}

bool DigestSax::open(Json container) {
  ++depth_;
  if (skipping_ > 0 || skip_next_) {
    skip_next_ = false;
    ++skipping_;
    return true;
  }
  if (results_next_) {
    results_next_ = false;
    in_results_ = container.is_array();
    if (!in_results_) ++skipping_;
    return true;
  }
  if (in_results_) {
    if (depth_ == 3) {
      item_ = DigestPoint{};
      item_skipped_ = false;
    } else {
      ++skipping_;  // statistics, mismatches, the slowest rank: not needed
    }
    return true;
  }
  stack_.push_back(&add(std::move(container)));
  return true;
}

bool DigestSax::close() {
  --depth_;
  if (skipping_ > 0) {
    --skipping_;
    return true;
  }
  if (in_results_) {
    if (depth_ == 2 && !item_skipped_) points.push_back(std::move(item_));
    if (depth_ == 1) in_results_ = false;
    return true;
  }
  if (!stack_.empty()) stack_.pop_back();
  return true;
}

bool DigestSax::wanted_item_key() const {
  static constexpr std::array<std::string_view, 9> kWanted = {"collective", "dtype",      "op",
                                                              "root",       "size_bytes", "placement",
                                                              "busbw_gbps", "wrong",      "skipped"};
  return std::find(kWanted.begin(), kWanted.end(), item_key_) != kWanted.end();
}

// The schema fixes these types; a value of another type leaves the field at its default.
void DigestSax::item_field(const Json& v) {
  const std::string& k = item_key_;
  if (k == "skipped") {
    item_skipped_ = true;
  } else if (v.is_string() && k == "collective") {
    item_.collective = v.get<std::string>();
  } else if (v.is_string() && k == "dtype") {
    item_.dtype = v.get<std::string>();
  } else if (v.is_string() && k == "op") {
    item_.op = v.get<std::string>();
  } else if (v.is_number_integer() && k == "root") {
    item_.root = v.get<int>();
  } else if (v.is_number_unsigned() && k == "size_bytes") {
    item_.size_bytes = v.get<std::uint64_t>();
  } else if (k == "placement") {
    item_.placement = v == "in_place" ? Placement::kInPlace : Placement::kOutOfPlace;
  } else if (k == "busbw_gbps") {
    item_.busbw_gbps = v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
  } else if (v.is_number_unsigned() && k == "wrong") {
    item_.wrong = v.get<std::uint64_t>();
  }
}

Result<DigestRead> digest_of(const std::string& path, const Json& j, DigestSax& sax) {
  const auto schema = j.is_object() ? j.find("schema") : j.end();
  if (!j.is_object() || schema == j.end() || !schema->is_string()) return DigestRead{std::nullopt, ""};
  if (*schema != kRunSchemaName) return DigestRead{std::nullopt, schema->get<std::string>()};
  const auto version = j.find("schema_version");
  if (version == j.end() || !version->is_number_integer() || *version != kRunSchemaVersion) {
    return Status::error(ErrorCode::kUsage, path + ": /schema_version: unsupported run schema version " +
                                                (version == j.end() ? std::string("(none)") : version->dump()) +
                                                " (this build reads version " + std::to_string(kRunSchemaVersion) +
                                                ")");
  }
  try {
    RunDigest d;
    d.path = path;
    d.context = context_from(j.at("context"), j.at("config"), RunReading::kDigest);
    d.status = j.at("summary").at("status").get<std::string>();
    if (!sax.results_seen) throw std::out_of_range("no \"results\" array");
    d.points = std::move(sax.points);
    return DigestRead{std::move(d), ""};
  } catch (const std::exception& e) {
    return Status::error(ErrorCode::kUsage, path + ": not a readable run document: " + e.what());
  }
}

// One read(2) loop into a string of the file's size: thousands of files, so no stream layers.
Result<std::string> read_whole_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::error(ErrorCode::kUsage, "cannot read " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    const int error = S_ISDIR(st.st_mode) ? EISDIR : errno;
    ::close(fd);
    return Status::error(ErrorCode::kUsage, "cannot read " + path + ": " + std::strerror(error));
  }
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const int error = errno;
  ::close(fd);
  if (done != text.size()) return Status::error(ErrorCode::kUsage, "cannot read " + path + ": " + std::strerror(error));
  return text;
}

}  // namespace

Result<DigestRead> parse_run_digest(const std::string& path, std::string_view text) {
  DigestSax sax;
  if (!Json::sax_parse(text.begin(), text.end(), &sax)) {
    return Status::error(ErrorCode::kUsage, path + ": not JSON: " + sax.error);
  }
  return digest_of(path, sax.root, sax);
}

Result<DigestRead> read_run_digest(const std::string& path) {
  COLLBENCH_ASSIGN_OR_RETURN(const std::string text, read_whole_file(path));
  return parse_run_digest(path, text);
}

std::vector<Result<DigestRead>> read_run_digests(const std::vector<std::string>& paths) {
  std::vector<Result<DigestRead>> out(paths.size(), Result<DigestRead>(DigestRead{}));
  parallel_for(paths.size(), [&](std::size_t i) { out[i] = read_run_digest(paths[i]); });
  return out;
}

}  // namespace collbench::report
