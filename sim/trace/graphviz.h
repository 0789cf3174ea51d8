#pragma once
// Writes a Graphviz graph to a file: .dot/.gv as source, .svg/.png/.pdf
// rendered by the `dot` program (Debian's graphviz).
#include <string>

namespace lanelab::trace {

void render_graphviz(const std::string& dot, const std::string& path);

}  // namespace lanelab::trace
