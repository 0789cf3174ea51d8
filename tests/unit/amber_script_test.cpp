#include "sim/launch/amber_script.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/common/error.h"
#include "sim/launch/compute_backend.h"
#include "sim/launch/script_runner.h"

namespace lanelab::launch {
namespace {

const char* kPath = "tests/amber/example.amber";

// The Error a call throws; fails the test when it throws none.
template <typename Call>
Error error_of(Call call) {
  try {
    call();
  } catch (const Error& error) {
    return error;
  }
  ADD_FAILURE() << "expected an Error";
  return Error("");
}

Error parse_error(const std::string& text) {
  return error_of([&] { parse_amber(text, kPath); });
}

std::vector<std::string> scalar_texts(const BufferData& buffer) {
  std::vector<std::string> texts;
  for (uint64_t i = 0; i < buffer.scalar_count(); ++i) texts.push_back(buffer.scalar_text(i));
  return texts;
}

const ExpectCommand& expect_at(const Script& script, size_t index) {
  return std::get<ExpectCommand>(script.commands.at(index));
}

// A scratch directory for FILE tests, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() : path_(std::filesystem::temp_directory_path() / ("amber_test_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  std::string write(const std::string& name, const std::string& contents) const {
    std::ofstream(path_ / name, std::ios::binary) << contents;
    return (path_ / name).string();
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

const char* kDoubler = R"(#!amber
# doubles a buffer
SHADER compute doubler GLSL
#version 450
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] *= 2; }
END

BUFFER data DATA_TYPE uint32 DATA
1 2 3
4
END
BUFFER spare DATA_TYPE uint32 SIZE 4 FILL 0

PIPELINE compute double_it
  ATTACH doubler ENTRY_POINT main SPECIALIZE 1 AS uint32 4 SPECIALIZE 2 AS float 1.5
  BIND BUFFER data AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN double_it 4 1 1
EXPECT data IDX 0 EQ 2 4 6 8
COPY data TO spare
REPEAT 2
  RUN TIMED_EXECUTION double_it 4 1 1
END
EXPECT data IDX 4 EQ 16 24 32
EXPECT spare IDX 0 EQ 2 4 6 8
)";

// --- Parsing each command ---

TEST(AmberParse, InlineShaderKeepsTextAndScriptLines) {
  Script script = parse_amber(kDoubler, kPath);
  ASSERT_EQ(script.shaders.size(), 1u);
  const ShaderDecl& shader = script.shader("doubler");
  EXPECT_EQ(shader.format, ShaderFormat::Glsl);
  EXPECT_EQ(shader.source_file, kPath);
  EXPECT_EQ(shader.first_line, 4);  // "#version 450" is line 4 of the script
  EXPECT_TRUE(shader.text.starts_with("#version 450\nlayout(set = 0"));
  EXPECT_TRUE(shader.text.ends_with("*= 2; }\n"));
  EXPECT_TRUE(shader.target_env.empty());
}

TEST(AmberParse, ShaderFormatsAndTargetEnv) {
  Script script = parse_amber(R"(SHADER compute a HLSL
[numthreads(1,1,1)] void main() {}
END
SHADER compute b SPIRV-ASM TARGET_ENV vulkan1.2
OpCapability Shader
END
)", kPath);
  EXPECT_EQ(script.shader("a").format, ShaderFormat::Hlsl);
  EXPECT_EQ(script.shader("b").format, ShaderFormat::SpirvAsm);
  EXPECT_EQ(script.shader("b").target_env, "vulkan1.2");
  EXPECT_EQ(script.shader("b").first_line, 5);
  EXPECT_EQ(script.shader("b").text, "OpCapability Shader\n");
}

TEST(AmberParse, SpirvHexReadsAmberBytesAndWholeWords) {
  Script script = parse_amber(R"(SHADER compute bytes SPIRV-HEX
03 02 23 07 00 00 01 00
END
SHADER compute words SPIRV-HEX
0x07230203 0x00010000
END
)", kPath);
  std::vector<uint32_t> expected = {0x07230203, 0x00010000};
  EXPECT_EQ(script.shader("bytes").words, expected);
  EXPECT_EQ(script.shader("words").words, expected);
  EXPECT_TRUE(script.shader("bytes").text.empty());
}

TEST(AmberParse, ShaderFilesAreRelativeToTheScript) {
  ScratchDir dir;
  dir.write("k.comp", "#version 450\nvoid main() {}\n");
  dir.write("k.spv", std::string("\x03\x02\x23\x07\x00\x00\x01\x00", 8));
  std::string script_path = dir.file("case.amber");
  Script script = parse_amber("SHADER compute k GLSL FILE k.comp\nSHADER compute s SPIRV-BIN FILE k.spv\n", script_path);
  EXPECT_EQ(script.shader("k").text, "#version 450\nvoid main() {}\n");
  EXPECT_EQ(script.shader("k").source_file, dir.file("k.comp"));
  EXPECT_EQ(script.shader("k").first_line, 1);
  EXPECT_EQ(script.shader("s").words, (std::vector<uint32_t>{0x07230203, 0x00010000}));

  Error missing = error_of([&] { parse_amber("\nSHADER compute m GLSL FILE nope.comp\n", script_path); });
  EXPECT_EQ(missing.place().line, 2);
  EXPECT_NE(missing.message().find("cannot read file"), std::string::npos);
}

