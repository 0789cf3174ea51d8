#include "sim/trace/graphviz.h"

#include <cstdio>
#include <fstream>

#include "sim/common/error.h"

namespace lanelab::trace {

void render_graphviz(const std::string& dot, const std::string& path) {
  const auto dotpos = path.rfind('.');
  const std::string format = dotpos == std::string::npos ? "" : path.substr(dotpos + 1);
  if (format == "dot" || format == "gv") {
    std::ofstream out(path);
    if (!out) throw Error("cannot write " + path);
    out << dot;
    return;
  }
  if (format != "svg" && format != "png" && format != "pdf")
    throw Error("--out " + path + ": write .svg, .png, .pdf (rendered with Graphviz dot) or .dot");
  const std::string command = "dot -T" + format + " -o '" + path + "'";
  FILE* pipe = popen(command.c_str(), "w");
  if (!pipe) throw Error("cannot run Graphviz dot (is it installed?)");
  fwrite(dot.data(), 1, dot.size(), pipe);
  if (pclose(pipe) != 0) throw Error("Graphviz dot failed writing " + path + " (is it installed?)");
}

}  // namespace lanelab::trace
