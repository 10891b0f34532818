#include "report/documents/json_internal.hpp"

#include <cmath>

namespace collbench::report {

Json real(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

Json job_header_json(const JobHeader& job) {
  return {{"tool", {{"name", "collbench"}, {"version", job.tool_version}, {"git_commit", job.git_commit}}},
          {"start_time", job.start_time},
          {"argv", job.argv},
          {"bootstrap", job.bootstrap},
          {"backend", {{"name", job.backend}, {"library", job.backend_library}, {"memory", job.memory}}},
          {"nranks", job.nranks},
          {"hosts", job.hosts}};
}

}  // namespace collbench::report
