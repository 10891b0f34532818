#include "bench/bootstrap/tcp/env_config.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace collbench::bootstrap {
namespace {

using Vars = std::map<std::string, std::string, std::less<>>;

Result<EnvConfig> parse(const Vars& vars, double timeout_s = 30, std::uint32_t stagger_ms = 0) {
  const EnvLookup lookup = [&vars](std::string_view name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
  return env_config_from(lookup, timeout_s, stagger_ms);
}

Vars torchrun(std::string rank = "1", std::string size = "4") {
  return {{"RANK", rank},
          {"WORLD_SIZE", size},
          {"LOCAL_RANK", "1"},
          {"LOCAL_WORLD_SIZE", "2"},
          {"MASTER_ADDR", "node001"},
          {"MASTER_PORT", "29500"}};
}

// The error message, which must be one line naming the variable.
std::string error_of(const Vars& vars, double timeout_s = 30, std::uint32_t stagger_ms = 0) {
  auto cfg = parse(vars, timeout_s, stagger_ms);
  if (cfg.ok()) return "<no error>";
  EXPECT_EQ(cfg.status().code(), ErrorCode::kUsage);
  EXPECT_EQ(cfg.status().message().find('\n'), std::string::npos);
  return cfg.status().message();
}

TEST(EnvConfigTest, ReadsTorchrunVariables) {
  auto cfg = parse(torchrun(), 12.5, 100);
  ASSERT_TRUE(cfg.ok()) << cfg.status().message();
  EXPECT_EQ(cfg->rank, 1);
  EXPECT_EQ(cfg->world_size, 4);
  EXPECT_EQ(cfg->local_rank, 1);
  EXPECT_EQ(cfg->local_world_size, 2);
  EXPECT_EQ(cfg->master_addr, "node001");
  EXPECT_EQ(cfg->master_port, 29500);
  EXPECT_EQ(cfg->launcher, "torchrun");
  EXPECT_EQ(cfg->timeout_s, 12.5);
  EXPECT_EQ(cfg->stagger_ms, 100u);
  EXPECT_EQ(cfg->token.size(), 16u);
}

TEST(EnvConfigTest, ReadsSlurmVariables) {
  auto cfg = parse({{"SLURM_PROCID", "5"},
                    {"SLURM_NTASKS", "8"},
                    {"SLURM_LOCALID", "1"},
                    {"MASTER_ADDR", "10.0.0.1"},
                    {"MASTER_PORT", "29500"}});
  ASSERT_TRUE(cfg.ok()) << cfg.status().message();
  EXPECT_EQ(cfg->rank, 5);
  EXPECT_EQ(cfg->world_size, 8);
  EXPECT_EQ(cfg->local_rank, 1);
  EXPECT_FALSE(cfg->local_world_size.has_value());
  EXPECT_EQ(cfg->launcher, "slurm");
}

TEST(EnvConfigTest, TorchrunWinsOverTheSlurmStepItRunsIn) {
  Vars vars = torchrun("3", "4");
  vars["SLURM_PROCID"] = "0";
  vars["SLURM_NTASKS"] = "1";
  auto cfg = parse(vars);
  ASSERT_TRUE(cfg.ok());
  EXPECT_EQ(cfg->rank, 3);
  EXPECT_EQ(cfg->launcher, "torchrun");
}

TEST(EnvConfigTest, LocalVariablesAreOptional) {
  auto cfg = parse({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "1"}});
  ASSERT_TRUE(cfg.ok());
  EXPECT_FALSE(cfg->local_rank.has_value());
  EXPECT_FALSE(cfg->local_world_size.has_value());
}

TEST(EnvConfigTest, SingleRankNeedsNoMaster) {
  auto cfg = parse({{"RANK", "0"}, {"WORLD_SIZE", "1"}});
  ASSERT_TRUE(cfg.ok()) << cfg.status().message();
  EXPECT_EQ(cfg->world_size, 1);
}

TEST(EnvConfigTest, MissingLauncherVariablesAreNamed) {
  EXPECT_NE(error_of({}).find("RANK and WORLD_SIZE"), std::string::npos);
  EXPECT_NE(error_of({{"RANK", "0"}}).find("RANK is set but WORLD_SIZE is not"), std::string::npos);
  EXPECT_NE(error_of({{"WORLD_SIZE", "2"}}).find("WORLD_SIZE is set but RANK is not"), std::string::npos);
  EXPECT_NE(error_of({{"SLURM_PROCID", "0"}}).find("SLURM_PROCID is set but SLURM_NTASKS is not"), std::string::npos);
}

TEST(EnvConfigTest, MissingMasterIsSaidPlainly) {
  Vars vars = torchrun();
  vars.erase("MASTER_ADDR");
  EXPECT_NE(error_of(vars).find("MASTER_ADDR is not set"), std::string::npos);
  vars = torchrun();
  vars.erase("MASTER_PORT");
  EXPECT_NE(error_of(vars).find("MASTER_PORT is not set"), std::string::npos);
  const std::string slurm = error_of({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}});
  EXPECT_NE(slurm.find("MASTER_ADDR is not set"), std::string::npos);
  EXPECT_NE(slurm.find("srun does not set it"), std::string::npos);
}

