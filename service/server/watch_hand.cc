#include "service/server/watch_hand.h"

#include <atomic>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "service/api/status_mapping.h"
#include "service/server/unary_call.h"
#include "service/token/wire.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

// One WatchHand call. The hub offers it versions (WatchSink, on the hub's
// thread); it writes one message at a time and keeps at most
// kWatchQueueMessages waiting. mu_ guards the queue and the state flags; it is
// never held while calling the hub, and gRPC's Finish/StartWrite are called
// only once the state says so (one write in flight, Finish once).
class WatchCall final : public grpc::ServerWriteReactor<grpc::ByteBuffer>, public WatchSink {
 public:
  WatchCall(const WatchHandDeps& deps, v1::WatchHandRequest request,
            std::optional<MessageLanguage> language)
      : deps_(deps), request_(std::move(request)), language_(language) {}

  void Start(absl::StatusOr<Caller> caller, const absl::Status& refusal) {
    if (!refusal.ok()) return Refuse(refusal);
    if (!caller.ok()) return Refuse(caller.status());
    caller_ = *std::move(caller);
    if (deps_.ledger == nullptr || deps_.hub == nullptr) {
      return Refuse(LedgerNotConfigured("WatchHand"));
    }
    absl::StatusOr<std::string> hex = HandIdFromCaller(request_.hand_id(), "hand_id");
    if (!hex.ok()) return Refuse(hex.status());
    request_.set_hand_id(*hex);
    // A ticket of another hand is refused before the lookup, so it cannot
    // tell which hand ids exist (seat_tickets.h).
    if (absl::Status st = CheckTicketNamesHand(request_.seat_ticket(), *hex); !st.ok()) {
      return Refuse(st);
    }
    // The rest once the ledger has answered, on its thread: no gRPC thread
    // waits on Redis. A cancel meanwhile is finished there (OnCancel).
    {
      std::lock_guard<std::mutex> lock(mu_);
      starting_ = true;
    }
    refs_.fetch_add(1, std::memory_order_relaxed);  // Open's, released by Started
    if (deps_.opening != nullptr) deps_.opening->fetch_add(1, std::memory_order_relaxed);
    deps_.ledger->StartLatest(
        LedgerKey(caller_.tenant, *hex),
        [this](const absl::StatusOr<LedgerLatest>& latest) { Started(latest); });
  }

  // Start, from the ledger's latest entry of the hand; then no longer counted
  // as opening (release: the service's destructor sees everything done here).
  // Open runs on the ledger's thread, outside gRPC's reactions, so gRPC may be
  // done with the call (OnDone) while it runs: Open's reference keeps this
  // object until it returns. The counter is read first: Release may delete it.
  void Started(const absl::StatusOr<LedgerLatest>& latest) {
    std::atomic<int>* const opening = deps_.opening;
    Open(latest);
    Release();
    if (opening != nullptr) opening->fetch_sub(1, std::memory_order_release);
  }

  // Opens the stream, then finishes it when it was refused, or cancelled
  // meanwhile (OnCancel leaves that Finish here while starting_).
  void Open(const absl::StatusOr<LedgerLatest>& latest) {
    const std::optional<absl::Status> refused = Opening(latest);
    std::unique_lock<std::mutex> lock(mu_);
    starting_ = false;
    if (cancelled_while_starting_) {
      lock.unlock();
      deps_.hub->Remove(this);  // in case Opening added it after OnCancel's Remove
      Finish(grpc::Status::CANCELLED);
      return;
    }
    if (refused.has_value()) {
      finished_ = true;
      Finish(Grpc(*refused));
      return;
    }
    // What the hub offered or ended while the stream was starting (Pump
    // waits for this): written now.
    if (!writing_) Pump(lock, /*may_resume=*/false);
  }

  // The checks on the latest entry, then the hub: nullopt once the hub has
  // the call, else the status to end it with (OK: nothing more comes).
  std::optional<absl::Status> Opening(const absl::StatusOr<LedgerLatest>& latest) {
    const std::string& hex = request_.hand_id();
    if (!latest.ok()) return latest.status();
    if (latest->outcome != LedgerOutcome::kLatest) return HandNotInLedger(hex, "hand_id");
    // The ticket against the hand, on its latest token (the same check every
    // message repeats).
    bool complete = false;
    {
      v1::HandUpdate scratch;
      if (absl::Status st =
              deps_.hands->WatchUpdate(Context(), request_, latest->token, 0, &scratch, &complete);
          !st.ok()) {
        return st;
      }
    }
    const uint64_t after = request_.after_version();
    if (after > latest->version) {
      return absl::OutOfRangeError(absl::StrCat(
          "after_version: ", after, " is later than hand ", hex, "'s latest version ",
          latest->version, "; send the last version you received (0 = from the deal)"));
    }
    if (after == latest->version && complete) return absl::OkStatus();  // nothing more comes
    // Last: from here on the hub may offer versions or end the call.
    const uint64_t next = after == 0 ? 0 : after + 1;
    if (absl::Status st =
            deps_.hub->Add(this, caller_.tenant, WatchStreamKey(caller_.tenant, hex), next);
        !st.ok()) {
      return st;
    }
    return std::nullopt;
  }

  bool Offer(WatchEntryPtr entry) override {
    std::unique_lock<std::mutex> lock(mu_);
    if (finished_ || end_.has_value()) return true;  // dropped: the call is ending
    if (queue_.size() >= kWatchQueueMessages) {
      full_ = true;
      return false;
    }
    queue_.push_back(std::move(entry));
    if (!writing_) Pump(lock, /*may_resume=*/false);
    return true;
  }

