// The collbench command line: subcommands, help, and the one place that prints errors and
// chooses the exit code.
#pragma once

namespace collbench::cli {

int main(int argc, char** argv);

}  // namespace collbench::cli
