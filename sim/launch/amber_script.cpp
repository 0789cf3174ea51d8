#include "sim/launch/amber_script.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/common/error.h"

namespace lanelab::launch {
namespace {

Place place_at(const std::string& file, int line) {
  Place place;
  place.file = file;
  place.line = line;
  return place;
}

std::string read_whole_file(const std::string& path, bool binary, const Place& place) {
  std::ifstream in(path, binary ? std::ios::binary : std::ios::in);
  if (!in) throw Error("cannot read file '" + path + "'", place);
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The words of one script line, '#' to the end of the line being a comment.
std::vector<std::string> tokenize(const std::string& line) { return split_words(line.substr(0, line.find('#'))); }

std::optional<uint64_t> parse_unsigned(const std::string& token) {
  std::string_view text = token;
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_double(const std::string& token) {
  char* end = nullptr;
  double value = std::strtod(token.c_str(), &end);
  if (token.empty() || end != token.c_str() + token.size()) return std::nullopt;
  return value;
}

std::optional<DataType> scalar_type(const std::string& name) {
  static const std::map<std::string, DataType> scalars = {
      {"int8", {ScalarKind::Int, 8}},       {"int16", {ScalarKind::Int, 16}},
      {"int32", {ScalarKind::Int, 32}},     {"int64", {ScalarKind::Int, 64}},
      {"uint8", {ScalarKind::Uint, 8}},     {"uint16", {ScalarKind::Uint, 16}},
      {"uint32", {ScalarKind::Uint, 32}},   {"uint64", {ScalarKind::Uint, 64}},
      {"float16", {ScalarKind::Float, 16}}, {"float", {ScalarKind::Float, 32}},
      {"double", {ScalarKind::Float, 64}}};
  auto found = scalars.find(name);
  if (found == scalars.end()) return std::nullopt;
  return found->second;
}

// "uint32", "vec3<float>", "mat2x4<double>[]".
std::optional<DataType> parse_data_type(std::string name) {
  bool array = name.ends_with("[]");
  if (array) name.resize(name.size() - 2);
  std::optional<DataType> type;
  if (name.starts_with("vec") && name.size() > 6 && name[4] == '<' && name.back() == '>') {
    type = scalar_type(name.substr(5, name.size() - 6));
    uint32_t width = uint32_t(name[3] - '0');
    if (!type || width < 2 || width > 4) return std::nullopt;
    type->rows = width;
  } else if (name.starts_with("mat") && name.size() > 8 && name[4] == 'x' && name[6] == '<' && name.back() == '>') {
    type = scalar_type(name.substr(7, name.size() - 8));
    uint32_t columns = uint32_t(name[3] - '0');
    uint32_t rows = uint32_t(name[5] - '0');
    if (!type || columns < 2 || columns > 4 || rows < 2 || rows > 4) return std::nullopt;
    type->columns = columns;
    type->rows = rows;
  } else {
    type = scalar_type(name);
  }
  if (type) type->array = array;
  return type;
}

const std::map<std::string, Comparison>& comparisons() {
  static const std::map<std::string, Comparison> names = {{"EQ", Comparison::Eq}, {"NE", Comparison::Ne},
                                                          {"LT", Comparison::Lt}, {"LE", Comparison::Le},
                                                          {"GT", Comparison::Gt}, {"GE", Comparison::Ge}};
  return names;
}

const std::map<std::string, ShaderFormat>& shader_formats() {
  static const std::map<std::string, ShaderFormat> names = {{"GLSL", ShaderFormat::Glsl},
                                                            {"HLSL", ShaderFormat::Hlsl},
                                                            {"SPIRV-ASM", ShaderFormat::SpirvAsm},
                                                            {"SPIRV-HEX", ShaderFormat::SpirvHex},
                                                            {"SPIRV-BIN", ShaderFormat::SpirvBin}};
  return names;
}

const std::map<std::string, BindingKind>& binding_kinds() {
  static const std::map<std::string, BindingKind> names = {{"storage", BindingKind::Storage},
                                                           {"uniform", BindingKind::Uniform},
                                                           {"push_constant", BindingKind::PushConstant}};
  return names;
}

template <typename Enum>
std::string name_of(const std::map<std::string, Enum>& names, Enum value) {
  for (const auto& [name, candidate] : names)
    if (candidate == value) return name;
  return {};
}

bool is_valid_target_env(const std::string& env) {
  static const std::set<std::string> envs = {"spv1.0", "spv1.1", "spv1.2", "spv1.3", "spv1.4", "spv1.5",
                                             "spv1.6", "vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3"};
  return envs.contains(env);
}

std::vector<uint32_t> words_from_bytes(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i)
    for (size_t b = 0; b < 4; ++b) words[i] |= uint32_t(bytes[4 * i + b]) << (8 * b);
  return words;
}

// One script line's words, consumed left to right, with errors placed at the line.
class Cursor {
 public:
  Cursor(std::vector<std::string> words, const std::string& file, int line)
      : words_(std::move(words)), file_(file), line_(line) {}

  bool done() const { return next_ == words_.size(); }
  const std::string& peek() const { return words_[next_]; }
  bool accept(const std::string& word) {
    if (done() || peek() != word) return false;
    ++next_;
    return true;
  }
  std::string take(const std::string& what) {
    if (done()) fail("expected " + what + " after '" + words_[next_ - 1] + "'");
    return words_[next_++];
  }
  void expect(const std::string& word) {
    std::string got = take(word);
    if (got != word) fail("expected " + word + ", got '" + got + "'");
  }
  uint64_t take_unsigned(const std::string& what) {
    std::string word = take(what);
    auto value = parse_unsigned(word);
    if (!value) fail("expected " + what + " (a non-negative integer), got '" + word + "'");
    return *value;
  }
  uint32_t take_uint32(const std::string& what) {
    uint64_t value = take_unsigned(what);
    if (value > UINT32_MAX) fail(what + " " + std::to_string(value) + " does not fit in 32 bits");
    return uint32_t(value);
  }
  std::vector<std::string> rest() {
    std::vector<std::string> words(words_.begin() + long(next_), words_.end());
    next_ = words_.size();
    return words;
  }
  void finish() {
    if (!done()) fail("unexpected '" + peek() + "' at end of " + words_[0]);
  }
  int line() const { return line_; }
  [[noreturn]] void fail(const std::string& message) const { throw Error(message, place_at(file_, line_)); }
  [[noreturn]] void not_supported(const std::string& what) const {
    fail("not supported: " + what + " at line " + std::to_string(line_));
  }

 private:
  std::vector<std::string> words_;
  size_t next_ = 0;
  const std::string& file_;
  int line_;
};

// What the parser knows of a buffer at a point of the script: COPY changes a
// buffer's type and size, so EXPECTs are checked against the shape at their line.
struct BufferShape {
  BufferData header;  // name, type, layout, element_count; bytes left empty
  uint64_t size_bytes() const { return header.element_count * header.element_stride(); }
};

class Parser {
 public:
  Parser(const std::string& text, const std::string& path) : path_(path) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines_.push_back(line);
    }
    script_.path = path;
  }

