#pragma once
// A self-contained HTML page that steps through one subgroup of a recorded
// run with the terminal view's information: buttons and arrow keys, lanes as
// columns, masks coloured, the source with the current line marked.
#include <string>

#include "sim/trace/step_recording.h"
#include "sim/trace/step_view.h"

namespace lanelab::trace {

void write_html_page(const Recording& recording, uint32_t workgroup, uint32_t subgroup, const StepView& view,
                     const std::string& path);

}  // namespace lanelab::trace
