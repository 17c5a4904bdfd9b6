#pragma once

// How many confirmation e-mails (POST /api/notices/email) may go out, besides the one a minute
// per account that the store keeps: a budget per recipient mailbox, so that fresh accounts
// cannot fill a stranger's inbox, and one per client address, so that one client cannot write
// to many strangers. Kept in memory (a restart forgets them, as it forgets login delays);
// thread-safe.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "server/limits.h"

namespace blockfog::server {

class ConfirmationLimits {
 public:
  using Clock = AddressRateLimiter::Clock;
  // Per recipient mailbox: 3 at once, then one per 8 hours (at most 6 a day after the first 3).
  static constexpr double kPerRecipientBurst = 3;
  static constexpr std::chrono::hours kPerRecipientEvery{8};
  // Per client address: 5 at once, then one per 10 minutes.
  static constexpr double kPerAddressBurst = 5;
  static constexpr std::chrono::minutes kPerAddressEvery{10};

  enum class Refusal { Recipient, Address };

  ConfirmationLimits();
  // Takes one e-mail from the client address's budget and then from the recipient's, or
  // says which refused. A request its address refuses takes nothing from the recipient's
  // budget, so nobody over his own budget can use up a stranger's.
  std::optional<Refusal> take(std::string_view recipient, const std::string& client_address,
                              Clock::time_point now = Clock::now());

  // The mailbox an address reaches, as one budget: lower case, and in the part before @
  // without dots and without a "+tag" (which many providers ignore in delivery).
  static std::string mailbox_key(std::string_view email);

 private:
  AddressRateLimiter per_recipient_;
  AddressRateLimiter per_address_;
};

}  // namespace blockfog::server
