// A small but complete run document shared by the report tests: two collectives, a skipped
// size, an unchecked placement, mismatches with NaN and infinities.
#pragma once

#include <limits>
#include <string>

#include "report/documents/run_json.hpp"

namespace collbench::report::testing {

inline Measurement measured(Placement placement, double time_us, double algbw, double busbw, std::uint64_t wrong = 0) {
  Measurement m;
  m.placement = placement;
  m.iterations = 20;
  m.time_us = time_us;
  m.per_iteration = TimeStats{
      20, time_us, time_us, time_us * 0.9, time_us * 1.5, time_us * 1.2, time_us * 1.4, time_us * 0.05, 0.05};
  m.algbw_gbps = algbw;
  m.busbw_gbps = busbw;
  m.checked = true;
  m.wrong = wrong;
  m.slowest_rank = 1;
  m.slowest_host = "node0001";
  m.slowest_rank_time_us = time_us * 1.01;
  return m;
}

inline SizeRecord sized(std::string collective, std::string op, std::uint64_t size, std::uint64_t count) {
  SizeRecord r;
  r.collective = std::move(collective);
  r.dtype = "float";
  r.op = std::move(op);
  r.root = -1;
  r.size_bytes = size;
  r.count = count;
  return r;
}

inline RunContext sample_context() {
  RunContext c;
  c.tool_version = "0.1.0";
  c.git_commit = "dda0d65b1622";
  c.start_time = "2024-05-01T12:00:00Z";
  c.argv = {"collbench", "run", "-b", "8", "-e", "8G", "-J", "run.json"};
  c.env = {{"NCCL_DEBUG", "WARN"}, {"CUDA_VISIBLE_DEVICES", "0,1"}};
  c.bootstrap = "mpi";
  c.backend = "nccl";
  c.backend_library = "NCCL 2.21.5";
  c.memory = "device";
  c.nranks = 2;
  c.hosts = {"node0001"};
  c.ranks = {RankInfo{0, "node0001", 41234, 0, "cuda:0", "NVIDIA H100 80GB HBM3", "00000000:18:00.0", 85520809984},
             RankInfo{1, "node0001", 41235, 1, "cuda:1", "NVIDIA H100 80GB HBM3", "0000:2A:00.0", 85520809984}};
  c.config.collectives = {"all_reduce", "all_gather"};
  c.config.dtypes = {"float"};
  c.config.ops = {"sum"};
  c.config.min_bytes = 8;
  c.config.max_bytes = 8589934592;
  c.config.step_factor = 2;
  c.config.iterations = 20;
  c.config.warmup_iterations = 1;
  c.config.check_iterations = 1;
  c.config.timeout_s = 300;
  c.config.seed = 42;
  return c;
}

inline std::vector<SizeRecord> sample_rows() {
  std::vector<SizeRecord> rows;
  SizeRecord r = sized("all_reduce", "sum", 8, 2);
  r.placements = {measured(Placement::kOutOfPlace, 12.31, 0.00, 0.00), measured(Placement::kInPlace, 12.05, 0, 0)};
  rows.push_back(r);
  r = sized("all_reduce", "sum", 1048576, 262144);
  r.placements = {measured(Placement::kOutOfPlace, 35.62, 29.44, 51.52),
                  measured(Placement::kInPlace, 34.90, 30.05, 52.58)};
  rows.push_back(r);
  r = sized("all_reduce", "sum", 8589934592, 2147483648);
  r.placements = {measured(Placement::kOutOfPlace, 31245.1, 274.92, 481.11),
                  measured(Placement::kInPlace, 31180.2, 275.49, 482.11)};
  rows.push_back(r);
  r = sized("all_reduce", "sum", 17179869184, 4294967296);
  r.skipped = "out of device memory (needs 32 GiB per rank)";
  rows.push_back(r);
  r = sized("all_gather", "none", 4194304, 524288);
  Measurement bad = measured(Placement::kOutOfPlace, 123456.7, 0.034, 0.017, 3);
  bad.mismatches = {Mismatch{1, "node0001", 17, 6, std::numeric_limits<double>::quiet_NaN()},
                    Mismatch{1, "node0001", 18, 6, std::numeric_limits<double>::infinity()},
                    Mismatch{0, "node0001", 5, 2, -std::numeric_limits<double>::infinity()}};
  Measurement unchecked = measured(Placement::kInPlace, 12345678.9, 1234567.0, 0.5);
  unchecked.checked = false;
  r.placements = {bad, unchecked};
  rows.push_back(r);
  return rows;
}

inline RunDocument sample_document() {
  RunDocument d{sample_context(), sample_rows(), {}};
  d.summary = summarize(d.rows);
  d.summary.status = RunStatus::kWrongData;
  d.summary.end_time = "2024-05-01T12:03:00Z";
  return d;
}

}  // namespace collbench::report::testing
