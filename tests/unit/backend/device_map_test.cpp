#include "bench/backend/device_map.hpp"

#include <gtest/gtest.h>

namespace collbench::backend {
namespace {

DeviceClaim gpu(int rank, std::string host, int local, std::string bus, int visible = 8) {
  DeviceClaim c;
  c.rank = rank;
  c.host = std::move(host);
  c.local_rank = local;
  c.visible_devices = visible;
  c.device = local < visible ? local : 0;
  c.pci_bus_id = std::move(bus);
  return c;
}

DeviceClaim broken(int rank, std::string host, ErrorCode code, std::string error) {
  DeviceClaim c;
  c.rank = rank;
  c.host = std::move(host);
  c.error_code = code;
  c.error = std::move(error);
  return c;
}

TEST(ChooseDevice, IsTheLocalRankNeverTheGlobalRank) {
  EXPECT_EQ(*choose_device(13, "b", 5, 8), 5);
  EXPECT_EQ(*choose_device(0, "a", 0, 1), 0);
}

TEST(ChooseDevice, OneVisibleGpuPerProcessIsALauncherBinding) { EXPECT_EQ(*choose_device(3, "a", 3, 1), 0); }

TEST(ChooseDevice, MoreLocalRanksThanGpusIsALaunchError) {
  const auto r = choose_device(9, "nodeB", 4, 4);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kLaunch);
  EXPECT_NE(r.status().message().find("rank 9 on nodeB has local rank 4 but sees only 4 GPUs"), std::string::npos);
}

TEST(ChooseDevice, NoDeviceIsACommunicationError) {
  const auto r = choose_device(0, "a", 0, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kComm);
  EXPECT_TRUE(r.status().message().starts_with("no CUDA device visible (driver error"));
}

TEST(NoDeviceMessage, NamesTheDriverError) {
  EXPECT_EQ(no_device_message(35, "CUDA driver version is insufficient for CUDA runtime version"),
            "no CUDA device visible (driver error 35: CUDA driver version is insufficient for CUDA runtime version)");
}

TEST(CheckDeviceClaims, DistinctGpusPerHostPass) {
  // Two hosts whose GPUs have the same bus ids: that is fine, they are different machines.
  std::vector<DeviceClaim> table = {gpu(0, "a", 0, "0000:18:00.0"), gpu(1, "a", 1, "0000:2a:00.0"),
                                    gpu(2, "b", 0, "0000:18:00.0"), gpu(3, "b", 1, "0000:2a:00.0")};
  EXPECT_TRUE(check_device_claims(table).ok());
}

TEST(CheckDeviceClaims, TwoRanksOnOneGpuOfAHostNameBothAndTheHost) {
  // CUDA_VISIBLE_DEVICES=0 for every rank: each sees one GPU, and it is the same one.
  std::vector<DeviceClaim> table = {gpu(0, "a", 0, "0000:18:00.0"), gpu(1, "b", 0, "0000:18:00.0", 1),
                                    gpu(2, "b", 1, "0000:18:00.0", 1)};
  const Status s = check_device_claims(table);
  EXPECT_EQ(s.code(), ErrorCode::kLaunch);
  EXPECT_NE(s.message().find("ranks 1, 2 on b share the GPU 0000:18:00.0"), std::string::npos) << s.message();
}

TEST(CheckDeviceClaims, ARankWithoutDriverFailsTheWholeJobWithItsMessage) {
  std::vector<DeviceClaim> table = {gpu(0, "a", 0, "0000:18:00.0"),
                                    broken(1, "b", ErrorCode::kComm, no_device_message(35, "insufficient driver")),
                                    broken(2, "c", ErrorCode::kComm, no_device_message(35, "insufficient driver"))};
  const Status s = check_device_claims(table);
  EXPECT_EQ(s.code(), ErrorCode::kComm);
  EXPECT_EQ(s.message(), "ranks 1, 2 on b, c: no CUDA device visible (driver error 35: insufficient driver)");
}

TEST(CheckDeviceClaims, TheOnlyRankOfAJobIsNotNamedTwice) {
  const Status s = check_device_claims(
      {broken(0, "a", ErrorCode::kComm, no_device_message(35, "insufficient driver"))});
  EXPECT_EQ(s.code(), ErrorCode::kComm);
  EXPECT_EQ(s.message(), "no CUDA device visible (driver error 35: insufficient driver)");
}

TEST(CheckDeviceClaims, LaunchErrorsKeepTheirCodeAndMessage) {
  const std::string message = choose_device(5, "b", 4, 2).status().message();
  std::vector<DeviceClaim> table = {gpu(0, "a", 0, "x"), broken(5, "b", ErrorCode::kLaunch, message)};
  const Status s = check_device_claims(table);
  EXPECT_EQ(s.code(), ErrorCode::kLaunch);
  EXPECT_EQ(s.message(), message);
}

TEST(CheckDeviceClaims, LongListsAreCut) {
  std::vector<DeviceClaim> table;
  table.reserve(20);
  for (int r = 0; r < 20; ++r) table.push_back(gpu(r, "a", 0, "same"));
  const Status s = check_device_claims(table);
  EXPECT_NE(s.message().find("ranks 0, 1, 2, 3, 4, 5, 6, 7, ... (20 in all) on a share"), std::string::npos)
      << s.message();
}

TEST(DeviceClaimText, RoundTrips) {
  DeviceClaim c = broken(7, "node-7", ErrorCode::kLaunch, "rank 7 on node-7 has local rank 9 but sees only 8 GPUs");
  c.local_rank = 9;
  c.visible_devices = 8;
  const auto back = decode_claim(encode_claim(c));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->rank, 7);
  EXPECT_EQ(back->host, "node-7");
  EXPECT_EQ(back->local_rank, 9);
  EXPECT_EQ(back->visible_devices, 8);
  EXPECT_EQ(back->device, -1);
  EXPECT_EQ(back->error_code, ErrorCode::kLaunch);
  EXPECT_EQ(back->error, c.error);
  const auto ok = decode_claim(encode_claim(gpu(1, "h", 1, "0000:2a:00.0")));
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->device, 1);
  EXPECT_EQ(ok->pci_bus_id, "0000:2a:00.0");
  EXPECT_FALSE(decode_claim("garbage").ok());
}

}  // namespace
}  // namespace collbench::backend
