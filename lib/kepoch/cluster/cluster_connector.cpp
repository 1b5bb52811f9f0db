#include "kepoch/cluster/cluster_connector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "kepoch/cluster/cluster_error.hpp"

namespace kepoch::cluster {
namespace {

using std::chrono::milliseconds;

// The attempt threads of one race and their results. The destructor gives up the attempts
// still running and joins every thread, so nothing outlives race().
struct Race {
  struct Slot {
    std::optional<ReadyBroker> ready;
    std::exception_ptr error;
    bool authentication = false;
    bool done = false;
    Clock::time_point started;
  };

  std::vector<BrokerAttempt>& attempts;
  Deadline deadline;
  std::vector<Slot> slots;
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::thread> threads;

  Race(std::vector<BrokerAttempt>& a, Deadline d) : attempts(a), deadline(d), slots(a.size()) {}
  Race(const Race&) = delete;
  Race& operator=(const Race&) = delete;

  ~Race() {
    {
      std::lock_guard lock(mutex);
      for (std::size_t i = 0; i < threads.size(); ++i)
        if (!slots[i].done && attempts[i].cancel) attempts[i].cancel->cancel();
    }
    for (auto& t : threads)
      t.join();
  }

  void start() {
    const std::size_t i = threads.size();
    slots[i].started = Clock::now();
    threads.emplace_back([this, i] {
      std::optional<ReadyBroker> ready;
      std::exception_ptr error;
      bool authentication = false;
      try {
        ready.emplace(attempts[i].run(deadline));
      } catch (const AuthenticationError&) {
        error = std::current_exception();
        authentication = true;
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard lock(mutex);
      slots[i].ready = std::move(ready);
      slots[i].error = error;
      slots[i].authentication = authentication;
      slots[i].done = true;
      changed.notify_all();
    });
  }
};

std::string error_text(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

}  // namespace

ClusterConnector::ClusterConnector(ConnectionSettings settings) : settings_(std::move(settings)) {
  if (settings_.uses_tls()) tls_ = std::make_shared<const TlsContext>(settings_.tls);
}

BrokerChannel ClusterConnector::open(const BrokerAddress& address) const {
  return BrokerChannel(settings_, address, tls_);
}

BrokerAttempt ClusterConnector::attempt_open(const BrokerAddress& address) const {
  auto cancel = std::make_shared<CancelSignal>();
  return {
      address.to_string(), cancel, [this, address, cancel](Deadline deadline) {
        return ReadyBroker{BrokerChannel(settings_, address, tls_, deadline, cancel), std::nullopt};
      }};
}

milliseconds ClusterConnector::attempt_delay(milliseconds timeout, std::size_t attempts) {
  constexpr milliseconds kAttemptDelay{500};
  if (attempts == 0) return kAttemptDelay;
  return std::min(kAttemptDelay, timeout / static_cast<milliseconds::rep>(attempts));
}

RaceOutcome ClusterConnector::race(std::vector<BrokerAttempt> attempts, Deadline deadline,
                                   std::string_view what) const {
  if (attempts.empty()) throw std::logic_error("race: no brokers");
  const auto delay = attempt_delay(settings_.timeout, attempts.size());
  const auto n = attempts.size();
  Race race(attempts, deadline);
  std::optional<std::size_t> winner;
  std::optional<std::size_t> refused;  // an AuthenticationError
  {
    std::unique_lock lock(race.mutex);
    race.start();
    auto next_start = Clock::now() + delay;
    while (true) {
      bool all_done = true;
      for (std::size_t i = 0; i < race.threads.size(); ++i) {
        const auto& slot = race.slots[i];
        if (!slot.done) {
          all_done = false;
        } else if (slot.ready && !winner) {
          winner = i;
        } else if (slot.authentication && !refused) {
          refused = i;
        }
      }
      if (winner || refused) break;
      const auto now = Clock::now();
      if (race.threads.size() < n && now < deadline && (all_done || now >= next_start)) {
        race.start();
        next_start = Clock::now() + delay;
        continue;
      }
      if (all_done) break;
      if (now >= deadline) {
        // The attempts still running end at the same deadline: a moment for their own
        // errors ("timed out after"), then the destructor gives them up.
        race.changed.wait_until(lock, deadline + milliseconds(200), [&] {
          return std::all_of(race.slots.begin(), race.slots.begin() + race.threads.size(),
                             [](const auto& s) { return s.done; });
        });
        break;
      }
      race.changed.wait_until(lock,
                              race.threads.size() < n ? std::min(next_start, deadline) : deadline);
    }
  }
  std::unique_lock lock(race.mutex);
  if (refused && !winner) std::rethrow_exception(race.slots[*refused].error);
  if (winner) {
    RaceOutcome out{std::move(*race.slots[*winner].ready), attempts[*winner].peer, {}};
    const auto answered = Clock::now();
    for (std::size_t i = 0; i < race.threads.size(); ++i) {
      if (i == *winner) continue;
      const auto& slot = race.slots[i];
      if (slot.error) {
        out.passed_over.push_back(error_text(slot.error));
      } else if (!slot.done) {
        const auto waited = std::chrono::duration_cast<milliseconds>(answered - slot.started);
        out.passed_over.push_back(fmt::format("{}: no answer within {} ms, {} answered",
                                              attempts[i].peer, waited.count(), out.peer));
      }
    }
    return out;
  }
  // None answered: each broker's error, in order.
  std::vector<std::string> errors;
  std::optional<std::exception_ptr> first;
  std::string first_broker;
  for (std::size_t i = 0; i < race.threads.size(); ++i) {
    const auto& slot = race.slots[i];
    if (!first) {
      first = slot.error;
      first_broker = attempts[i].peer;
    }
    errors.push_back(slot.error ? error_text(slot.error)
                                : fmt::format("{}: no answer within {} ms", attempts[i].peer,
                                              settings_.timeout.count()));
  }
  if (n == 1 && *first) std::rethrow_exception(*first);
  throw ClusterError(first_broker, fmt::format("{} ({} of {} {} tried within {} ms, none ready)",
                                               fmt::join(errors, "; "), race.threads.size(), n,
                                               what, settings_.timeout.count()));
}

BrokerChannel ClusterConnector::open_bootstrap(std::vector<std::string>* passed_over) const {
  std::vector<BrokerAttempt> attempts;
  for (const auto& address : settings_.bootstrap)
    attempts.push_back(attempt_open(address));
  if (attempts.empty()) throw std::logic_error("open_bootstrap: no bootstrap brokers");
  auto outcome = race(std::move(attempts), deadline_after(settings_.timeout), "bootstrap brokers");
  if (passed_over) *passed_over = std::move(outcome.passed_over);
  return std::move(outcome.ready.channel);
}

}  // namespace kepoch::cluster
