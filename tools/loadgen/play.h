// Whole hands as a table plays them, for stud_loadgen --rpc=play_hands.
//
// The pool modes (workload.h) replay requests built in advance: with the
// hand ledger on, a replayed ApplyAction is the exact retry of the call that
// made the hand's latest token, which Redis answers with a read, never the
// write (XADD, SET) a real action makes. A HandPlayer instead deals a hand
// (NewHand, 8 seats), answers each update with one of its legal actions, and
// deals the next hand when one ends: every call is a first call, as at a real
// table, and each action's token is the one its previous answer carried.
//
// One player per closed-loop call slot; a player's calls are made one at a
// time, so it needs no lock.
#ifndef STUD_TOOLS_LOADGEN_PLAY_H_
#define STUD_TOOLS_LOADGEN_PLAY_H_

#include <cstdint>
#include <random>
#include <string>

#include "grpcpp/grpcpp.h"
#include "stud/v1/stud.pb.h"

namespace stud::bench {

// The hand every mode plays: seven card stud, $15-$30, 8 seats of 100,000.
stud::v1::NewHandRequest EightSeatHand();

// One of u's legal actions, at random. `passive`: check, call, bring in or
// show where one is legal (a hand played to showdown); otherwise a fold is
// passed over when something else is legal, so hands last.
stud::v1::Action PickAction(const stud::v1::HandUpdate& u, std::mt19937_64& rng, bool passive);

// The method names of the calls a HandPlayer makes (generic stub paths).
const std::string& NewHandMethod();
const std::string& ApplyActionMethod();

class HandPlayer {
 public:
  struct Call {
    const std::string* method;  // NewHandMethod() or ApplyActionMethod()
    grpc::ByteBuffer bytes;
    size_t size = 0;
    std::string hand_id;  // sent as x-stud-hand-id when not empty
  };

  // `hand_header`: every action carries its hand's id (a load balancer's
  // hint). `changes_only`: actions ask for UPDATE_DETAIL_CHANGES (NewHand
  // always asks for the full update: the hand id is in its public view).
  HandPlayer(uint64_t seed, bool hand_header, bool changes_only);

  // The next call: a NewHand when no hand is in play, else an action on the
  // latest token.
  Call Next();
  // The answer to the call Next returned; nullptr when the call failed, after
  // which the next call deals a new hand. Returns false when the answer could
  // not be read (a new hand follows too).
  bool Answered(const grpc::ByteBuffer* response);

  uint64_t hands_finished() const { return hands_finished_; }

 private:
  std::mt19937_64 rng_;
  bool hand_header_;
  bool changes_only_;
  bool dealing_ = true;          // the call in flight (or next) is a NewHand
  stud::v1::HandUpdate update_;  // the latest answer of the hand in play
  std::string hand_id_;
  uint64_t hands_finished_ = 0;
};

}  // namespace stud::bench

#endif  // STUD_TOOLS_LOADGEN_PLAY_H_