  Script parse() {
    while (auto cursor = next_command()) parse_top_level(*cursor);
    return std::move(script_);
  }

 private:
  // The next line that holds words; nullopt at the end of the text.
  std::optional<Cursor> next_command() {
    while (next_line_ < lines_.size()) {
      size_t index = next_line_++;
      auto words = tokenize(lines_[index]);
      if (!words.empty()) return Cursor(std::move(words), path_, int(index) + 1);
    }
    return std::nullopt;
  }

  // The next command inside a block; throws if the text ends before END.
  Cursor next_in_block(const std::string& block, int block_line) {
    auto cursor = next_command();
    if (!cursor) throw Error(block + " at line " + std::to_string(block_line) + " has no END", place_at(path_, block_line));
    return std::move(*cursor);
  }

  std::string resolve(const std::string& relative) const {
    std::filesystem::path file(relative);
    if (file.is_absolute()) return relative;
    return (std::filesystem::path(path_).parent_path() / file).string();
  }

  void parse_top_level(Cursor& cursor) {
    std::string keyword = cursor.take("command");
    if (keyword == "SHADER") return parse_shader(cursor);
    if (keyword == "BUFFER") return parse_buffer(cursor);
    if (keyword == "PIPELINE") return parse_pipeline(cursor);
    if (keyword == "DERIVE_PIPELINE") return parse_derive_pipeline(cursor);
    if (keyword == "DEVICE_FEATURE") return record_requirement(cursor, script_.device_features);
    if (keyword == "DEVICE_EXTENSION") return record_requirement(cursor, script_.device_extensions);
    script_.commands.push_back(parse_command(keyword, cursor));
  }

  // Commands that run in order, at the top level or inside REPEAT.
  Command parse_command(const std::string& keyword, Cursor& cursor) {
    if (keyword == "RUN") return parse_run(cursor);
    if (keyword == "COPY") return parse_copy(cursor);
    if (keyword == "EXPECT") return parse_expect(cursor);
    if (keyword == "REPEAT") return parse_repeat(cursor);
    if (keyword == "END") cursor.fail("END without a block to end");
    cursor.not_supported(keyword);
  }

  void record_requirement(Cursor& cursor, std::vector<std::string>& into) {
    into.push_back(cursor.take("a name"));
    cursor.finish();
  }

  // --- SHADER ---

  void parse_shader(Cursor& cursor) {
    std::string stage = cursor.take("shader type");
    if (stage != "compute") cursor.not_supported("SHADER " + stage);
    ShaderDecl shader;
    shader.name = cursor.take("shader name");
    if (has_shader(shader.name)) cursor.fail("shader '" + shader.name + "' is already defined");
    std::string format = cursor.take("shader format");
    auto found = shader_formats().find(format);
    if (found == shader_formats().end()) cursor.not_supported("shader format " + format);
    shader.format = found->second;
    if (cursor.accept("TARGET_ENV")) {
      shader.target_env = cursor.take("TARGET_ENV value");
      if (!is_valid_target_env(shader.target_env)) cursor.fail("unknown TARGET_ENV '" + shader.target_env + "'");
    }
    if (cursor.accept("FILE")) {
      read_shader_file(cursor, shader);
    } else {
      if (shader.format == ShaderFormat::SpirvBin) cursor.fail("SPIRV-BIN shader '" + shader.name + "' needs FILE path");
      cursor.finish();
      read_inline_shader(cursor, shader);
    }
    script_.shaders.push_back(std::move(shader));
  }

