#include "report/documents/input_files.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

namespace collbench::report {
namespace {

namespace fs = std::filesystem;

Status add_folder(const std::string& folder, std::vector<std::string>& out) {
  std::vector<std::string> found;
  std::error_code ec;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code type_error;
    if (it->path().extension() == ".json" && it->is_regular_file(type_error)) found.push_back(it->path().string());
  }
  if (ec) return Status::error(ErrorCode::kUsage, "cannot read the folder " + folder + ": " + ec.message());
  if (found.empty()) return Status::error(ErrorCode::kUsage, folder + ": the folder holds no .json file");
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
  return ok_status();
}

Status add_path(const std::string& path, std::vector<std::string>& out) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return add_folder(path, out);
  out.push_back(path);
  return ok_status();
}

bool is_pattern(const std::string& text) { return text.find_first_of("*?[") != std::string::npos; }

// glob(3) sorts its matches; GLOB_NOMAGIC is not used: a name without wildcards is no pattern.
Result<std::vector<std::string>> glob_matches(const std::string& pattern) {
  glob_t matches{};
  const int rc = ::glob(pattern.c_str(), GLOB_ERR, nullptr, &matches);
  std::vector<std::string> out;
  for (std::size_t i = 0; rc == 0 && i < matches.gl_pathc; ++i) out.emplace_back(matches.gl_pathv[i]);
  ::globfree(&matches);
  if (rc == GLOB_NOMATCH) return Status::error(ErrorCode::kUsage, pattern + ": the pattern matches no file");
  if (rc != 0) return Status::error(ErrorCode::kUsage, pattern + ": the pattern could not be expanded (read error)");
  return out;
}

}  // namespace

Result<std::vector<std::string>> expand_inputs(const std::vector<std::string>& arguments) {
  std::vector<std::string> all;
  for (const auto& argument : arguments) {
    std::error_code ec;
    if (fs::exists(argument, ec)) {
      COLLBENCH_RETURN_IF_ERROR(add_path(argument, all));
      continue;
    }
    if (!is_pattern(argument)) {
      return Status::error(ErrorCode::kUsage, "cannot read " + argument + ": No such file or directory");
    }
    COLLBENCH_ASSIGN_OR_RETURN(const std::vector<std::string> matches, glob_matches(argument));
    for (const auto& m : matches) COLLBENCH_RETURN_IF_ERROR(add_path(m, all));
  }
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (auto& path : all) {
    if (seen.insert(fs::path(path).lexically_normal().string()).second) unique.push_back(std::move(path));
  }
  return unique;
}

}  // namespace collbench::report