TEST(AmberParse, BufferDataSpansLinesWithComments) {
  Script script = parse_amber(kDoubler, kPath);
  const BufferData& data = script.buffers.at("data");
  EXPECT_EQ(data.type.str(), "uint32");
  EXPECT_EQ(data.layout, Layout::Std430);
  EXPECT_EQ(data.element_count, 4u);
  EXPECT_EQ(scalar_texts(data), (std::vector<std::string>{"1", "2", "3", "4"}));
  EXPECT_EQ(script.buffers.at("spare").bytes, std::vector<uint8_t>(16, 0));
}

TEST(AmberParse, BufferFillAndSeries) {
  Script script = parse_amber(R"(BUFFER f DATA_TYPE vec2<int32> SIZE 2 FILL -3
BUFFER s DATA_TYPE int16 SIZE 4 SERIES_FROM 0x10 INC_BY -2
BUFFER g DATA_TYPE float SIZE 3 SERIES_FROM 0.5 INC_BY 0.25
)", kPath);
  EXPECT_EQ(scalar_texts(script.buffers.at("f")), (std::vector<std::string>{"-3", "-3", "-3", "-3"}));
  EXPECT_EQ(scalar_texts(script.buffers.at("s")), (std::vector<std::string>{"16", "14", "12", "10"}));
  EXPECT_EQ(scalar_texts(script.buffers.at("g")), (std::vector<std::string>{"0.5", "0.75", "1"}));
}

TEST(AmberParse, BufferLayoutsStd140AndStd430) {
  Script script = parse_amber(R"(BUFFER a DATA_TYPE float[] STD140 DATA
1 2 3
END
BUFFER b DATA_TYPE float[] STD430 DATA
1 2 3
END
BUFFER c DATA_TYPE vec3<float> DATA
1 2 3 4 5 6
END
BUFFER d DATA_TYPE mat2x2<float> STD140 SIZE 1 FILL 1
)", kPath);
  EXPECT_EQ(script.buffers.at("a").layout, Layout::Std140);
  EXPECT_EQ(script.buffers.at("a").bytes.size(), 48u);
  EXPECT_EQ(script.buffers.at("b").bytes.size(), 12u);
  const BufferData& c = script.buffers.at("c");
  EXPECT_EQ(c.bytes.size(), 32u);
  EXPECT_EQ(c.scalar_offset(3), 16u);
  EXPECT_EQ(c.scalar_as_double(3), 4.0);
  EXPECT_EQ(script.buffers.at("d").bytes.size(), 32u);
}

TEST(AmberParse, BufferTypesIncludingFloat16AndHex) {
  Script script = parse_amber(R"(BUFFER h DATA_TYPE float16 DATA
1.0 -2 0.1
END
BUFFER u DATA_TYPE uint8 DATA 0xff 0x0 7 END
BUFFER m DATA_TYPE mat3x2<double> SIZE 1 FILL 2.5
BUFFER v DATA_TYPE vec4<uint64> SIZE 1 FILL 0xffffffffffffffff
)", kPath);
  const BufferData& h = script.buffers.at("h");
  EXPECT_EQ(h.type.bits, 16u);
  EXPECT_EQ(h.type.kind, ScalarKind::Float);
  EXPECT_EQ(h.scalar_bits(0), 0x3c00u);
  EXPECT_EQ(h.scalar_bits(1), 0xc000u);
  EXPECT_EQ(h.scalar_bits(2), 0x2e66u);
  EXPECT_EQ(h.bytes.size(), 6u);
  EXPECT_EQ(scalar_texts(script.buffers.at("u")), (std::vector<std::string>{"255", "0", "7"}));
  EXPECT_EQ(script.buffers.at("m").type.str(), "mat3x2<double>");
  EXPECT_EQ(script.buffers.at("m").scalar_count(), 6u);
  EXPECT_EQ(script.buffers.at("v").scalar_bits(3), ~uint64_t(0));
}

TEST(AmberParse, BufferFilesBinaryAndText) {
  ScratchDir dir;
  dir.write("b.bin", std::string("\x01\x00\x00\x00\x02\x00\x00\x00", 8));
  dir.write("t.txt", "5 6 # comment\n-7\n");
  Script script = parse_amber(R"(BUFFER b DATA_TYPE uint32 SIZE 4 FILE BINARY b.bin
BUFFER t DATA_TYPE int32 FILE TEXT t.txt
)", dir.file("case.amber"));
  EXPECT_EQ(scalar_texts(script.buffers.at("b")), (std::vector<std::string>{"1", "2", "0", "0"}));
  EXPECT_EQ(scalar_texts(script.buffers.at("t")), (std::vector<std::string>{"5", "6", "-7"}));
}

