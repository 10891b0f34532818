#include "bench/cli/app.hpp"

int main(int argc, char** argv) { return collbench::cli::main(argc, argv); }
