#include "server/api/static_files.h"

#include <fstream>
#include <iterator>
#include <sstream>

#include "protocol/http.h"
#include "server/api/api_common.h"

namespace blockfog::server {
namespace {

namespace fs = std::filesystem;

using api::error;

}  // namespace

std::string content_type_for(const fs::path& file) {
  const auto ext = file.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".txt" || ext == ".md") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

StaticFiles::StaticFiles(fs::path root) {
  std::error_code ec;
  root_ = fs::canonical(root, ec);
  if (ec) root_.clear();
}

std::optional<fs::path> StaticFiles::resolve(const std::string& url_path) const {
  if (root_.empty() || url_path.empty() || url_path.front() != '/') return std::nullopt;
  std::string decoded;
  if (!percent_decode(url_path, decoded)) return std::nullopt;
  // Reject what could step outside the root or confuse the file system, before touching it.
  if (decoded.find('\0') != std::string::npos || decoded.find('\\') != std::string::npos) {
    return std::nullopt;
  }
  fs::path relative;
  std::istringstream parts(decoded.substr(1));
  std::string part;
  while (std::getline(parts, part, '/')) {
    if (part.empty()) continue;
    if (part == "." || part == ".." || part.front() == '.') return std::nullopt;  // no dotfiles
    relative /= part;
  }
  fs::path file = root_ / relative;
  std::error_code ec;
  if (fs::is_directory(file, ec)) file /= "index.html";
  const fs::path real = fs::canonical(file, ec);
  if (ec || !fs::is_regular_file(real, ec)) return std::nullopt;
  // Symlinks may point anywhere: the resolved file must still be inside the root.
  const auto [root_end, unused] =
      std::mismatch(root_.begin(), root_.end(), real.begin(), real.end());
  if (root_end != root_.end()) return std::nullopt;
  return real;
}

HttpResponse StaticFiles::serve(const HttpRequest& request) const {
  if (request.method != "GET" && request.method != "HEAD") {
    return error(405, protocol::ErrorCode::MethodNotAllowed, "static files are read-only");
  }
  const auto file = resolve(target_path(request.target));
  if (!file) return error(404, protocol::ErrorCode::NotFound, "no such file");
  std::error_code ec;
  const auto size = fs::file_size(*file, ec);
  if (ec || size > kMaxFileBytes)
    return error(403, protocol::ErrorCode::Forbidden, "file too large");
  std::ifstream in(*file, std::ios::binary);
  std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  HttpResponse response{200, content_type_for(*file), std::move(body), {}};
  response.headers.emplace_back("Cache-Control", "no-cache");
  return response;
}

}  // namespace blockfog::server