  bool has_shader(const std::string& name) const {
    return std::ranges::any_of(script_.shaders, [&](const ShaderDecl& s) { return s.name == name; });
  }

  void read_shader_file(Cursor& cursor, ShaderDecl& shader) {
    cursor.accept("BINARY") || cursor.accept("TEXT");  // Amber's optional file kind; the format decides
    shader.source_file = resolve(cursor.take("file path"));
    cursor.finish();
    shader.first_line = 1;
    bool binary = shader.format == ShaderFormat::SpirvBin;
    std::string contents = read_whole_file(shader.source_file, binary, place_at(path_, cursor.line()));
    if (binary) {
      if (contents.size() % 4 != 0) cursor.fail("SPIR-V file '" + shader.source_file + "' is not a whole number of words");
      shader.words = words_from_bytes(std::vector<uint8_t>(contents.begin(), contents.end()));
    } else if (shader.format == ShaderFormat::SpirvHex) {
      shader.words = parse_hex(split_words(contents), cursor);
    } else {
      shader.text = contents;
    }
  }

  // Source lines up to a line holding only END, taken verbatim ('#' is GLSL's preprocessor).
  void read_inline_shader(const Cursor& cursor, ShaderDecl& shader) {
    shader.source_file = path_;
    shader.first_line = cursor.line() + 1;
    while (true) {
      if (next_line_ >= lines_.size()) cursor.fail("SHADER '" + shader.name + "' has no END");
      const std::string& line = lines_[next_line_++];
      if (split_words(line) == std::vector<std::string>{"END"}) break;
      shader.text += line + "\n";
    }
    if (shader.format == ShaderFormat::SpirvHex) {
      shader.words = parse_hex(split_words(shader.text), cursor);
      shader.text.clear();
    }
  }

