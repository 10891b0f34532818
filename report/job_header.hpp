// Who ran what, where: the header shared by the preflight and locate documents (their JSON
// "context" and the first line of their text).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace collbench::report {

struct JobHeader {
  std::string tool_version;
  std::string git_commit;
  std::string start_time;
  std::vector<std::string> argv;
  std::string bootstrap;
  std::string backend;
  std::string backend_library;
  std::string memory;
  int nranks = 1;
  std::vector<std::string> hosts;
};

// "# collbench 0.1.0 locate: 4 ranks on 1 host (bootstrap mpi, backend mpi: Open MPI v4.1.4)"
std::string job_header_line(const JobHeader& job, std::string_view command);

}  // namespace collbench::report
