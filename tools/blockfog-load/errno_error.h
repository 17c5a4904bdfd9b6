#pragma once

// The load tool's one way to report a failed system call: a std::system_error from errno,
// naming the call (or what it was for).

#include <cerrno>
#include <string>
#include <system_error>

namespace blockfog::load {

[[noreturn]] inline void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace blockfog::load