  void End(const absl::Status& status) override {
    std::unique_lock<std::mutex> lock(mu_);
    if (finished_ || end_.has_value()) return;
    end_ = status;
    if (!status.ok()) queue_.clear();  // an error ends the stream now; the client resumes
    if (!writing_) Pump(lock, /*may_resume=*/false);
  }

  void OnWriteDone(bool ok) override {
    std::unique_lock<std::mutex> lock(mu_);
    writing_ = false;
    if (!ok) return;  // the client is gone: OnCancel finishes
    Pump(lock, /*may_resume=*/true);
  }

  void OnCancel() override {
    if (deps_.hub != nullptr) deps_.hub->Remove(this);
    std::unique_lock<std::mutex> lock(mu_);
    if (finished_) return;
    finished_ = true;
    if (starting_) {  // Open finishes: the stream is still being opened on the ledger's thread
      cancelled_while_starting_ = true;
      return;
    }
    lock.unlock();
    Finish(grpc::Status::CANCELLED);
  }

  void OnDone() override {
    if (deps_.hub != nullptr) deps_.hub->Remove(this);  // no Offer/End after this returns
    Release();
  }

 private:
  // Drops one reference (gRPC's, at OnDone; Open's, in Started); the last
  // deletes this object. The hub's calls need none: OnDone's Remove waits for
  // them (they run under the hub's lock).
  void Release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  // Each message's context: the stream's caller, authenticated once when it opened.
  CallContext Context() const { return {.tenant = caller_.tenant, .device = caller_.device}; }

  grpc::Status Grpc(absl::Status status) const {
    if (language_.has_value() && !status.ok()) SetMessageLanguage(&status, *language_);
    return ToGrpcStatus(status);
  }

  void Refuse(const absl::Status& status) {
    std::lock_guard<std::mutex> lock(mu_);
    finished_ = true;
    Finish(Grpc(status));
  }

  // With mu_ held and no write in flight: writes the next queued version, or
  // finishes when the stream has ended and nothing is left. `may_resume`:
  // not called by the hub (which holds its lock), so the hub may be told that
  // this call has room again.
  void Pump(std::unique_lock<std::mutex>& lock, bool may_resume) {
    // While starting, Open has yet to run on this object: it pumps then, so
    // that no write or Finish here can end the call (and free it) under it.
    if (finished_ || starting_) return;
    if (queue_.empty()) {
      if (!end_.has_value()) {
        // Idle until the next version: the last message's memory goes now
        // rather than staying with the call.
        response_.Clear();
        return;
      }
      finished_ = true;
      const grpc::Status status = Grpc(*end_);
      lock.unlock();
      Finish(status);
      return;
    }
    WatchEntryPtr entry = std::move(queue_.front());
    queue_.pop_front();
    writing_ = true;
    const bool resume = may_resume && full_ && queue_.size() <= kWatchQueueMessages / 2;
    if (resume) full_ = false;
    lock.unlock();
    // The message's bytes, written by the service when it can (rpc/update_bytes.cc)
    // and then handed to gRPC as they are, else the message serialized.
    wire::Buffer bytes;
    CallContext context = Context();
    context.response_bytes = &bytes;
    v1::WatchHandResponse message;
    const absl::Status built = deps_.hands->WatchUpdate(context, request_, entry->token,
                                                        entry->first_op, message.mutable_update());
    grpc::Slice slice = !bytes.empty() ? SliceOwning(bytes)
                        : built.ok()   ? grpc::Slice(message.SerializeAsString())
                                       : grpc::Slice();  // not written: the call ends below
    grpc::ByteBuffer(&slice, 1).Swap(&response_);
    lock.lock();
    writing_ = built.ok() && !finished_;
    if (finished_) return;  // cancelled meanwhile
    if (!built.ok()) {      // a token this replica cannot open (a key not in its ring)
      finished_ = true;
      Finish(Grpc(built));
      return;  // OnDone tells the hub
    }
    // Under mu_, so that no Finish (OnCancel) comes between the check and the
    // write; gRPC runs OnWriteDone later, on its own thread.
    StartWrite(&response_);
    lock.unlock();
    deps_.hub->Sent(entry->read_at);
    if (resume) deps_.hub->Resume(this);
  }

  const WatchHandDeps deps_;
  v1::WatchHandRequest request_;
  const std::optional<MessageLanguage> language_;
  Caller caller_;
  grpc::ByteBuffer response_;  // the message being written

  std::atomic<int> refs_{1};  // gRPC's until OnDone, and Open's while it runs (Release)
  std::mutex mu_;
  std::deque<WatchEntryPtr> queue_;        // guarded by mu_
  std::optional<absl::Status> end_;        // guarded by mu_: the hub ended the stream
  bool writing_ = false;                   // guarded by mu_
  bool full_ = false;                      // guarded by mu_: refused an Offer
  bool finished_ = false;                  // guarded by mu_: Finish was called (or is left to Open)
  bool starting_ = false;                  // guarded by mu_: opening, on the ledger's answer
  bool cancelled_while_starting_ = false;  // guarded by mu_: OnCancel left its Finish to Open
};

}  // namespace

grpc::ServerWriteReactor<grpc::ByteBuffer>* StartWatchHand(
    const WatchHandDeps& deps, v1::WatchHandRequest request, absl::StatusOr<Caller> caller,
    const absl::Status& refusal, std::optional<MessageLanguage> language) {
  auto* call = new WatchCall(deps, std::move(request), language);
  call->Start(std::move(caller), refusal);
  return call;
}

}  // namespace stud::service
