#pragma once

// The web client's files under the web root: GET and HEAD only, paths that cannot leave the
// root (no "..", no encoded slashes or NULs, symlinks resolved and checked), a content type
// by extension, and a size limit.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "server/api/http_types.h"

namespace blockfog::server {

class StaticFiles {
 public:
  static constexpr std::size_t kMaxFileBytes = 8 * 1024 * 1024;

  explicit StaticFiles(std::filesystem::path root);

  HttpResponse serve(const HttpRequest& request) const;
  // The file a URL path names, if it is a safe path to an existing regular file in the root.
  std::optional<std::filesystem::path> resolve(const std::string& url_path) const;

 private:
  std::filesystem::path root_;  // canonical, or empty when the root does not exist
};

std::string content_type_for(const std::filesystem::path& file);

}  // namespace blockfog::server
