#include "report/documents/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

namespace collbench::report {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxTempAttempts = 100;
constexpr int kMaxNumberedNames = 10000;

std::string errno_text(int err) { return std::error_code(err, std::generic_category()).message(); }

Status io_error(const std::string& what, const std::string& path, int err) {
  return Status::error(ErrorCode::kIo, what + " " + path + ": " + errno_text(err));
}

std::string directory_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// An open, new file next to `path`. O_EXCL makes concurrent writers pick different names,
// and open()'s mode argument lets the umask decide the final permissions.
struct TempFile {
  int fd = -1;
  std::string path;
};

Result<TempFile> create_temp_next_to(const std::string& path) {
  const std::string dir = directory_of(path);
  const std::string base = fs::path(path).filename().string();
  for (int attempt = 0; attempt < kMaxTempAttempts; ++attempt) {
    std::string name = dir + "/." + base + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(attempt);
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return TempFile{fd, std::move(name)};
    if (errno != EEXIST) return io_error("cannot create a file in", dir, errno);
  }
  return Status::error(ErrorCode::kIo, "cannot create a temporary file in " + dir + ": too many leftovers");
}

Status write_all(int fd, std::string_view content, const std::string& path) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error("cannot write", path, errno);
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return ok_status();
}

// Makes the rename itself durable. Some file systems cannot fsync a directory (EINVAL); the
// data is already safe then, so that is not an error.
Status sync_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open directory", dir, errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL && err != EROFS) return io_error("cannot sync directory", dir, err);
  return ok_status();
}

Status fill_and_close(const TempFile& temp, std::string_view content) {
  Status written = write_all(temp.fd, content, temp.path);
  if (written.ok() && ::fsync(temp.fd) != 0) written = io_error("cannot sync", temp.path, errno);
  if (::close(temp.fd) != 0 && written.ok()) written = io_error("cannot close", temp.path, errno);
  return written;
}

bool exists_or_dangles(const std::string& path) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

}  // namespace

Status write_file_atomically(const std::string& path, std::string_view content) {
  if (path.empty()) return Status::error(ErrorCode::kUsage, "empty output file name");
  COLLBENCH_ASSIGN_OR_RETURN(const TempFile temp, create_temp_next_to(path));
  Status status = fill_and_close(temp, content);
  if (status.ok() && ::rename(temp.path.c_str(), path.c_str()) != 0) {
    status = io_error("cannot replace", path, errno);
  }
  if (!status.ok()) {
    ::unlink(temp.path.c_str());
    return status;
  }
  return sync_directory(directory_of(path));
}

Result<std::string> choose_output_path(const std::string& requested, bool force) {
  if (requested.empty()) return Status::error(ErrorCode::kUsage, "empty output file name");
  std::error_code ec;
  if (fs::is_directory(requested, ec)) return Status::error(ErrorCode::kUsage, requested + " is a directory");
  if (force || !exists_or_dangles(requested)) return requested;
  const fs::path p(requested);
  // "run.json" -> "run" + ".json"; a leading dot (".hidden") is part of the name.
  const std::string stem = p.stem().string();
  const std::string extension = p.extension().string();
  const fs::path dir = p.parent_path();
  for (int n = 1; n <= kMaxNumberedNames; ++n) {
    const std::string candidate = (dir / (stem + "." + std::to_string(n) + extension)).string();
    if (!exists_or_dangles(candidate)) return candidate;
  }
  return Status::error(ErrorCode::kIo, "no free file name like " + requested + " (tried " +
                                           std::to_string(kMaxNumberedNames) + " numbers)");
}

Result<std::string> choose_nccl_tests_output_path(const std::string& requested, bool force) {
  if (requested.empty()) return Status::error(ErrorCode::kUsage, "empty output file name");
  std::error_code ec;
  if (fs::is_directory(requested, ec)) return Status::error(ErrorCode::kUsage, requested + " is a directory");
  if (force || !exists_or_dangles(requested)) return requested;
  for (int n = 0; n < kMaxNumberedNames; ++n) {
    const std::string candidate = requested + "." + std::to_string(n);
    if (!exists_or_dangles(candidate)) return candidate;
  }
  return Status::error(ErrorCode::kIo, "no free file name like " + requested + " (tried " +
                                           std::to_string(kMaxNumberedNames) + " numbers)");
}

Status check_writable(const std::string& path) {
  if (path.empty()) return Status::error(ErrorCode::kUsage, "empty output file name");
  const std::string dir = directory_of(path);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    const char* why = fs::exists(dir, ec) ? " is not a directory" : " does not exist";
    return Status::error(ErrorCode::kIo, "cannot write " + path + ": " + dir + why);
  }
  if (fs::is_directory(path, ec)) {
    return Status::error(ErrorCode::kUsage, "cannot write " + path + ": it is a directory");
  }
  auto probe = create_temp_next_to(path);
  if (!probe.ok()) return probe.status().with_context("cannot write " + path);
  ::close(probe->fd);
  ::unlink(probe->path.c_str());
  return ok_status();
}

}  // namespace collbench::report