TEST(AmberParse, PipelineAttachSpecializeAndBind) {
  Script script = parse_amber(R"(SHADER compute k GLSL
void main() {}
END
BUFFER in DATA_TYPE float SIZE 4 FILL 0
BUFFER params DATA_TYPE uint32 SIZE 1 FILL 3
BUFFER consts DATA_TYPE vec4<float> STD140 SIZE 1 FILL 1
PIPELINE compute p
  ATTACH k ENTRY_POINT entry SPECIALIZE 0 AS int32 -1 SPECIALIZE 7 AS float 1.0
  BIND BUFFER in AS storage DESCRIPTOR_SET 1 BINDING 2
  BIND BUFFER consts AS uniform DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER params AS push_constant
END
)", kPath);
  const PipelineDecl& p = script.pipeline("p");
  EXPECT_EQ(p.shader, "k");
  EXPECT_EQ(p.entry_point, "entry");
  EXPECT_EQ(p.line, 7);
  ASSERT_EQ(p.specializations.size(), 2u);
  EXPECT_EQ(p.specializations[0].id, 0u);
  EXPECT_EQ(p.specializations[0].bits, 0xffffffffu);
  EXPECT_EQ(p.specializations[1].id, 7u);
  EXPECT_EQ(p.specializations[1].bits, 0x3f800000u);
  ASSERT_EQ(p.bindings.size(), 3u);
  EXPECT_EQ(p.bindings[0].buffer, "in");
  EXPECT_EQ(p.bindings[0].kind, BindingKind::Storage);
  EXPECT_EQ(p.bindings[0].set, 1u);
  EXPECT_EQ(p.bindings[0].binding, 2u);
  EXPECT_EQ(p.bindings[1].kind, BindingKind::Uniform);
  EXPECT_EQ(p.bindings[2].kind, BindingKind::PushConstant);
  EXPECT_EQ(p.bindings[2].buffer, "params");
}

TEST(AmberParse, DerivePipelineCopiesAndOverridesBindings) {
  Script script = parse_amber(R"(SHADER compute k GLSL
END
BUFFER a DATA_TYPE uint32 SIZE 1 FILL 0
BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0
PIPELINE compute p
  ATTACH k
  BIND BUFFER a AS storage DESCRIPTOR_SET 0 BINDING 0
END
DERIVE_PIPELINE q FROM p
  BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 0
END
DERIVE_PIPELINE r FROM p
RUN r 1 1 1
)", kPath);
  ASSERT_EQ(script.pipelines.size(), 3u);
  EXPECT_EQ(script.pipeline("p").bindings.at(0).buffer, "a");
  EXPECT_EQ(script.pipeline("q").bindings.size(), 1u);
  EXPECT_EQ(script.pipeline("q").bindings.at(0).buffer, "b");
  EXPECT_EQ(script.pipeline("q").shader, "k");
  EXPECT_EQ(script.pipeline("r").bindings.at(0).buffer, "a");
  EXPECT_EQ(std::get<RunCommand>(script.commands.at(0)).pipeline, "r");
}

TEST(AmberParse, RunRepeatAndCopyInOrder) {
  Script script = parse_amber(kDoubler, kPath);
  ASSERT_EQ(script.commands.size(), 6u);
  const auto& run = std::get<RunCommand>(script.commands[0]);
  EXPECT_EQ(run.pipeline, "double_it");
  EXPECT_EQ(run.groups[0], 4u);
  EXPECT_EQ(run.groups[1], 1u);
  EXPECT_FALSE(run.timed);
  EXPECT_EQ(run.line, 20);
  const auto& copy = std::get<CopyCommand>(script.commands[2]);
  EXPECT_EQ(copy.from, "data");
  EXPECT_EQ(copy.to, "spare");
  const auto& repeat = std::get<RepeatCommand>(script.commands[3]);
  EXPECT_EQ(repeat.count, 2u);
  ASSERT_EQ(repeat.body.size(), 1u);
  EXPECT_TRUE(std::get<RunCommand>(repeat.body[0]).timed);
}

TEST(AmberParse, ExpectForms) {
  Script script = parse_amber(R"(BUFFER f DATA_TYPE vec4<float> SIZE 2 FILL 0
BUFFER g DATA_TYPE vec4<float> SIZE 2 FILL 0
EXPECT f IDX 16 TOLERANCE 0.1 5% 0 1e-3 EQ 1 2 3 4
EXPECT f IDX 0x4 GE -1.5
EXPECT f EQ_BUFFER g
EXPECT f RMSE_BUFFER g TOLERANCE 0.25
)", kPath);
  const ExpectCommand& values = expect_at(script, 0);
  EXPECT_EQ(values.kind, ExpectCommand::Kind::Values);
  EXPECT_EQ(values.buffer, "f");
  EXPECT_EQ(values.byte_offset, 16u);
  EXPECT_EQ(values.comparison, Comparison::Eq);
  EXPECT_EQ(values.values, (std::vector<std::string>{"1", "2", "3", "4"}));
  ASSERT_EQ(values.tolerances.size(), 4u);
  EXPECT_EQ(values.tolerances[0].value, 0.1);
  EXPECT_FALSE(values.tolerances[0].percent);
  EXPECT_EQ(values.tolerances[1].value, 5.0);
  EXPECT_TRUE(values.tolerances[1].percent);
  EXPECT_EQ(values.line, 3);
  EXPECT_EQ(expect_at(script, 1).byte_offset, 4u);
  EXPECT_EQ(expect_at(script, 1).comparison, Comparison::Ge);
  EXPECT_EQ(expect_at(script, 2).kind, ExpectCommand::Kind::EqBuffer);
  EXPECT_EQ(expect_at(script, 2).other_buffer, "g");
  EXPECT_EQ(expect_at(script, 3).kind, ExpectCommand::Kind::RmseBuffer);
  EXPECT_EQ(expect_at(script, 3).rmse_tolerance, 0.25);
}

