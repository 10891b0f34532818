// Element types, reduction ops and collectives as named on the command line (-d, -o, positional).
#include "bench/coll/collective.hpp"
#include "common/types.hpp"
#include "tests/fuzz/fuzz_entries.hpp"

namespace collbench::fuzz {

void types(Bytes input) {
  const std::string_view text = as_text(input);
  if (auto list = parse_data_types(text); list.ok()) {
    COLLBENCH_FUZZ_REQUIRE(!list->empty());
    for (DataType t : *list) {
      const auto again = parse_data_type(to_string(t));
      COLLBENCH_FUZZ_REQUIRE(again.ok() && *again == t);
    }
  }
  if (auto list = parse_reduce_ops(text); list.ok()) {
    for (ReduceOp op : *list) {
      const auto again = parse_reduce_op(to_string(op));
      COLLBENCH_FUZZ_REQUIRE(again.ok() && *again == op);
    }
  }
  if (auto c = coll::parse_collective(text); c.ok()) {
    const auto again = coll::parse_collective(coll::to_string(*c));
    COLLBENCH_FUZZ_REQUIRE(again.ok() && *again == *c);
  }
}

}  // namespace collbench::fuzz

COLLBENCH_FUZZ_TARGET(types)
