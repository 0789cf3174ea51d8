#pragma once
// The option parsing every subcommand shares: its options (shown by --help),
// one optional positional argument, and usage errors as lanelab::Error.
#include <boost/program_options.hpp>
#include <optional>
#include <string>

#include "sim/cli/commands.h"

namespace lanelab::cli {

// Returns nothing when --help was asked for (and printed). `positional`, if
// not empty, names the positional argument, stored under that key: a string,
// or with `many` a vector of strings.
std::optional<boost::program_options::variables_map> parse_command_line(
    const Args& args, const boost::program_options::options_description& options, const std::string& command,
    const std::string& positional = "", bool many = false);

}  // namespace lanelab::cli