TEST(AmberParse, DeviceRequirementsAreRecorded) {
  Script script = parse_amber(R"(#!amber
DEVICE_FEATURE shaderInt64
DEVICE_FEATURE Float16Int8Features.shaderFloat16
DEVICE_EXTENSION VK_KHR_shader_float16_int8
)", kPath);
  EXPECT_EQ(script.device_features, (std::vector<std::string>{"shaderInt64", "Float16Int8Features.shaderFloat16"}));
  EXPECT_EQ(script.device_extensions, (std::vector<std::string>{"VK_KHR_shader_float16_int8"}));
}

// --- Refusals, each placed at its line ---

TEST(AmberErrors, OutsideTheSubsetIsNotSupportedWithLine) {
  struct Case {
    const char* text;
    const char* message;
    int line;
  };
  const Case cases[] = {
      {"#!amber\n\nIMAGE img FORMAT R8G8B8A8_UNORM\n", "not supported: IMAGE at line 3", 3},
      {"SHADER vertex v PASSTHROUGH\n", "not supported: SHADER vertex at line 1", 1},
      {"SHADER compute k GLSL\nEND\nPIPELINE graphics g\n", "not supported: PIPELINE graphics at line 3", 3},
      {"SAMPLER s\n", "not supported: SAMPLER at line 1", 1},
      {"FOO bar\n", "not supported: FOO at line 1", 1},
      {"BUFFER b FORMAT R32_SFLOAT\n", "not supported: BUFFER FORMAT at line 1", 1},
      {"SHADER compute k GLSL\nEND\nPIPELINE compute p\n  ATTACH k\n  BIND SAMPLER s BINDING 0\nEND\n",
       "not supported: BIND SAMPLER at line 5", 5},
      {"SHADER compute k GLSL\nEND\nPIPELINE compute p\nATTACH k\nEND\nRUN p DRAW_RECT POS 0 0 SIZE 1 1\n",
       "not supported: RUN DRAW_RECT at line 6", 6},
      {"BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\nREPEAT 2\nCLEAR p\nEND\n", "not supported: CLEAR at line 3", 3},
  };
  for (const auto& c : cases) {
    Error error = parse_error(c.text);
    EXPECT_EQ(error.message(), c.message) << c.text;
    EXPECT_EQ(error.place().line, c.line) << c.text;
    EXPECT_EQ(error.place().file, kPath);
  }
}

TEST(AmberErrors, MalformedInputNamesTheProblem) {
  struct Case {
    const char* text;
    const char* message;
    int line;
  };
  const Case cases[] = {
      {"SHADER compute k GLSL\nEND\nBUFFER a DATA_TYPE uint32 SIZE 1 FILL 0\nPIPELINE compute p\nATTACH k\n"
       "BIND BUFFER foo AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\n",
       "unknown buffer 'foo'", 6},
      {"BUFFER out DATA_TYPE vec3<float> SIZE 3 FILL 0\n# check\nEXPECT out IDX 64 EQ 1\n",
       "EXPECT offset 64 past end of buffer 'out' (48 bytes)", 3},
      {"BUFFER out DATA_TYPE uint32 SIZE 2 FILL 0\nEXPECT out IDX 4 EQ 1 2\n",
       "EXPECT of 2 values at offset 4 runs past end of buffer 'out' (8 bytes)", 2},
      {"BUFFER out DATA_TYPE uint32 SIZE 2 FILL 0\nEXPECT out IDX 2 EQ 1\n",
       "EXPECT offset 2 is not the start of a value in buffer 'out' (uint32, 4-byte elements)", 2},
      {"BUFFER b DATA_TYPE uint8 DATA\n1 2\n300\nEND\n", "bad uint8 value '300': out of range", 1},
      {"BUFFER b DATA_TYPE vec2<float> DATA\n1 2 3\nEND\n",
       "BUFFER 'b' has 3 values, not a multiple of 2 (vec2<float>)", 1},
      {"BUFFER b DATA_TYPE uint32 DATA\n1 2\n", "DATA at line 1 has no END", 1},
      {"SHADER compute k GLSL\nvoid main() {}\n", "SHADER 'k' has no END", 1},
      {"BUFFER b DATA_TYPE uint33 SIZE 1 FILL 0\n", "unknown data type 'uint33'", 1},
      {"BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\nBUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\n",
       "buffer 'b' is already defined", 2},
      {"RUN nothing 1 1 1\n", "unknown pipeline 'nothing'", 1},
      {"BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\nEXPECT b IDX 0 LT\n", "EXPECT b has no values", 2},
      {"BUFFER b DATA_TYPE float SIZE 1 FILL 0\nEXPECT b IDX 0 TOLERANCE 1 GT 0\n", "TOLERANCE works only with EQ", 2},
      {"BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\nEXPECT c IDX 0 EQ 0\n", "unknown buffer 'c'", 2},
      {"COPY a TO b\n", "unknown buffer 'a'", 1},
      {"SHADER compute k GLSL\nEND\nPIPELINE compute p\nEND\n", "PIPELINE 'p' has no ATTACH", 3},
      {"SHADER compute k SPIRV-ASM TARGET_ENV vulkan9\n", "unknown TARGET_ENV 'vulkan9'", 1},
      {"REPEAT 3\nRUN\n", "expected pipeline name after 'RUN'", 2},
      {"BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\nEND\n", "END without a block to end", 2},
  };
  for (const auto& c : cases) {
    Error error = parse_error(c.text);
    EXPECT_EQ(error.message(), c.message) << c.text;
    EXPECT_EQ(error.place().line, c.line) << c.text;
  }
}