  // Amber writes SPIRV-HEX as bytes ("03 02 23 07 ..."); whole words
  // ("0x07230203 ...") are accepted too. The magic number tells them apart:
  // a word listing can never consist of two-digit tokens only.
  std::vector<uint32_t> parse_hex(const std::vector<std::string>& tokens, const Cursor& cursor) {
    auto digits = [](const std::string& t) { return t.starts_with("0x") || t.starts_with("0X") ? t.substr(2) : t; };
    bool bytes = std::ranges::all_of(tokens, [&](const std::string& t) { return digits(t).size() <= 2; });
    std::vector<uint8_t> byte_values;
    std::vector<uint32_t> words;
    for (const auto& token : tokens) {
      uint64_t value = 0;
      std::string hex = digits(token);
      auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), value, 16);
      if (hex.empty() || ec != std::errc() || end != hex.data() + hex.size() || value > UINT32_MAX)
        cursor.fail("bad SPIRV-HEX token '" + token + "'");
      if (bytes) byte_values.push_back(uint8_t(value));
      else words.push_back(uint32_t(value));
    }
    if (!bytes) return words;
    if (byte_values.size() % 4 != 0) cursor.fail("SPIRV-HEX has " + std::to_string(byte_values.size()) + " bytes, not a whole number of words");
    return words_from_bytes(byte_values);
  }

  // --- BUFFER ---

  void parse_buffer(Cursor& cursor) {
    BufferData buffer;
    buffer.name = cursor.take("buffer name");
    if (script_.buffers.contains(buffer.name)) cursor.fail("buffer '" + buffer.name + "' is already defined");
    std::string how = cursor.take("DATA_TYPE");
    if (how != "DATA_TYPE") cursor.not_supported("BUFFER " + how);
    std::string type_name = cursor.take("data type");
    auto type = parse_data_type(type_name);
    if (!type) cursor.fail("unknown data type '" + type_name + "'");
    buffer.type = *type;
    if (cursor.accept("STD140")) buffer.layout = Layout::Std140;
    else cursor.accept("STD430");
    std::optional<uint64_t> size;
    if (cursor.accept("SIZE")) size = cursor.take_unsigned("SIZE");
    fill_buffer(cursor, buffer, size);
    shapes_[buffer.name] = BufferShape{header_of(buffer)};
    script_.buffers.emplace(buffer.name, std::move(buffer));
  }

  static BufferData header_of(const BufferData& buffer) {
    BufferData header = buffer;
    header.bytes.clear();
    return header;
  }

  void fill_buffer(Cursor& cursor, BufferData& buffer, std::optional<uint64_t> size) {
    std::string initializer = cursor.take("FILL, SERIES_FROM, DATA or FILE");
    if (initializer == "DATA") {
      if (size) cursor.fail("BUFFER '" + buffer.name + "' gives both SIZE and DATA");
      return set_values(cursor, buffer, read_data_block(cursor), std::nullopt);
    }
    if (initializer == "FILE") return load_buffer_file(cursor, buffer, size);
    if (!size) cursor.fail("BUFFER '" + buffer.name + "' needs SIZE before " + initializer);
    buffer.resize(*size);
    if (initializer == "FILL") {
      std::string value = cursor.take("FILL value");
      cursor.finish();
      for (uint64_t i = 0; i < buffer.scalar_count(); ++i) set_scalar(cursor, buffer, i, value);
    } else if (initializer == "SERIES_FROM") {
      fill_series(cursor, buffer);
    } else {
      cursor.fail("expected FILL, SERIES_FROM, DATA or FILE, got '" + initializer + "'");
    }
  }

  void set_scalar(const Cursor& cursor, BufferData& buffer, uint64_t i, const std::string& literal) {
    try {
      buffer.set_scalar(i, literal);
    } catch (const Error& error) {
      cursor.fail(error.message());
    }
  }

  // Values start, start+step, ... computed exactly: integers in 64-bit
  // integers, floats in double, then each written like a literal.
  void fill_series(Cursor& cursor, BufferData& buffer) {
    std::string start = cursor.take("SERIES_FROM start");
    cursor.expect("INC_BY");
    std::string step = cursor.take("INC_BY step");
    cursor.finish();
    if (buffer.type.kind == ScalarKind::Float) return fill_float_series(cursor, buffer, start, step);
    fill_integer_series(cursor, buffer, start, step);
  }

  void fill_float_series(const Cursor& cursor, BufferData& buffer, const std::string& start, const std::string& step) {
    auto first = parse_double(start), increment = parse_double(step);
    if (!first || !increment) cursor.fail("bad SERIES_FROM " + start + " INC_BY " + step);
    for (uint64_t i = 0; i < buffer.scalar_count(); ++i)
      set_scalar(cursor, buffer, i, double_text(*first + double(i) * *increment));
  }

  // Two's complement arithmetic in 64 bits; set_scalar checks each value's range.
  void fill_integer_series(const Cursor& cursor, BufferData& buffer, const std::string& start,
                           const std::string& step) {
    BufferData probe = scalar_probe(buffer, 2);
    set_scalar(cursor, probe, 0, start);
    set_scalar(cursor, probe, 1, step);
    bool is_signed = buffer.type.kind == ScalarKind::Int;
    auto as_int = [&](uint64_t index) {
      uint64_t bits = probe.scalar_bits(index);
      unsigned shift = 64 - probe.type.bits;
      return is_signed ? uint64_t(int64_t(bits << shift) >> shift) : bits;
    };
    for (uint64_t i = 0; i < buffer.scalar_count(); ++i) {
      uint64_t value = as_int(0) + i * as_int(1);
      set_scalar(cursor, buffer, i, is_signed ? std::to_string(int64_t(value)) : std::to_string(value));
    }
  }

  static std::string double_text(double value) {
    char text[64];
    auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
  }

  // Words up to END, which may follow DATA on the same line or on later lines
  // (Amber reads a stream of tokens; comments are allowed).
  std::vector<std::string> read_data_block(Cursor& start) {
    std::vector<std::string> values;
    if (take_data_until_end(start, values)) return values;
    while (true) {
      Cursor line = next_in_block("DATA", start.line());
      if (take_data_until_end(line, values)) return values;
    }
  }

  // Appends the line's values; true when the line ended the block.
  static bool take_data_until_end(Cursor& line, std::vector<std::string>& values) {
    while (!line.done()) {
      if (line.accept("END")) {
        line.finish();
        return true;
      }
      values.push_back(line.take("value"));
    }
    return false;
  }

  void set_values(const Cursor& cursor, BufferData& buffer, const std::vector<std::string>& values,
                  std::optional<uint64_t> size) {
    uint64_t per_element = buffer.scalars_per_element();
    if (values.size() % per_element != 0)
      cursor.fail("BUFFER '" + buffer.name + "' has " + std::to_string(values.size()) + " values, not a multiple of " +
                  std::to_string(per_element) + " (" + buffer.type.str() + ")");
    uint64_t elements = values.size() / per_element;
    if (size && elements > *size)
      cursor.fail("BUFFER '" + buffer.name + "' has " + std::to_string(elements) + " elements, more than SIZE " +
                  std::to_string(*size));
    buffer.resize(size.value_or(elements));
    for (uint64_t i = 0; i < values.size(); ++i) set_scalar(cursor, buffer, i, values[i]);
  }

  void load_buffer_file(Cursor& cursor, BufferData& buffer, std::optional<uint64_t> size) {
    std::string kind = cursor.take("BINARY or TEXT");
    if (kind != "BINARY" && kind != "TEXT") cursor.not_supported("BUFFER FILE " + kind);
    std::string file = resolve(cursor.take("file path"));
    cursor.finish();
    std::string contents = read_whole_file(file, kind == "BINARY", place_at(path_, cursor.line()));
    if (kind == "TEXT") return set_values(cursor, buffer, tokenize_text_file(contents), size);
    buffer.resize(0);
    uint64_t stride = buffer.element_stride();
    uint64_t elements = size.value_or((contents.size() + stride - 1) / stride);
    if (contents.size() > elements * stride)
      cursor.fail("file '" + file + "' has " + std::to_string(contents.size()) + " bytes, more than SIZE " +
                  std::to_string(elements) + " elements of " + buffer.type.str() + " (" +
                  std::to_string(elements * stride) + " bytes)");
    buffer.resize(elements);
    std::copy(contents.begin(), contents.end(), buffer.bytes.begin());
  }

  static std::vector<std::string> tokenize_text_file(const std::string& contents) {
    std::vector<std::string> values;
    std::istringstream in(contents);
    for (std::string line; std::getline(in, line);) {
      auto words = tokenize(line);
      values.insert(values.end(), words.begin(), words.end());
    }
    return values;
  }

  // --- PIPELINE ---

  void parse_pipeline(Cursor& cursor) {
    std::string kind = cursor.take("pipeline type");
    if (kind != "compute") cursor.not_supported("PIPELINE " + kind);
    PipelineDecl pipeline;
    pipeline.name = cursor.take("pipeline name");
    pipeline.line = cursor.line();
    cursor.finish();
    check_new_pipeline(cursor, pipeline.name);
    parse_pipeline_body(pipeline);
    if (pipeline.shader.empty()) cursor.fail("PIPELINE '" + pipeline.name + "' has no ATTACH");
    script_.pipelines.push_back(std::move(pipeline));
  }

  // Amber's DERIVE_PIPELINE takes a body ending in END; a bare one-line form copies the parent.
  void parse_derive_pipeline(Cursor& cursor) {
    PipelineDecl pipeline;
    pipeline.name = cursor.take("pipeline name");
    cursor.expect("FROM");
    std::string parent = cursor.take("parent pipeline");
    cursor.finish();
    check_new_pipeline(cursor, pipeline.name);
    auto found = find_pipeline(parent);
    if (!found) cursor.fail("unknown pipeline '" + parent + "'");
    std::string name = pipeline.name;
    pipeline = *found;
    pipeline.name = name;
    pipeline.line = cursor.line();
    if (next_starts_pipeline_body()) parse_pipeline_body(pipeline);
    script_.pipelines.push_back(std::move(pipeline));
  }

  bool next_starts_pipeline_body() const {
    for (size_t index = next_line_; index < lines_.size(); ++index) {
      auto words = tokenize(lines_[index]);
      if (!words.empty()) return words[0] == "ATTACH" || words[0] == "BIND" || words[0] == "END";
    }
    return false;
  }

  void check_new_pipeline(const Cursor& cursor, const std::string& name) const {
    if (find_pipeline(name)) cursor.fail("pipeline '" + name + "' is already defined");
  }

  const PipelineDecl* find_pipeline(const std::string& name) const {
    auto found = std::ranges::find(script_.pipelines, name, &PipelineDecl::name);
    return found == script_.pipelines.end() ? nullptr : &*found;
  }

  void parse_pipeline_body(PipelineDecl& pipeline) {
    while (true) {
      Cursor line = next_in_block("PIPELINE '" + pipeline.name + "'", pipeline.line);
      std::string keyword = line.take("pipeline command");
      if (keyword == "END") return line.finish();
      if (keyword == "ATTACH") parse_attach(line, pipeline);
      else if (keyword == "BIND") parse_bind(line, pipeline);
      else line.not_supported(keyword);
    }
  }

  void parse_attach(Cursor& cursor, PipelineDecl& pipeline) {
    std::string shader = cursor.take("shader name");
    if (!has_shader(shader)) cursor.fail("unknown shader '" + shader + "'");
    pipeline.shader = shader;
    pipeline.entry_point = "main";
    pipeline.specializations.clear();
    while (!cursor.done()) {
      std::string option = cursor.take("ATTACH option");
      if (option == "ENTRY_POINT") {
        pipeline.entry_point = cursor.take("entry point name");
      } else if (option == "SPECIALIZE") {
        pipeline.specializations.push_back(parse_specialization(cursor));
      } else if (option == "TYPE") {
        std::string stage = cursor.take("shader type");
        if (stage != "compute") cursor.not_supported("ATTACH TYPE " + stage);
      } else {
        cursor.not_supported("ATTACH " + option);
      }
    }
  }

  Specialization parse_specialization(Cursor& cursor) {
    Specialization specialization;
    specialization.id = cursor.take_uint32("SPECIALIZE id");
    cursor.expect("AS");
    std::string type_name = cursor.take("uint32, int32 or float");
    if (type_name != "uint32" && type_name != "int32" && type_name != "float")
      cursor.fail("SPECIALIZE type must be uint32, int32 or float, got '" + type_name + "'");
    BufferData value;
    value.name = "SPECIALIZE";
    value.type = *scalar_type(type_name);
    value.resize(1);
    set_scalar(cursor, value, 0, cursor.take("SPECIALIZE value"));
    specialization.bits = uint32_t(value.scalar_bits(0));
    return specialization;
  }

  void parse_bind(Cursor& cursor, PipelineDecl& pipeline) {
    std::string what = cursor.take("BUFFER");
    if (what != "BUFFER") cursor.not_supported("BIND " + what);
    BufferBinding binding;
    binding.buffer = cursor.take("buffer name");
    if (!script_.buffers.contains(binding.buffer)) cursor.fail("unknown buffer '" + binding.buffer + "'");
    cursor.expect("AS");
    std::string kind = cursor.take("storage, uniform or push_constant");
    auto found = binding_kinds().find(kind);
    if (found == binding_kinds().end()) cursor.not_supported("BIND BUFFER AS " + kind);
    binding.kind = found->second;
    if (binding.kind != BindingKind::PushConstant) {
      if (cursor.accept("DESCRIPTOR_SET")) binding.set = cursor.take_uint32("DESCRIPTOR_SET");
      cursor.expect("BINDING");
      binding.binding = cursor.take_uint32("BINDING");
    }
    cursor.finish();
    add_binding(pipeline, binding);
  }

  // A later BIND of the same slot replaces the earlier one (DERIVE_PIPELINE relies on it).
  static void add_binding(PipelineDecl& pipeline, const BufferBinding& binding) {
    auto same_slot = [&](const BufferBinding& b) {
      bool both_push = b.kind == BindingKind::PushConstant && binding.kind == BindingKind::PushConstant;
      bool both_descriptor = b.kind != BindingKind::PushConstant && binding.kind != BindingKind::PushConstant;
      return both_push || (both_descriptor && b.set == binding.set && b.binding == binding.binding);
    };
    auto found = std::ranges::find_if(pipeline.bindings, same_slot);
    if (found != pipeline.bindings.end()) *found = binding;
    else pipeline.bindings.push_back(binding);
  }

  // --- Commands ---

  RunCommand parse_run(Cursor& cursor) {
    RunCommand run;
    run.line = cursor.line();
    run.timed = cursor.accept("TIMED_EXECUTION");
    run.pipeline = cursor.take("pipeline name");
    if (!find_pipeline(run.pipeline)) cursor.fail("unknown pipeline '" + run.pipeline + "'");
    if (!cursor.done() && !parse_unsigned(cursor.peek())) cursor.not_supported("RUN " + cursor.peek());
    for (uint32_t& groups : run.groups) groups = cursor.take_uint32("workgroup count");
    cursor.finish();
    return run;
  }

  CopyCommand parse_copy(Cursor& cursor) {
    CopyCommand copy;
    copy.line = cursor.line();
    copy.from = cursor.take("source buffer");
    cursor.expect("TO");
    copy.to = cursor.take("destination buffer");
    cursor.finish();
    const BufferShape& from = shape(cursor, copy.from);
    BufferShape& to = shape(cursor, copy.to);
    std::string name = to.header.name;
    to = from;
    to.header.name = name;
    return copy;
  }

  BufferShape& shape(const Cursor& cursor, const std::string& name) {
    auto found = shapes_.find(name);
    if (found == shapes_.end()) cursor.fail("unknown buffer '" + name + "'");
    return found->second;
  }

  RepeatCommand parse_repeat(Cursor& cursor) {
    RepeatCommand repeat;
    repeat.line = cursor.line();
    repeat.count = cursor.take_uint32("REPEAT count");
    cursor.finish();
    while (true) {
      Cursor line = next_in_block("REPEAT", repeat.line);
      std::string keyword = line.take("command");
      if (keyword == "END") {
        line.finish();
        return repeat;
      }
      repeat.body.push_back(parse_command(keyword, line));
    }
  }

  ExpectCommand parse_expect(Cursor& cursor) {
    ExpectCommand expect;
    expect.line = cursor.line();
    expect.buffer = cursor.take("buffer name");
    const BufferShape& buffer = shape(cursor, expect.buffer);
    std::string kind = cursor.take("IDX, EQ_BUFFER or RMSE_BUFFER");
    if (kind == "IDX") parse_expect_values(cursor, buffer, expect);
    else if (kind == "EQ_BUFFER" || kind == "RMSE_BUFFER") parse_expect_buffer(cursor, kind, expect);
    else cursor.not_supported("EXPECT " + kind);
    cursor.finish();
    return expect;
  }

  void parse_expect_buffer(Cursor& cursor, const std::string& kind, ExpectCommand& expect) {
    expect.kind = kind == "EQ_BUFFER" ? ExpectCommand::Kind::EqBuffer : ExpectCommand::Kind::RmseBuffer;
    expect.other_buffer = cursor.take("buffer name");
    shape(cursor, expect.other_buffer);
    if (expect.kind == ExpectCommand::Kind::EqBuffer) return;
    cursor.expect("TOLERANCE");
    std::string word = cursor.take("RMSE tolerance");
    auto tolerance = parse_double(word);
    if (!tolerance || *tolerance < 0) cursor.fail("bad RMSE tolerance '" + word + "'");
    expect.rmse_tolerance = *tolerance;
  }

  void parse_expect_values(Cursor& cursor, const BufferShape& buffer, ExpectCommand& expect) {
    expect.byte_offset = cursor.take_unsigned("IDX byte offset");
    if (!cursor.done() && !comparisons().contains(cursor.peek()) && cursor.peek() != "TOLERANCE")
      cursor.not_supported("EXPECT " + cursor.peek());  // image probes: IDX x y SIZE w h ...
    if (cursor.accept("TOLERANCE")) expect.tolerances = parse_tolerances(cursor);
    std::string comparison = cursor.take("comparison");
    auto found = comparisons().find(comparison);
    if (found == comparisons().end()) cursor.not_supported("EXPECT comparison " + comparison);
    expect.comparison = found->second;
    if (!expect.tolerances.empty() && expect.comparison != Comparison::Eq) cursor.fail("TOLERANCE works only with EQ");
    expect.values = cursor.rest();
    if (expect.values.empty()) cursor.fail("EXPECT " + expect.buffer + " has no values");
    check_expect_values(cursor, buffer, expect);
  }

  std::vector<Tolerance> parse_tolerances(Cursor& cursor) {
    std::vector<Tolerance> tolerances;
    while (!cursor.done() && !comparisons().contains(cursor.peek())) {
      std::string word = cursor.take("tolerance");
      Tolerance tolerance;
      tolerance.percent = word.ends_with("%");
      auto value = parse_double(tolerance.percent ? word.substr(0, word.size() - 1) : word);
      if (!value || *value < 0) cursor.fail("bad TOLERANCE '" + word + "'");
      tolerance.value = *value;
      tolerances.push_back(tolerance);
    }
    if (tolerances.empty()) cursor.fail("TOLERANCE needs at least one value");
    if (tolerances.size() > 4) cursor.fail("TOLERANCE takes at most 4 values (one per component)");
    return tolerances;
  }

  // The offset must name a value inside the buffer and every literal must be a
  // valid value of the buffer's type, as the buffer stands at this line.
  void check_expect_values(const Cursor& cursor, const BufferShape& buffer, const ExpectCommand& expect) {
    const BufferData& header = buffer.header;
    if (expect.byte_offset >= buffer.size_bytes())
      cursor.fail("EXPECT offset " + std::to_string(expect.byte_offset) + " past end of buffer '" + header.name +
                  "' (" + std::to_string(buffer.size_bytes()) + " bytes)");
    uint64_t first = first_scalar_at(header, expect.byte_offset);
    if (first == header.scalar_count())
      cursor.fail("EXPECT offset " + std::to_string(expect.byte_offset) + " is not the start of a value in buffer '" +
                  header.name + "' (" + header.type.str() + ", " + std::to_string(header.element_stride()) +
                  "-byte elements)");
    if (first + expect.values.size() > header.scalar_count())
      cursor.fail("EXPECT of " + std::to_string(expect.values.size()) + " values at offset " +
                  std::to_string(expect.byte_offset) + " runs past end of buffer '" + header.name + "' (" +
                  std::to_string(buffer.size_bytes()) + " bytes)");
    BufferData probe = scalar_probe(header, 1);
    for (const auto& value : expect.values) set_scalar(cursor, probe, 0, value);
  }

  // `count` scalars of the buffer's component type, to check or convert literals with.
  static BufferData scalar_probe(const BufferData& buffer, uint64_t count) {
    BufferData probe;
    probe.name = buffer.name;
    probe.type.kind = buffer.type.kind;
    probe.type.bits = buffer.type.bits;
    probe.resize(count);
    return probe;
  }

  static uint64_t first_scalar_at(const BufferData& buffer, uint64_t byte_offset) {
    uint64_t element = byte_offset / buffer.element_stride();
    uint64_t first = element * buffer.scalars_per_element();
    for (uint64_t i = first; i < first + buffer.scalars_per_element(); ++i)
      if (buffer.scalar_offset(i) == byte_offset) return i;
    return buffer.scalar_count();
  }

  std::string path_;
  std::vector<std::string> lines_;
  size_t next_line_ = 0;
  Script script_;
  std::map<std::string, BufferShape> shapes_;
};