TEST(EnvConfigTest, InvalidValuesAreNamedWithTheirValue) {
  EXPECT_EQ(error_of(torchrun("abc")), "RANK='abc' is not a non-negative integer");
  EXPECT_EQ(error_of(torchrun("-1")), "RANK='-1' is not a non-negative integer");
  EXPECT_EQ(error_of(torchrun("4", "4")), "RANK='4' is out of range for WORLD_SIZE=4 (ranks are 0..3)");
  EXPECT_EQ(error_of(torchrun("0", "0")), "WORLD_SIZE='0' must be at least 1");
  EXPECT_EQ(error_of(torchrun("0", "99999999999")), "WORLD_SIZE='99999999999' is too large (at most 1048576)");
  EXPECT_EQ(error_of(torchrun("0", "")), "WORLD_SIZE='' is not a non-negative integer");
  for (const char* port : {"0", "65536", "http", ""}) {
    Vars vars = torchrun();
    vars["MASTER_PORT"] = port;
    EXPECT_EQ(error_of(vars), "MASTER_PORT='" + std::string(port) + "' is not a port number (1-65535)");
  }
  Vars vars = torchrun();
  vars["MASTER_ADDR"] = "";
  EXPECT_EQ(error_of(vars), "MASTER_ADDR='' is not a host name or address");
}

TEST(EnvConfigTest, LocalRanksMustFit) {
  Vars vars = torchrun();
  vars["LOCAL_RANK"] = "2";
  EXPECT_EQ(error_of(vars), "LOCAL_RANK='2' is out of range for LOCAL_WORLD_SIZE=2");
  vars = torchrun();
  vars["LOCAL_WORLD_SIZE"] = "5";
  EXPECT_EQ(error_of(vars), "LOCAL_WORLD_SIZE='5' is larger than WORLD_SIZE=4");
}

TEST(EnvConfigTest, TimeoutAndStaggerAreChecked) {
  EXPECT_NE(error_of(torchrun(), 0).find("positive number of seconds"), std::string::npos);
  EXPECT_NE(error_of(torchrun(), -1).find("positive number of seconds"), std::string::npos);
  EXPECT_NE(error_of(torchrun(), 2, 2000).find("shorter than the timeout"), std::string::npos);
  EXPECT_TRUE(parse(torchrun(), 2, 1999).ok());
}

TEST(EnvConfigTest, ExplicitTokenIsFingerprintedNeverSentAsIs) {
  Vars vars = torchrun();
  vars["COLLBENCH_TOKEN"] = "s3cret";
  auto cfg = parse(vars);
  ASSERT_TRUE(cfg.ok());
  EXPECT_EQ(cfg->token, token_fingerprint("s3cret"));
  EXPECT_EQ(cfg->token.find("s3cret"), std::string::npos);
  EXPECT_EQ(cfg->token_source, "COLLBENCH_TOKEN");
  vars["MASTER_PORT"] = "29501";  // an explicit token does not depend on the job's variables
  EXPECT_EQ(parse(vars)->token, cfg->token);
}

TEST(EnvConfigTest, DerivedTokenFollowsTheJobVariables) {
  const std::string base = parse(torchrun())->token;
  EXPECT_EQ(parse(torchrun("2"))->token, base) << "every rank of one job derives the same token";
  EXPECT_NE(parse(torchrun("1", "5"))->token, base) << "WORLD_SIZE";
  Vars vars = torchrun();
  vars["MASTER_PORT"] = "29501";
  EXPECT_NE(parse(vars)->token, base) << "MASTER_PORT";
  vars = torchrun();
  vars["MASTER_ADDR"] = "node002";
  EXPECT_NE(parse(vars)->token, base) << "MASTER_ADDR";
  vars = torchrun();
  vars["SLURM_JOB_ID"] = "1234";
  auto with_job = parse(vars);
  EXPECT_NE(with_job->token, base) << "SLURM_JOB_ID";
  EXPECT_NE(with_job->token_source.find("SLURM_JOB_ID"), std::string::npos);
  vars["SLURM_JOB_ID"] = "1235";
  EXPECT_NE(parse(vars)->token, with_job->token) << "a stale job with another id is kept out";
  vars = torchrun();
  vars["TORCHELASTIC_RUN_ID"] = "abc";
  EXPECT_NE(parse(vars)->token, base) << "TORCHELASTIC_RUN_ID";
}

TEST(EnvConfigTest, FingerprintIsFnv1a64InHex) {
  EXPECT_EQ(token_fingerprint(""), "cbf29ce484222325");
  EXPECT_EQ(token_fingerprint("a"), "af63dc4c8601ec8c");
}

}  // namespace
}  // namespace collbench::bootstrap