TEST(AmberErrors, ExpectIsCheckedAgainstTheBufferAsCopyLeftIt) {
  const char* text = R"(BUFFER small DATA_TYPE uint32 SIZE 1 FILL 0
BUFFER big DATA_TYPE uint32 SIZE 4 FILL 0
COPY big TO small
EXPECT small IDX 12 EQ 0
)";
  EXPECT_NO_THROW(parse_amber(text, kPath));
}

TEST(AmberErrors, ParseFileReportsMissingFile) {
  Error error = error_of([] { parse_amber_file("/nonexistent/x.amber"); });
  EXPECT_NE(error.message().find("cannot read file '/nonexistent/x.amber'"), std::string::npos);
}

TEST(AmberErrors, LookupsOfUnknownNamesThrow) {
  Script script = parse_amber(kDoubler, kPath);
  EXPECT_EQ(error_of([&] { script.shader("nope"); }).message(), "unknown shader 'nope'");
  EXPECT_EQ(error_of([&] { script.pipeline("nope"); }).message(), "unknown pipeline 'nope'");
}

// --- Writing back ---

void expect_same_commands(const std::vector<Command>& a, const std::vector<Command>& b);

void expect_same_command(const Command& a, const Command& b) {
  ASSERT_EQ(a.index(), b.index());
  if (const auto* run = std::get_if<RunCommand>(&a)) {
    const auto& other = std::get<RunCommand>(b);
    EXPECT_EQ(run->pipeline, other.pipeline);
    EXPECT_EQ(run->timed, other.timed);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(run->groups[i], other.groups[i]);
  } else if (const auto* copy = std::get_if<CopyCommand>(&a)) {
    EXPECT_EQ(copy->from, std::get<CopyCommand>(b).from);
    EXPECT_EQ(copy->to, std::get<CopyCommand>(b).to);
  } else if (const auto* expect = std::get_if<ExpectCommand>(&a)) {
    const auto& other = std::get<ExpectCommand>(b);
    EXPECT_EQ(expect->kind, other.kind);
    EXPECT_EQ(expect->buffer, other.buffer);
    EXPECT_EQ(expect->byte_offset, other.byte_offset);
    EXPECT_EQ(expect->comparison, other.comparison);
    EXPECT_EQ(expect->values, other.values);
    ASSERT_EQ(expect->tolerances.size(), other.tolerances.size());
    for (size_t i = 0; i < expect->tolerances.size(); ++i) {
      EXPECT_EQ(expect->tolerances[i].value, other.tolerances[i].value);
      EXPECT_EQ(expect->tolerances[i].percent, other.tolerances[i].percent);
    }
    EXPECT_EQ(expect->other_buffer, other.other_buffer);
    EXPECT_EQ(expect->rmse_tolerance, other.rmse_tolerance);
  } else {
    const auto& repeat = std::get<RepeatCommand>(a);
    EXPECT_EQ(repeat.count, std::get<RepeatCommand>(b).count);
    expect_same_commands(repeat.body, std::get<RepeatCommand>(b).body);
  }
}

void expect_same_commands(const std::vector<Command>& a, const std::vector<Command>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) expect_same_command(a[i], b[i]);
}

