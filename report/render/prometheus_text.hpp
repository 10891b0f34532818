// A run as metrics in the Prometheus text exposition format, version 0.0.4: what
// node_exporter's textfile collector reads from *.prom files (docs/health.md). Every series is
// a gauge named collbench_*, with its unit in the name, a HELP and a TYPE line.
//
// Per measurement (collective, dtype, op, root, size, placement), labels host, collective,
// dtype, op, root ("" for collectives without one), size_bytes, placement:
//   collbench_busbw_gbytes_per_second, collbench_algbw_gbytes_per_second,
//   collbench_time_seconds (the headline time), collbench_wrong_elements (checked rows only).
// Per run, label host: collbench_run_ok (1 when the run ended "ok", with no wrong element and
// no failed expectation; label status: the run's status), collbench_avg_busbw_gbytes_per_second,
// collbench_peak_busbw_gbytes_per_second, collbench_run_wrong_elements,
// collbench_run_end_timestamp_seconds (a value: node_exporter refuses samples with timestamps),
// collbench_run_ranks, collbench_run_info (1, labels hosts, backend, bootstrap, memory, version)
// and, with --expect, collbench_expectations and collbench_expectations_failed.
//
// host is rank 0's host: the node whose textfile folder the file normally lands in (only rank 0
// writes it); every host of the job is in collbench_run_info's hosts label, comma-separated.
// A size measured in several cycles (-N) is one series with the last cycle's figures: a
// scrape must never see a series twice.
#pragma once

#include <string>
#include <string_view>

#include "report/documents/run_json.hpp"
#include "report/health_record.hpp"

namespace collbench::report {

// `prefix` begins every series name: collbench health writes its sweep as collbench_health_*, so
// that its file and run --metrics' can share a textfile folder without a series in both.
std::string prometheus_text(const RunDocument& document, std::string_view prefix = "collbench_");

// collbench health's verdicts (docs/health.md), to follow the sweep's series: per host of the
// job, collbench_health_ok{host} (1 passed, 0 failed) and collbench_health_findings{host,check}
// for every check (preflight, data, topology, expectation; 0 when it found nothing); for the
// whole check, labelled with the first host, collbench_health_job_ok (1 only when every host
// and the job passed) and collbench_health_end_timestamp_seconds (from `end_time`, ISO 8601 UTC).
std::string health_prometheus_text(const HealthReport& report, const std::string& end_time);

// A label value as the format quotes it: backslash, double quote and newline escaped.
std::string escape_label_value(std::string_view value);

}  // namespace collbench::report