// --- Writing ---

std::string shader_format_name(ShaderFormat format) { return name_of(shader_formats(), format); }

std::string hex_bytes(const std::vector<uint32_t>& words) {
  std::ostringstream out;
  char text[4];
  for (size_t i = 0; i < words.size(); ++i) {
    for (int b = 0; b < 4; ++b) {
      std::snprintf(text, sizeof text, "%02x", (words[i] >> (8 * b)) & 0xff);
      out << text << (b == 3 && i % 4 == 3 ? "\n" : " ");
    }
  }
  std::string hex = out.str();
  if (!hex.empty() && hex.back() == ' ') hex.back() = '\n';
  return hex;
}

// The parser stored FILE paths joined to the script's folder; undo that so the
// text reads back to the same path.
std::string relative_to_script(const std::string& file, const std::string& script_path) {
  std::filesystem::path base = std::filesystem::path(script_path).parent_path();
  std::filesystem::path path(file);
  if (base.empty() || path.is_absolute() != base.is_absolute()) return file;
  std::string relative = path.lexically_relative(base).string();
  return relative.empty() ? file : relative;
}

void write_shader(std::ostream& out, const ShaderDecl& shader, const std::string& script_path) {
  bool inline_source = shader.source_file.empty() || shader.source_file == script_path;
  // SPIR-V binary has no inline form; written inline it becomes SPIRV-HEX.
  ShaderFormat format = inline_source && shader.format == ShaderFormat::SpirvBin ? ShaderFormat::SpirvHex : shader.format;
  out << "SHADER compute " << shader.name << " " << shader_format_name(format);
  if (!shader.target_env.empty()) out << " TARGET_ENV " << shader.target_env;
  if (!inline_source) {
    out << " FILE " << relative_to_script(shader.source_file, script_path) << "\n\n";
    return;
  }
  out << "\n";
  std::string text = format == ShaderFormat::SpirvHex ? hex_bytes(shader.words) : shader.text;
  out << text << (text.empty() || text.back() == '\n' ? "" : "\n") << "END\n\n";
}