// Equal apart from line numbers, which depend on where to_amber puts things.
void expect_same_script(const Script& a, const Script& b) {
  EXPECT_EQ(a.path, b.path);
  EXPECT_EQ(a.device_features, b.device_features);
  EXPECT_EQ(a.device_extensions, b.device_extensions);
  ASSERT_EQ(a.shaders.size(), b.shaders.size());
  for (size_t i = 0; i < a.shaders.size(); ++i) {
    EXPECT_EQ(a.shaders[i].name, b.shaders[i].name);
    EXPECT_EQ(a.shaders[i].format, b.shaders[i].format);
    EXPECT_EQ(a.shaders[i].text, b.shaders[i].text);
    EXPECT_EQ(a.shaders[i].words, b.shaders[i].words);
    EXPECT_EQ(a.shaders[i].source_file, b.shaders[i].source_file);
    EXPECT_EQ(a.shaders[i].target_env, b.shaders[i].target_env);
  }
  ASSERT_EQ(a.buffers.size(), b.buffers.size());
  for (const auto& [name, buffer] : a.buffers) {
    const BufferData& other = b.buffers.at(name);
    EXPECT_EQ(buffer.type.str(), other.type.str()) << name;
    EXPECT_EQ(buffer.layout, other.layout) << name;
    EXPECT_EQ(buffer.element_count, other.element_count) << name;
    EXPECT_EQ(buffer.bytes, other.bytes) << name;
  }
  ASSERT_EQ(a.pipelines.size(), b.pipelines.size());
  for (size_t i = 0; i < a.pipelines.size(); ++i) {
    const PipelineDecl& p = a.pipelines[i];
    const PipelineDecl& q = b.pipelines[i];
    EXPECT_EQ(p.name, q.name);
    EXPECT_EQ(p.shader, q.shader);
    EXPECT_EQ(p.entry_point, q.entry_point);
    ASSERT_EQ(p.specializations.size(), q.specializations.size());
    for (size_t s = 0; s < p.specializations.size(); ++s) {
      EXPECT_EQ(p.specializations[s].id, q.specializations[s].id);
      EXPECT_EQ(p.specializations[s].bits, q.specializations[s].bits);
    }
    ASSERT_EQ(p.bindings.size(), q.bindings.size());
    for (size_t k = 0; k < p.bindings.size(); ++k) {
      EXPECT_EQ(p.bindings[k].buffer, q.bindings[k].buffer);
      EXPECT_EQ(p.bindings[k].kind, q.bindings[k].kind);
      EXPECT_EQ(p.bindings[k].set, q.bindings[k].set);
      EXPECT_EQ(p.bindings[k].binding, q.bindings[k].binding);
    }
  }
  expect_same_commands(a.commands, b.commands);
}

TEST(AmberWrite, RoundTripsThroughToAmber) {
  const char* text = R"(#!amber
DEVICE_FEATURE shaderFloat64
DEVICE_EXTENSION VK_KHR_16bit_storage
SHADER compute k GLSL TARGET_ENV spv1.3
#version 450
void main() {}
END
SHADER compute h SPIRV-HEX
03 02 23 07 00 00 01 00
END
BUFFER a DATA_TYPE vec3<float> DATA
1 -2.5 0.1 4 5 6
END
BUFFER b DATA_TYPE float16 STD140 SIZE 3 SERIES_FROM 0.1 INC_BY 0.2
BUFFER c DATA_TYPE int8[] STD140 SIZE 4 FILL -128
BUFFER d DATA_TYPE mat2x3<double> SIZE 2 SERIES_FROM -1 INC_BY 0.5
BUFFER e DATA_TYPE uint64 DATA 0xffffffffffffffff 0 END
PIPELINE compute p
  ATTACH k ENTRY_POINT go SPECIALIZE 3 AS float -0.5
  BIND BUFFER a AS storage DESCRIPTOR_SET 1 BINDING 3
  BIND BUFFER e AS push_constant
END
DERIVE_PIPELINE q FROM p
  BIND BUFFER b AS uniform DESCRIPTOR_SET 0 BINDING 0
END
RUN TIMED_EXECUTION p 2 3 4
REPEAT 3
  COPY a TO b
  REPEAT 2
    RUN q 1 1 1
  END
END
EXPECT c IDX 16 TOLERANCE 1 2% EQ -128 -128
EXPECT a IDX 0 NE 7
EXPECT a EQ_BUFFER b
EXPECT a RMSE_BUFFER b TOLERANCE 0.125
)";
  Script original = parse_amber(text, kPath);
  std::string written = to_amber(original);
  Script reread = parse_amber(written, kPath);
  expect_same_script(original, reread);
  EXPECT_EQ(to_amber(reread), written);
  EXPECT_NE(written.find("SIZE 4 FILL -128"), std::string::npos) << written;
  EXPECT_NE(written.find("#version 450\nvoid main() {}\nEND"), std::string::npos) << written;
}

TEST(AmberWrite, FileShadersStayFilesRelativeToTheScript) {
  ScratchDir dir;
  dir.write("k.comp", "void main() {}\n");
  std::string script_path = dir.file("case.amber");
  Script original = parse_amber("SHADER compute k GLSL FILE k.comp\n", script_path);
  std::string written = to_amber(original);
  EXPECT_NE(written.find("SHADER compute k GLSL FILE k.comp"), std::string::npos) << written;
  expect_same_script(original, parse_amber(written, script_path));
}

// --- Running ---

// Doubles every uint32 of each bound storage buffer; records what it was asked.
class DoublingBackend : public ComputeBackend {
 public:
  void require(const Script& script) override {
    ++requires_;
    for (const auto& feature : script.device_features)
      if (feature == "missingFeature") throw Error("device lacks " + feature);
  }
  void dispatch(const Script&, const PipelineDecl& pipeline, const RunCommand& run,
                std::map<std::string, BufferData>& buffers) override {
    dispatches.push_back(pipeline.name + " " + std::to_string(run.groups[0]));
    for (const auto& binding : pipeline.bindings) {
      BufferData& buffer = buffers.at(binding.buffer);
      for (uint64_t i = 0; i < buffer.scalar_count(); ++i)
        buffer.set_scalar(i, std::to_string(buffer.scalar_bits(i) * 2));
    }
  }
  int requires_ = 0;
  std::vector<std::string> dispatches;
};

