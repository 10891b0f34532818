#include "common/file_io.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

namespace collbench {

Result<std::string> read_text_file(const std::string& path, std::uint64_t max_bytes) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    return Status::error(ErrorCode::kUsage, "cannot read " + path + ": " + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) return Status::error(ErrorCode::kUsage, "cannot read " + path + ": it is a directory");
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    return Status::error(ErrorCode::kUsage, path + " is larger than " + std::to_string(max_bytes) + " bytes");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error(ErrorCode::kUsage, "cannot open " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::error(ErrorCode::kIo, "error while reading " + path);
  return text.str();
}

std::string utc_now_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string local_now_text() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

}  // namespace collbench
