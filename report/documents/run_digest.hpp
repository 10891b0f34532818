// The few fields of a run document that a history of hundreds or thousands of runs needs: the
// context (versions, hosts, devices, flags) and one busbw per measured point. Read without the
// schema validation and without the parts nobody needs here (topology, statistics, mismatches),
// so that ten thousand files read in seconds; `collbench validate` checks a file in full.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "report/record.hpp"

namespace collbench::report {

struct DigestPoint {
  std::string collective;
  std::string dtype;
  std::string op;
  int root = -1;
  std::uint64_t size_bytes = 0;
  Placement placement = Placement::kOutOfPlace;
  double busbw_gbps = 0;    // NaN when the document holds "nan" or an infinity
  std::uint64_t wrong = 0;  // wrong elements: such a point is no measurement of speed
};

struct RunDigest {
  std::string path;
  // tool, start_time, env, bootstrap, backend, nranks, hosts, ranks (host and device only) and
  // config; no argv and no topology.
  RunContext context;
  std::string status;  // summary.status: "ok", "wrong_data", "incomplete", ...
  std::vector<DigestPoint> points;
};

// What a file turned out to be.
struct DigestRead {
  std::optional<RunDigest> run;  // empty: a JSON document of another kind (no "schema": "collbench.run")
  std::string other_schema;      // that document's "schema", or "" when it has none
};

// A run document's digest, or which other document it is. Errors (usage, naming the file): an
// unreadable file, text that is not JSON, another run schema version, a run document that lacks
// a field the history needs.
Result<DigestRead> parse_run_digest(const std::string& path, std::string_view text);
Result<DigestRead> read_run_digest(const std::string& path);
// Every path read as above, on a few threads; the results in the order of `paths`.
std::vector<Result<DigestRead>> read_run_digests(const std::vector<std::string>& paths);

}  // namespace collbench::report
