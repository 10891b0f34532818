#include "report/documents/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "temp_dir.hpp"

namespace collbench::report {
namespace {

using AtomicFile = testing::TempDirTest;
using Entries = std::vector<std::string>;

TEST_F(AtomicFile, WritesContentAndLeavesNoTemporaryFile) {
  ASSERT_TRUE(write_file_atomically(path("run.json"), "{}\n").ok());
  EXPECT_EQ(read(path("run.json")), "{}\n");
  EXPECT_EQ(entries(), Entries({"run.json"}));
}

TEST_F(AtomicFile, ReplacesAnExistingFile) {
  write(path("run.json"), "old content that is longer than the new one");
  ASSERT_TRUE(write_file_atomically(path("run.json"), "new").ok());
  EXPECT_EQ(read(path("run.json")), "new");
  EXPECT_EQ(entries(), Entries({"run.json"}));
}

TEST_F(AtomicFile, PermissionsFollowTheUmask) {
  ASSERT_TRUE(write_file_atomically(path("run.json"), "x").ok());
  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat st {};
  ASSERT_EQ(::stat(path("run.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

TEST_F(AtomicFile, MissingDirectoryIsAnIoErrorNamingThePath) {
  const std::string target = path("no/such/dir/run.json");
  const Status s = write_file_atomically(target, "x");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kIo);
  EXPECT_NE(s.message().find(path("no/such/dir")), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("No such file or directory"), std::string::npos) << s.message();
}

TEST_F(AtomicFile, TargetThatIsADirectoryFailsAndCleansUp) {
  std::filesystem::create_directory(path("run.json"));
  EXPECT_FALSE(write_file_atomically(path("run.json"), "x").ok());
  EXPECT_EQ(entries(), Entries({"run.json"}));
}

TEST_F(AtomicFile, ChooseOutputPathKeepsFreeNames) {
  EXPECT_EQ(*choose_output_path(path("run.json"), false), path("run.json"));
}

TEST_F(AtomicFile, ChooseOutputPathNumbersBeforeTheExtension) {
  write(path("run.json"), "1");
  EXPECT_EQ(*choose_output_path(path("run.json"), false), path("run.1.json"));
  write(path("run.1.json"), "2");
  EXPECT_EQ(*choose_output_path(path("run.json"), false), path("run.2.json"));
  EXPECT_EQ(*choose_output_path(path("run.json"), true), path("run.json"));
  write(path("results"), "3");
  EXPECT_EQ(*choose_output_path(path("results"), false), path("results.1"));
}

TEST_F(AtomicFile, ChooseOutputPathRejectsADirectory) {
  const auto chosen = choose_output_path(dir_.string(), false);
  ASSERT_FALSE(chosen.ok());
  EXPECT_NE(chosen.status().message().find("is a directory"), std::string::npos);
}

TEST_F(AtomicFile, CheckWritableAcceptsAWritableDirectoryAndLeavesNoProbe) {
  EXPECT_TRUE(check_writable(path("run.json")).ok());
  EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicFile, CheckWritableRejectsMissingDirectories) {
  const Status s = check_writable(path("missing/run.json"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "cannot write " + path("missing/run.json") + ": " + path("missing") + " does not exist");
  write(path("file"), "");
  const Status under_file = check_writable(path("file/run.json"));
  ASSERT_FALSE(under_file.ok());
  EXPECT_NE(under_file.message().find("is not a directory"), std::string::npos) << under_file.message();
}

// /proc refuses new files even to root, so this case runs everywhere.
TEST_F(AtomicFile, CheckWritableRejectsADirectoryThatRefusesFiles) {
  if (!std::filesystem::is_directory("/proc")) GTEST_SKIP() << "no /proc on this system";
  const Status s = check_writable("/proc/collbench-probe.json");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kIo);
  EXPECT_EQ(s.message().rfind("cannot write /proc/collbench-probe.json: cannot create a file in /proc: ", 0), 0u)
      << s.message();
}

TEST_F(AtomicFile, CheckWritableRejectsAReadOnlyDirectory) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: permission bits do not stop root";
  std::filesystem::create_directory(path("ro"));
  std::filesystem::permissions(path("ro"), std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  const Status s = check_writable(path("ro/run.json"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kIo);
  EXPECT_NE(s.message().find("Permission denied"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace collbench::report
