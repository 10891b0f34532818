#include "report/job_header.hpp"

namespace collbench::report {

std::string job_header_line(const JobHeader& job, std::string_view command) {
  const auto plural = [](std::size_t n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
  };
  return "# collbench " + job.tool_version + " " + std::string(command) + ": " +
         plural(static_cast<std::size_t>(job.nranks), "rank") + " on " + plural(job.hosts.size(), "host") +
         " (bootstrap " + job.bootstrap + ", backend " + job.backend + ": " + job.backend_library + ")";
}

}  // namespace collbench::report