TEST(ScriptRunner, RunsCommandsInOrderOnTheBackend) {
  Script script = parse_amber(kDoubler, kPath);
  DoublingBackend backend;
  std::vector<int> reported;
  ScriptResult result = run_script(script, backend, [&](const ExpectResult& r) { reported.push_back(r.line); });
  EXPECT_EQ(backend.requires_, 1);
  EXPECT_EQ(backend.dispatches, (std::vector<std::string>{"double_it 4", "double_it 4", "double_it 4"}));
  ASSERT_EQ(result.expects.size(), 3u);
  for (const auto& expect : result.expects) EXPECT_TRUE(expect.passed) << expect.message;
  EXPECT_TRUE(result.all_passed());
  EXPECT_EQ(reported, (std::vector<int>{21, 26, 27}));
  EXPECT_EQ(scalar_texts(result.buffers.at("data")), (std::vector<std::string>{"8", "16", "24", "32"}));
  // The script's own buffers keep their initial contents.
  EXPECT_EQ(scalar_texts(script.buffers.at("data")), (std::vector<std::string>{"1", "2", "3", "4"}));
}

TEST(ScriptRunner, FailedExpectGivesFirstMismatchAndBothValues) {
  std::string text = std::string(kDoubler) + "EXPECT data IDX 0 EQ 8 16 25 32\n";
  DoublingBackend backend;
  ScriptResult result = run_script(parse_amber(text, kPath), backend);
  EXPECT_FALSE(result.all_passed());
  const ExpectResult& last = result.expects.back();
  EXPECT_FALSE(last.passed);
  EXPECT_EQ(last.line, 28);
  EXPECT_EQ(last.message, "EXPECT data IDX 0 EQ failed at element 2 (byte offset 8): expected 25, got 24");
}

TEST(ScriptRunner, RequireMayRefuseTheScript) {
  Script script = parse_amber(std::string("DEVICE_FEATURE missingFeature\n") + kDoubler, kPath);
  DoublingBackend backend;
  EXPECT_EQ(error_of([&] { run_script(script, backend); }).message(), "device lacks missingFeature");
  EXPECT_TRUE(backend.dispatches.empty());
}

TEST(ScriptRunner, CopyTakesContentsAndType) {
  Script script = parse_amber(R"(BUFFER a DATA_TYPE vec2<float> DATA 1 2 3 4 END
BUFFER b DATA_TYPE uint8 SIZE 1 FILL 0
COPY a TO b
EXPECT b IDX 8 EQ 3 4
)", kPath);
  DoublingBackend backend;
  ScriptResult result = run_script(script, backend);
  EXPECT_TRUE(result.all_passed());
  EXPECT_EQ(result.buffers.at("b").name, "b");
  EXPECT_EQ(result.buffers.at("b").type.str(), "vec2<float>");
}

BufferData float_buffer(const std::string& name, const std::vector<std::string>& values, uint32_t rows = 1) {
  BufferData buffer;
  buffer.name = name;
  buffer.type.kind = ScalarKind::Float;
  buffer.type.rows = rows;
  buffer.resize(values.size() / rows);
  for (size_t i = 0; i < values.size(); ++i) buffer.set_scalar(i, values[i]);
  return buffer;
}

ExpectCommand expect_values(const std::string& buffer, std::vector<std::string> values, Comparison comparison,
                            std::vector<Tolerance> tolerances = {}) {
  ExpectCommand expect;
  expect.buffer = buffer;
  expect.values = std::move(values);
  expect.comparison = comparison;
  expect.tolerances = std::move(tolerances);
  expect.line = 9;
  return expect;
}

TEST(EvaluateExpect, FloatsCompareAtTheBufferPrecision) {
  std::map<std::string, BufferData> buffers = {{"f", float_buffer("f", {"0.1", "2"})}};
  EXPECT_TRUE(evaluate_expect(expect_values("f", {"0.1", "2"}, Comparison::Eq), buffers).passed);
  EXPECT_TRUE(evaluate_expect(expect_values("f", {"0", "1.5"}, Comparison::Gt), buffers).passed);
  EXPECT_TRUE(evaluate_expect(expect_values("f", {"0.1", "2"}, Comparison::Le), buffers).passed);
  ExpectResult lt = evaluate_expect(expect_values("f", {"1", "2"}, Comparison::Lt), buffers);
  EXPECT_FALSE(lt.passed);
  EXPECT_EQ(lt.line, 9);
  EXPECT_EQ(lt.message, "EXPECT f IDX 0 LT failed at element 1 (byte offset 4): expected LT 2, got 2");
}

