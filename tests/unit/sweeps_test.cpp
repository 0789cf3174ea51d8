#include "validate/sweeps.h"

#include <gtest/gtest.h>

#include <set>

#include "sim/common/error.h"

namespace lanelab::validate {
namespace {

TEST(Sweeps, SmallPointsAllBuild) {
  for (const auto& point : sweep_points("all", SweepSize::Small)) {
    const kernels::Workload* workload = kernels::find_workload(point.workload);
    ASSERT_NE(workload, nullptr) << point.workload;
    EXPECT_NO_THROW(workload->build(point.params)) << point.experiment << " " << point.workload;
  }
}

TEST(Sweeps, TransposeWorkgroupCoversTwoToTheFiveToTen) {
  std::set<std::string> sizes, kernels;
  for (const auto& p : sweep_points("transpose-workgroup", SweepSize::Full)) {
    sizes.insert(p.params.at("workgroup_size"));
    kernels.insert(p.params.at("kernel"));
  }
  EXPECT_EQ(sizes, (std::set<std::string>{"32", "64", "128", "256", "512", "1024"}));
  EXPECT_EQ(kernels.size(), 8u);
}

TEST(Sweeps, FullSizesAreTheDocuments) {
  std::set<std::string> images, floats, apsp_n, shapes;
  for (const auto& p : sweep_points("all", SweepSize::Full)) {
    if (p.workload == "luminance") images.insert(p.params.at("image"));
    if (p.workload == "reduce") floats.insert(p.params.at("n"));
    if (p.workload == "apsp") {
      apsp_n.insert(p.params.at("n"));
      shapes.insert(p.params.at("block_factor") + "/" + p.params.at("threads"));
      EXPECT_EQ(p.cpu_check, std::stoi(p.params.at("n")) <= 1024);
    }
  }
  EXPECT_EQ(images, std::set<std::string>{"1920x1080"});
  EXPECT_TRUE(floats.count("1048576") && floats.count("268435456"));
  EXPECT_TRUE(apsp_n.count("1000") && apsp_n.count("5000") && apsp_n.count("8192"));
  EXPECT_TRUE(shapes.count("78/39x13"));  // the report's choice
}

TEST(Sweeps, UnknownNameListsTheSweeps) {
  try {
    sweep_points("nope", SweepSize::Small);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("transpose-loading"), std::string::npos);
  }
  EXPECT_THROW(parse_sweep_size("medium"), Error);
}

}  // namespace
}  // namespace lanelab::validate