void write_buffer(std::ostream& out, const BufferData& buffer) {
  out << "BUFFER " << buffer.name << " DATA_TYPE " << buffer.type.str();
  if (buffer.layout == Layout::Std140) out << " STD140";
  std::vector<std::string> values;
  for (uint64_t i = 0; i < buffer.scalar_count(); ++i) values.push_back(buffer.scalar_text(i));
  bool all_equal = std::ranges::adjacent_find(values, std::not_equal_to<>()) == values.end();
  if (values.empty() || all_equal) {
    out << " SIZE " << buffer.element_count << " FILL " << (values.empty() ? "0" : values[0]) << "\n\n";
    return;
  }
  out << " DATA\n";
  // One element per line for vectors and matrices, 16 scalars a line otherwise.
  uint64_t per_line = buffer.scalars_per_element() > 1 ? buffer.scalars_per_element() : 16;
  for (uint64_t i = 0; i < values.size(); ++i) {
    bool line_ends = (i + 1) % per_line == 0 || i + 1 == values.size();
    out << values[i] << (line_ends ? "\n" : " ");
  }
  out << "END\n\n";
}

void write_pipeline(std::ostream& out, const PipelineDecl& pipeline) {
  out << "PIPELINE compute " << pipeline.name << "\n  ATTACH " << pipeline.shader;
  if (pipeline.entry_point != "main") out << " ENTRY_POINT " << pipeline.entry_point;
  for (const auto& s : pipeline.specializations) out << " SPECIALIZE " << s.id << " AS uint32 " << s.bits;
  out << "\n";
  for (const auto& binding : pipeline.bindings) {
    out << "  BIND BUFFER " << binding.buffer << " AS " << name_of(binding_kinds(), binding.kind);
    if (binding.kind != BindingKind::PushConstant)
      out << " DESCRIPTOR_SET " << binding.set << " BINDING " << binding.binding;
    out << "\n";
  }
  out << "END\n\n";
}