TEST(EvaluateExpect, IntegersCompareExactlyIncludingSigned64Bit) {
  Script script = parse_amber(R"(BUFFER i DATA_TYPE int64 DATA -9223372036854775808 9223372036854775807 END
BUFFER u DATA_TYPE uint64 DATA 0xffffffffffffffff END
)", kPath);
  EXPECT_TRUE(evaluate_expect(expect_values("i", {"-9223372036854775808"}, Comparison::Lt), script.buffers).passed ==
              false);
  EXPECT_TRUE(evaluate_expect(expect_values("i", {"-9223372036854775807", "9223372036854775806"}, Comparison::Ne),
                              script.buffers)
                  .passed);
  EXPECT_FALSE(evaluate_expect(expect_values("i", {"-9223372036854775808", "9223372036854775806"}, Comparison::Eq),
                               script.buffers)
                   .passed);
  EXPECT_TRUE(evaluate_expect(expect_values("u", {"18446744073709551614"}, Comparison::Gt), script.buffers).passed);
}

TEST(EvaluateExpect, ToleranceAbsoluteAndPercentPerComponent) {
  std::map<std::string, BufferData> buffers = {{"v", float_buffer("v", {"1.05", "200", "3", "4"}, 2)}};
  Tolerance absolute{0.1, false};
  Tolerance percent{1.0, true};
  EXPECT_TRUE(evaluate_expect(expect_values("v", {"1", "201", "3", "4"}, Comparison::Eq, {absolute, percent}), buffers)
                  .passed);
  ExpectResult one = evaluate_expect(expect_values("v", {"1", "201"}, Comparison::Eq, {absolute}), buffers);
  EXPECT_FALSE(one.passed);
  EXPECT_EQ(one.message,
            "EXPECT v IDX 0 EQ failed at element 0, component 1 (byte offset 4): expected 201 within 0.1, got 200");
  ExpectResult pct = evaluate_expect(expect_values("v", {"1", "203"}, Comparison::Eq, {absolute, percent}), buffers);
  EXPECT_FALSE(pct.passed);
  EXPECT_NE(pct.message.find("expected 203 within 1%, got 200"), std::string::npos) << pct.message;
}

TEST(EvaluateExpect, EqBufferReportsFirstDifferingElement) {
  std::map<std::string, BufferData> buffers = {{"a", float_buffer("a", {"1", "2", "3", "4"}, 2)},
                                               {"b", float_buffer("b", {"1", "2", "3", "5"}, 2)},
                                               {"c", float_buffer("c", {"1", "2"})}};
  ExpectCommand expect;
  expect.kind = ExpectCommand::Kind::EqBuffer;
  expect.buffer = "a";
  expect.other_buffer = "a";
  EXPECT_TRUE(evaluate_expect(expect, buffers).passed);
  expect.other_buffer = "b";
  ExpectResult differ = evaluate_expect(expect, buffers);
  EXPECT_FALSE(differ.passed);
  EXPECT_EQ(differ.message, "buffer 'a' differs from 'b' at element 1, component 1 (byte offset 12): expected 3 5, got 3 4");
  expect.other_buffer = "c";
  EXPECT_EQ(evaluate_expect(expect, buffers).message, "buffer 'a' has 16 bytes but 'c' has 8");
}

TEST(EvaluateExpect, EqBufferComparesPaddingBytesToo) {
  Script script = parse_amber(R"(BUFFER a DATA_TYPE vec3<uint32> DATA 1 2 3 END
BUFFER b DATA_TYPE vec3<uint32> DATA 1 2 3 END
)", kPath);
  script.buffers.at("b").bytes[12] = 0xee;  // the vec3's padding word
  ExpectCommand expect;
  expect.kind = ExpectCommand::Kind::EqBuffer;
  expect.buffer = "a";
  expect.other_buffer = "b";
  ExpectResult result = evaluate_expect(expect, script.buffers);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.message, "buffer 'a' differs from 'b' only in padding, at byte offset 12");
}

TEST(EvaluateExpect, RmseBufferComparesRootMeanSquareError) {
  std::map<std::string, BufferData> buffers = {{"a", float_buffer("a", {"1", "2", "3", "4"})},
                                               {"b", float_buffer("b", {"1", "2", "3", "6"})}};
  ExpectCommand expect;
  expect.kind = ExpectCommand::Kind::RmseBuffer;
  expect.buffer = "a";
  expect.other_buffer = "b";
  expect.rmse_tolerance = 1.0;  // rmse = sqrt(4 / 4) = 1
  EXPECT_TRUE(evaluate_expect(expect, buffers).passed);
  expect.rmse_tolerance = 0.99;
  ExpectResult result = evaluate_expect(expect, buffers);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.message, "RMSE of buffer 'a' against 'b' is 1, above tolerance 0.99");
}

TEST(EvaluateExpect, OffsetPastTheEndIsAnError) {
  std::map<std::string, BufferData> buffers = {{"out", float_buffer("out", std::vector<std::string>(12, "0"), 1)}};
  ExpectCommand expect = expect_values("out", {"1"}, Comparison::Eq);
  expect.byte_offset = 64;
  Error error = error_of([&] { evaluate_expect(expect, buffers); });
  EXPECT_EQ(error.message(), "EXPECT offset 64 past end of buffer 'out' (48 bytes)");
  EXPECT_EQ(error.place().line, 9);
  expect.buffer = "nope";
  EXPECT_EQ(error_of([&] { evaluate_expect(expect, buffers); }).message(), "unknown buffer 'nope'");
}

}  // namespace
}  // namespace lanelab::launch
