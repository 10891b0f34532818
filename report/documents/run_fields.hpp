// The readers of a run document's context and config, shared by the full reader (run_json.cpp,
// a validated document) and the history's digest (run_digest.cpp, a run file read without
// validation, its SAX filter having dropped the subtrees the history never needs). Internal to
// report/documents/. Templates over the JSON type, instantiated in run_fields.cpp for both
// readers' DOMs: the full reader's is ordered, the digest's is not (a std::map, env sorted).
#pragma once

#include <nlohmann/json.hpp>

#include "report/record.hpp"

namespace collbench::report {

// Which reader reads, for the few fields they take differently.
// kValidated: the document passed the schema, so every required field is there with its type;
// every field is read and a non-finite real keeps its value ("nan", "inf", "-inf").
// kDigest: nothing is validated, so fields the history does not need are not read at all (one
// of them malformed must not make a file unreadable), and a real that is no number is NaN.
enum class RunReading { kValidated, kDigest };

// An int field. nlohmann would wrap a value beyond int silently: that throws std::out_of_range
// ("\"nranks\": 4294967297 is out of range").
template <typename J>
int int_at(const J& parent, const char* key);

// A number, or the documents' "nan" / "inf" / "-inf" (json_internal.hpp's real()).
template <typename J>
double real_from(const J& j, RunReading reading = RunReading::kValidated);

// The "context" object j, with the document's "config". Throws nlohmann's exceptions on a
// missing field or a wrong type (only the digest meets those), std::out_of_range on an int
// beyond int.
template <typename J>
RunContext context_from(const J& j, const J& config, RunReading reading);

// Instantiated in run_fields.cpp, for the full reader's DOM and for the digest's.
extern template int int_at(const nlohmann::ordered_json&, const char*);
extern template double real_from(const nlohmann::ordered_json&, RunReading);
extern template RunContext context_from(const nlohmann::ordered_json&, const nlohmann::ordered_json&, RunReading);
extern template int int_at(const nlohmann::json&, const char*);
extern template double real_from(const nlohmann::json&, RunReading);
extern template RunContext context_from(const nlohmann::json&, const nlohmann::json&, RunReading);

}  // namespace collbench::report