std::string tolerance_text(const Tolerance& tolerance) {
  char text[64];
  auto result = std::to_chars(text, text + sizeof text, tolerance.value);
  return std::string(text, result.ptr) + (tolerance.percent ? "%" : "");
}

void write_command(std::ostream& out, const Command& command, const std::string& indent);

void write_expect(std::ostream& out, const ExpectCommand& expect) {
  out << "EXPECT " << expect.buffer;
  if (expect.kind == ExpectCommand::Kind::EqBuffer) {
    out << " EQ_BUFFER " << expect.other_buffer << "\n";
    return;
  }
  if (expect.kind == ExpectCommand::Kind::RmseBuffer) {
    out << " RMSE_BUFFER " << expect.other_buffer << " TOLERANCE " << tolerance_text({expect.rmse_tolerance, false})
        << "\n";
    return;
  }
  out << " IDX " << expect.byte_offset;
  if (!expect.tolerances.empty()) {
    out << " TOLERANCE";
    for (const auto& tolerance : expect.tolerances) out << " " << tolerance_text(tolerance);
  }
  out << " " << name_of(comparisons(), expect.comparison);
  for (const auto& value : expect.values) out << " " << value;
  out << "\n";
}

void write_command(std::ostream& out, const Command& command, const std::string& indent) {
  out << indent;
  if (const auto* run = std::get_if<RunCommand>(&command)) {
    out << "RUN " << (run->timed ? "TIMED_EXECUTION " : "") << run->pipeline << " " << run->groups[0] << " "
        << run->groups[1] << " " << run->groups[2] << "\n";
  } else if (const auto* copy = std::get_if<CopyCommand>(&command)) {
    out << "COPY " << copy->from << " TO " << copy->to << "\n";
  } else if (const auto* expect = std::get_if<ExpectCommand>(&command)) {
    write_expect(out, *expect);
  } else if (const auto* repeat = std::get_if<RepeatCommand>(&command)) {
    out << "REPEAT " << repeat->count << "\n";
    for (const auto& inner : repeat->body) write_command(out, inner, indent + "  ");
    out << indent << "END\n";
  }
}

}  // namespace

