#include "report/documents/json_internal.hpp"

#include <cmath>
#include <optional>
#include <string>

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

namespace {
Json optional_string(const std::optional<std::string>& s) { return s ? Json(*s) : Json(nullptr); }
}  // namespace

Json expectation_json(const ExpectationResult& r) {
  const Expectation& e = r.expectation;
  Json j = {{"collective", e.collective},
            {"size_bytes", e.size_bytes},
            {"dtype", optional_string(e.dtype)},
            {"op", optional_string(e.op)},
            {"placement", to_string(e.placement)},
            {"bound", to_string(e.bound)},
            {"limit", real(e.limit)},
            {"measured", r.measured},
            {"figure", r.measured ? real(r.figure) : Json(nullptr)},
            {"figure_placement", r.measured ? Json(r.placement) : Json(nullptr)},
            {"passed", r.passed},
            {"message", r.message}};
  if (e.percent_of_bound > 0) j["percent_of_bound"] = real(e.percent_of_bound);
  return j;
}

}  // namespace collbench::report
