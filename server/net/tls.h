#pragma once

// The TLS server context of --tls-cert and --tls-key: TLS 1.2 and later only. Part of
// net.cpp's translation unit (server/net/common.h).

#include "server/net/common.h"

namespace blockfog::server::net_internal {

inline std::unique_ptr<ssl::context> make_tls_context(const Config& config) {
  if (!config.tls()) return nullptr;
  auto ctx = std::make_unique<ssl::context>(ssl::context::tls_server);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                   ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                   ssl::context::single_dh_use);
  ctx->use_certificate_chain_file(config.tls_cert);
  ctx->use_private_key_file(config.tls_key, ssl::context::pem);
  return ctx;
}

}  // namespace blockfog::server::net_internal
