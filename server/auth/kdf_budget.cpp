#include "server/auth/kdf_budget.h"

namespace blockfog::server {

KdfBudget::KdfBudget(std::size_t total, std::size_t per_address)
    : total_(total), per_address_(per_address) {}

KdfBudget::Ticket::Ticket(KdfBudget& owner, std::string address)
    : owner_(owner), address_(std::move(address)) {}

KdfBudget::Ticket::~Ticket() { owner_.release(address_); }

std::unique_ptr<KdfBudget::Ticket> KdfBudget::admit(const std::string& address) {
  {
    std::lock_guard lock(mutex_);
    auto& mine = by_address_[address];
    if (in_use_ >= total_ || mine >= per_address_) {
      if (mine == 0) by_address_.erase(address);
      return nullptr;
    }
    ++in_use_;
    ++mine;
  }
  return std::make_unique<Ticket>(*this, address);
}

std::size_t KdfBudget::in_use() const {
  std::lock_guard lock(mutex_);
  return in_use_;
}

void KdfBudget::release(const std::string& address) {
  std::lock_guard lock(mutex_);
  --in_use_;
  const auto it = by_address_.find(address);
  if (it != by_address_.end() && --it->second == 0) by_address_.erase(it);
}

}  // namespace blockfog::server
