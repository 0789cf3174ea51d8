#pragma once
// Each `lanelab SUBCOMMAND` is one function taking the arguments after the
// subcommand's name; it parses them with Boost.Program_Options (--help
// included) and returns the process exit code. Errors are thrown as
// lanelab::Error and printed once by main().
#include <string>
#include <vector>

namespace lanelab::cli {

using Args = std::vector<std::string>;

int run_command(const Args& args);        // lanelab run FILE.amber|WORKLOAD
int emit_command(const Args& args);       // lanelab emit WORKLOAD
int list_command(const Args& args);       // lanelab list
int occupancy_command(const Args& args);  // lanelab occupancy
int devices_command(const Args& args);    // lanelab devices [--vulkan]
int validate_command(const Args& args);   // lanelab validate
int tour_command(const Args& args);       // lanelab tour

}  // namespace lanelab::cli