const ShaderDecl& Script::shader(const std::string& name) const {
  auto found = std::ranges::find(shaders, name, &ShaderDecl::name);
  if (found == shaders.end()) throw Error("unknown shader '" + name + "'", place_at(path, 0));
  return *found;
}

const PipelineDecl& Script::pipeline(const std::string& name) const {
  auto found = std::ranges::find(pipelines, name, &PipelineDecl::name);
  if (found == pipelines.end()) throw Error("unknown pipeline '" + name + "'", place_at(path, 0));
  return *found;
}

Script parse_amber(const std::string& text, const std::string& path) { return Parser(text, path).parse(); }

Script parse_amber_file(const std::string& path) {
  return parse_amber(read_whole_file(path, false, place_at(path, 0)), path);
}

std::string to_amber(const Script& script) {
  std::ostringstream out;
  out << "#!amber\n\n";
  for (const auto& feature : script.device_features) out << "DEVICE_FEATURE " << feature << "\n";
  for (const auto& extension : script.device_extensions) out << "DEVICE_EXTENSION " << extension << "\n";
  if (!script.device_features.empty() || !script.device_extensions.empty()) out << "\n";
  for (const auto& shader : script.shaders) write_shader(out, shader, script.path);
  for (const auto& [name, buffer] : script.buffers) write_buffer(out, buffer);
  for (const auto& pipeline : script.pipelines) write_pipeline(out, pipeline);
  for (const auto& command : script.commands) write_command(out, command, "");
  return out.str();
}

}  // namespace lanelab::launch
