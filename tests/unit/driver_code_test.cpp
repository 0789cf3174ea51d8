// Pins the timing model's compile of APSP against the H100 driver's own code
// (validate/data/sass/*/index.csv, the driver's listings counted): the
// global loads a pipeline issues tell which of its loops the compiler
// unrolled, and the model's program must issue as many as the driver's
// (rolled_loops.h, validate/data/README.md "What keeping long tile copies
// rolled changed in the model").
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "kernels/workload.h"
#include "sim/launch/simulator_backend.h"
#include "sim/timing/instruction_class.h"
#include "sim/timing/timing_model.h"

namespace lanelab::timing {
namespace {

struct DriverPipeline {
  std::string point, params, pipeline;
  int ldg = 0;  // LDG instructions in the driver's listing
};

// How gtest names a row in its test list.
void PrintTo(const DriverPipeline& row, std::ostream* os) { *os << row.point << " " << row.pipeline; }

// The APSP rows of an index.csv (point,params,pipeline,...,ldg,...).
std::vector<DriverPipeline> apsp_rows(const std::string& index) {
  std::ifstream in(std::string(LANELAB_SOURCE_DIR) + "/" + index);
  EXPECT_TRUE(in) << index;
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream names(line);
  for (std::string name; std::getline(names, name, ',');) header.push_back(name);
  const auto column = [&](const std::string& name) {
    return size_t(std::find(header.begin(), header.end(), name) - header.begin());
  };
  std::vector<DriverPipeline> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    if (cells.size() != header.size() || cells[column("point")].rfind("apsp-", 0) != 0) continue;
    rows.push_back({cells[column("point")], cells[column("params")], cells[column("pipeline")],
                    std::stoi(cells[column("ldg")])});
  }
  return rows;
}

// The global loads in each program the timing model runs for a point's pipelines.
std::map<std::string, int> model_global_loads(const launch::Script& script) {
  launch::SimulatorBackend compiler(compile_options(TimingOptions{}, 32));
  std::map<std::string, int> loads;
  for (const launch::PipelineDecl& pipeline : script.pipelines) {
    const frontend::Program& program = compiler.program(script, pipeline);
    const std::vector<InstrClass> classes = pointer_classes(program);
    int& n = loads[pipeline.name];
    for (const frontend::Instruction& in : program.instructions) {
      if (static_cast<spv::Op>(in.opcode) != spv::Op::OpLoad) continue;
      const uint32_t pointer = program.operands[in.operand_begin];
      n += pointer < classes.size() && classes[pointer] == InstrClass::Global;
    }
  }
  return loads;
}

// One APSP point whose code the driver's listings count (the suite's 8 at
// n = 1000 and the unroll probe's 10): its rows, one a pipeline.
using DriverPoint = std::vector<DriverPipeline>;

std::vector<DriverPoint> driver_points() {
  std::vector<DriverPoint> points;
  for (const char* index : {"validate/data/sass/driver-2026-11-26/index.csv",
                            "validate/data/sass/driver-unroll-2026-11-26/index.csv"})
    for (const DriverPipeline& row : apsp_rows(index)) {
      if (points.empty() || points.back().front().point != row.point) points.emplace_back();
      points.back().push_back(row);
    }
  return points;
}

class DriverCode : public testing::TestWithParam<DriverPoint> {};

TEST_P(DriverCode, APSPsPipelinesIssueTheDriversGlobalLoads) {
  const DriverPoint& rows = GetParam();
  ASSERT_EQ(rows.size(), 3u);  // phases 1, 2 and 3
  kernels::Params params;
  std::stringstream words(rows.front().params);
  for (std::string word; words >> word;) params[word.substr(0, word.find('='))] = word.substr(word.find('=') + 1);
  // The code does not depend on the graph: two rounds' worth of it.
  params["n"] = std::to_string(2 * std::stoi(params.at("block_factor")));
  params["edges"] = params["n"];
  const kernels::Workload& apsp = *kernels::find_workload("apsp");
  const std::map<std::string, int> loads = model_global_loads(apsp.build(apsp.with_defaults(params)));
  for (const DriverPipeline& row : rows) {
    ASSERT_TRUE(loads.count(row.pipeline)) << row.pipeline;
    EXPECT_EQ(loads.at(row.pipeline), row.ldg) << row.pipeline;
  }
}

INSTANTIATE_TEST_SUITE_P(H100, DriverCode, testing::ValuesIn(driver_points()),
                         [](const testing::TestParamInfo<DriverPoint>& info) {
                           std::string name = info.param.front().point;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(DriverCodeIndex, HoldsTheSuitesAndTheProbesPoints) { EXPECT_EQ(driver_points().size(), 8u + 10u); }

}  // namespace
}  // namespace lanelab::timing
